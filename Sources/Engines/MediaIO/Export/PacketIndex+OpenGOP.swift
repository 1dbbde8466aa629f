import Foundation

extension AVCConfiguration {
    /// A renumbering of copied packets that starts at an open GOP's I picture, with this
    /// track's parameter sets.
    var openGOPRewriter: H264OpenGOPRewriter {
        H264OpenGOPRewriter(sequenceParameterSets: sequenceParameterSets, pictureParameterSets: pictureParameterSets,
                            lengthSize: lengthSize)
    }
}

/// Finds, while the packets are scanned, the H.264 open GOPs a copy can start at: each non-IDR
/// keyframe is tried as `H264OpenGOPRewriter` would copy it — its leading pictures (right after
/// it in decode order, shown before it) left out, every packet up to the next keyframe
/// renumbered. One that renumbers cleanly becomes a `cleanRandomAccess` entry and its leading
/// pictures `leading` ones, so the plan treats it as it treats an HEVC CRA.
struct OpenGOPStarts {
    private struct Trial {
        let position: Int
        let pts: Int64
        var rewriter: H264OpenGOPRewriter
        var inLeading = true
        var leadingEnd: Int
    }

    private let configuration: AVCConfiguration
    private var trial: Trial?
    /// The keyframes found usable, and where each one's leading pictures end.
    private(set) var starts: [(position: Int, leadingEnd: Int)] = []

    init(configuration: AVCConfiguration) {
        self.configuration = configuration
    }

    /// The next packet in decode order, at `position`.
    mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>, position: Int, pts: Int64, isKeyframe: Bool, kind: PacketIndex.PictureKind) {
        if isKeyframe {
            // The trial before reached the next keyframe: every packet of its group renumbered.
            finish()
            guard kind == .other else { return }
            var rewriter = configuration.openGOPRewriter
            guard rewriter.rewrite(Array(bytes)) != nil else { return }
            trial = Trial(position: position, pts: pts, rewriter: rewriter, leadingEnd: position + 1)
            return
        }
        guard var current = trial else { return }
        if current.inLeading, pts < current.pts {
            current.leadingEnd = position + 1
            trial = current
            return
        }
        current.inLeading = false
        trial = current.rewriter.rewrite(Array(bytes)) == nil ? nil : current
    }

    /// The trial still open at the end of the stream counts too.
    mutating func finish() {
        if let trial { starts.append((trial.position, trial.leadingEnd)) }
        trial = nil
    }
}
