internal import CFFmpeg
import Foundation
import ViewfinderCore

// The mechanisms a smart cut is made with, for VideoEditing's policy (what to copy, what to
// re-encode, how the ranges join: `SmartCutDriver.swift` there) to call: scanning the packets
// into an index, reading and seeking, the output's tracks, the encoders, writer and audio of
// `SmartCutWriting.swift` and `SmartCutAudio.swift`, and the check decode. No C type crosses
// this line: streams and packets stay MediaIO's.

/// A smart cut's policy, which an export runs where it cuts smartly (VideoEditing provides
/// it; without one, an export of one range takes the ordinary path and one of several is refused).
package protocol SmartCutting: Sendable {
    /// Writes `ranges` joined in order from `session`'s input to its output: `copying`, a
    /// smart cut (the edges re-encoded, the rest copied); without, every range re-encoded.
    func smartCut(_ session: ExportSession, ranges: [ExportRange], copying: Bool) throws(MediaIOError) -> SmartCutOutcome
}

/// How a smart cut ended: written, not possible on this input (the caller re-encodes), or
/// cancelled (nothing is left behind).
package enum SmartCutOutcome {
    case written(ExportResult)
    case unavailable(String)
    case cancelled
}

/// The output's video track of a smart cut.
package struct SmartOutputTrack {
    let stream: UnsafeMutablePointer<AVStream>

    /// The track's index in the output.
    package var index: Int { Int(stream.pointee.index) }
}

extension ExportSession {
    /// How the input's video track keeps the pictures of two encoders, or why a smart cut
    /// cannot be made on it.
    package func smartTrack() -> Result<SmartTrack, SmartCutUnavailable> {
        SmartTrack.of(video)
    }

    /// The input's video packets in decode order (demuxed, not decoded); nil when cancelled.
    package func scanPackets(track: SmartTrack?) throws(MediaIOError) -> PacketIndex? {
        try PacketIndex.scan(container, video: video, track: track, isCancelled: { cancellationRequested() })
    }

    /// Seeks to the keyframe at or before the video decode time `ticks` (from the start when
    /// the demuxer cannot).
    package func seekVideo(toDecodeTime ticks: Int64) {
        if av_seek_frame(container.context, video.pointee.index, ticks, AVSEEK_FLAG_BACKWARD) < 0 {
            container.rewind()
        }
    }

    /// Whether `packet` is of the input's video track (else of its audio).
    package func isVideo(_ packet: OwnedPacket) -> Bool {
        packet.streamIndex == video.pointee.index
    }

    /// When an audio packet of the input is shown (nil when it carries no time).
    package func audioTime(of packet: OwnedPacket) -> MediaTime? {
        audio.flatMap { stream in (packet.pts ?? packet.dts).flatMap { time($0, in: stream) } }
    }

    /// The output file, written beside its destination; `editsMovie`: its video track gets
    /// several sample descriptions (`MP4Output.finish(describing:)`).
    package func makeOutput(editsMovie: Bool) throws(MediaIOError) -> MP4Output {
        try MP4Output(url: output, fastStart: plan.fastStart, cover: plan.cover, editsMovie: editsMovie)
    }

    /// Adds the output's video track: the source's (with the parameter sets of both encoders
    /// for H.264) when copying, the encoder's otherwise.
    package func addVideoTrack(to out: MP4Output, lanes: EncoderLanes) throws(MediaIOError) -> SmartOutputTrack {
        switch lanes.track {
        case .avc(let config)?:
            let stream = try out.addCopy(of: video)
            try out.setExtradata(config.record, of: stream)
            return SmartOutputTrack(stream: stream)
        case .hevc?:
            return SmartOutputTrack(stream: try out.addCopy(of: video))
        case nil:
            return SmartOutputTrack(stream: try out.addStream(for: lanes.shared.context, sideDataFrom: video))
        }
    }

    /// The audio of a cut of `ranges` ranges (nil when the output has none); its track is
    /// added to `out` here, before the output starts.
    package func smartAudio(ranges: Int, out: MP4Output) throws(MediaIOError) -> SmartAudio? {
        try audio.map { stream throws(MediaIOError) in try SmartAudio(input: stream, ranges: ranges, out: out, path: path) }
    }

