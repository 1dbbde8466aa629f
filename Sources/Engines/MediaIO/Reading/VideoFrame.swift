import Foundation
import ViewfinderCore

/// How a frame is chosen for a time.
public enum FrameMode: String, Sendable, CaseIterable {
    /// The last frame whose presentation time is at or before the time (decodes forward from
    /// the keyframe before it).
    case exact
    /// The keyframe at or before the time: one decode, for previews and strips.
    case fast
}

/// How large the returned picture should be (always in display orientation, aspect kept).
public enum FrameSize: Sendable, Hashable {
    /// The display size of the video.
    case original
    /// Fit inside this box, never enlarged.
    case fit(PixelSize)
    /// This height exactly, width following the aspect ratio.
    case height(Int)

    func resolve(_ display: PixelSize) -> PixelSize {
        switch self {
        case .original: return display
        case .fit(let box): return display.fitting(in: box)
        case .height(let h): return display.scaled(toHeight: h)
        }
    }
}

/// A decoded picture and where it sits in the video.
public struct VideoFrame: Sendable, Equatable {
    /// The picture, rotated for display and scaled as asked.
    public let image: PixelBuffer
    /// Presentation time measured from the first frame (0 = first frame).
    public let time: MediaTime
    /// The raw presentation timestamp in the stream's time base.
    public let timestamp: Int64
    /// Whether the frame is a keyframe.
    public let isKeyframe: Bool
    /// How it was chosen.
    public let mode: FrameMode
}

/// Counters that show how much work a reader did (for tests and benchmarks).
public struct FrameReaderStatistics: Sendable, Equatable {
    /// Calls to the demuxer's seek.
    public var seeks = 0
    /// Packets handed to the decoder.
    public var packetsSent = 0
    /// Of those, packets sent while the decoder was allowed to skip non-reference frames.
    public var packetsSkippable = 0
    /// Frames the decoder returned.
    public var framesDecoded = 0
}

/// Limits that protect the process from absurd or hostile files.
public struct DecodeLimits: Sendable, Equatable {
    /// Largest picture (width × height) that will be decoded.
    public var maxPixels: Int64
    /// Longest side that will be decoded.
    public var maxSide: Int

    public init(maxPixels: Int64 = 8192 * 8192, maxSide: Int = 16384) {
        self.maxPixels = maxPixels
        self.maxSide = maxSide
    }

    public static let `default` = DecodeLimits()
}