    /// The input's video decoder configuration (avcC or hvcC) bytes, nil when it has none.
    package var sourceConfigurationRecord: [UInt8]? { video.extradataBytes }
}

extension ExportSession {
    // MARK: - Checking the output

    /// Decodes the first frames of every stretch of the written file with a strict decoder (into
    /// a copy, from the start of the re-encoded stretch before it); a
    /// description of the first problem, nil when the file holds the frames it should and each
    /// stretch starts with a picture that decodes.
    package static func probeDecode(_ url: URL, parts: [ExportPart], mapping: PictureMaker) throws(MediaIOError) -> String? {
        let container = try MediaContainer(url: url)
        guard let stream = container.videoStream else { return tr("the output has no video track") }
        let index = stream.pointee.index
        var shown: [Int64] = []
        while let packet = try container.readPacket(onDamage: .fail, accepting: { $0 == index }) {
            if let pts = packet.pts, !packet.isDiscarded { shown.append(pts) }
        }
        shown.sort()
        let total = parts.reduce(0) { $0 + $1.frames }
        guard shown.count == total else { return trn("the output holds {count} frame, not {expected}", "the output holds {count} frames, not {expected}", shown.count, ["expected": total]) }
        var first = 0
        var previous: (part: ExportPart, start: Int64)?
        for part in parts {
            let target = shown[first]
            // The first frames of the stretch, not just one: an intra picture may decode with
            // the wrong parameter sets where the predicted pictures after it would not.
            let through = shown[first + min(part.frames, 8) - 1]
            defer { previous = (part, target) }
            first += part.frames
            // Into a copy the decoder comes from a re-encoded stretch, whose parameter sets and
            // pictures it still holds: decode from that stretch's start across the join, as a
            // player does. (A seek alone would start afresh from the sample description.)
            let from = previous.map { $0.part.reencoded && !part.reencoded ? $0.start : target } ?? target
            // A fresh demuxer with each fresh decoder: FFmpeg's hands a decoder the sample
            // description a packet points at only where it differs from the last packet's,
            // and a new decoder starts from the first description.
            let container = try MediaContainer(url: url)
            guard let stream = container.videoStream else { return tr("the output has no video track") }
            let decoder = try VideoDecoder(stream: stream, path: url.path, threads: 1, strict: true)
            guard av_seek_frame(container.context, index, from, AVSEEK_FLAG_BACKWARD) >= 0 else {
                return tr("cannot seek in the output")
            }
            var errors = 0
            var decoded: [Int64] = []
            var sent = 0
            // Each stretch starts with an IDR, where the seek lands; a short one may land earlier,
            // and a re-encoded stretch that goes on from the range before starts without one.
            let limit = 400 + (from == target && previous?.part.reencoded != true ? 0 : previous?.part.frames ?? 0)
            while sent < limit, !decoded.contains(where: { $0 >= through }),
                  let packet = try container.readPacket(onDamage: .fail, accepting: { $0 == index }) {
                sent += 1
                decoded += try decoder.decode(packet, errors: &errors).compactMap(\.pts)
            }
            decoded += try decoder.decode(nil, errors: &errors).compactMap(\.pts)
            if errors > 0 || !decoded.contains(target) {
                return tr("the output's frames from {time} s of the input do not decode cleanly", ["time": part.start.decimalString])
            }
        }
        return nil
    }
}

extension UnsafeMutablePointer where Pointee == AVStream {
    /// The frame rate an encoder of this stream declares: the average, else the real base
    /// rate, else 30.
    var encodingFrameRate: AVRational {
        pointee.avg_frame_rate.num > 0 ? pointee.avg_frame_rate
            : (pointee.r_frame_rate.num > 0 ? pointee.r_frame_rate : AVRational(num: 30, den: 1))
    }

    /// The stream's decoder configuration bytes, nil when it has none.
    var extradataBytes: [UInt8]? {
        guard let par = pointee.codecpar, let data = par.pointee.extradata, par.pointee.extradata_size > 0 else { return nil }
        return Array(UnsafeBufferPointer(start: data, count: Int(par.pointee.extradata_size)))
    }
}
