import Foundation
import ViewfinderCore

/// How an export encodes, mirroring the platform's export presets.
public enum ExportPreset: Sendable, Hashable, CustomStringConvertible {
    /// Passthrough when the streams fit MP4 as they are, otherwise `highest`.
    case auto
    /// Remux: the streams are copied, nothing is re-encoded.
    case passthrough
    /// Keep the resolution; H.264 at high quality, audio AAC.
    case highest
    /// Fit 960×540 (either orientation).
    case medium
    /// Fit 640×360 (either orientation).
    case low
    /// Fit this box (either orientation).
    case fit(PixelSize)

    /// Parses `auto`, `passthrough`, `highest`, `medium`, `low` or `WxH`.
    public init?(parsing text: String) {
        switch text.lowercased() {
        case "auto": self = .auto
        case "passthrough": self = .passthrough
        case "highest": self = .highest
        case "medium": self = .medium
        case "low": self = .low
        default:
            let parts = text.lowercased().split(whereSeparator: { $0 == "x" || $0 == "×" })
            guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]),
                  (2...16384).contains(w), (2...16384).contains(h) else { return nil }
            self = .fit(PixelSize(width: w, height: h))
        }
    }

    public var description: String {
        switch self {
        case .auto: return "auto"
        case .passthrough: return "passthrough"
        case .highest: return "highest"
        case .medium: return "medium"
        case .low: return "low"
        case .fit(let size): return "\(size.width)x\(size.height)"
        }
    }

    /// The box a transcode fits in, nil for "keep the size".
    var box: PixelSize? {
        switch self {
        case .medium: return PixelSize(width: 960, height: 540)
        case .low: return PixelSize(width: 640, height: 360)
        case .fit(let size): return size
        default: return nil
        }
    }

    /// The encoded size for a coded picture: fits the box with the long side against the long
    /// side (so portrait video gets a portrait box), keeps the aspect ratio, never enlarges,
    /// and rounds both sides down to even numbers (4:2:0 needs them).
    static func encodedSize(for coded: PixelSize, box: PixelSize?) -> PixelSize {
        var target = coded
        if let box {
            let oriented = (coded.width >= coded.height) == (box.width >= box.height) ? box : box.transposed
            target = coded.fitting(in: oriented)
        }
        return PixelSize(width: max(2, target.width & ~1), height: max(2, target.height & ~1))
    }
}

/// Which part of a video an export keeps: from the frame at `start` up to (not including) the
/// first frame shown at or after `end`.
public struct ExportRange: Sendable, Hashable {
    public let start: TimePosition
    public let end: TimePosition?

    public init(start: TimePosition, end: TimePosition?) {
        self.start = start
        self.end = end
    }
}

/// Everything an export needs to know.
public struct ExportSettings: Sendable, Hashable {
    public var preset: ExportPreset
    /// Index before the media data ("optimised for network use").
    public var fastStart: Bool
    /// A trim, or nil for the whole video.
    public var range: ExportRange?
    /// With passthrough, cut at the keyframe at or before the start instead of re-encoding.
    public var keyframeCut: Bool
    /// Refuse inputs longer than this (checked from metadata before any work).
    public var maxDuration: MediaTime?

    public init(preset: ExportPreset = .auto, fastStart: Bool = true, range: ExportRange? = nil,
                keyframeCut: Bool = false, maxDuration: MediaTime? = nil) {
        self.preset = preset
        self.fastStart = fastStart
        self.range = range
        self.keyframeCut = keyframeCut
        self.maxDuration = maxDuration
    }
}

/// What an export did.
public struct ExportResult: Sendable, Equatable {
    /// How the video was written: "passthrough" or the encoder's name.
    public let method: String
    /// Why a passthrough request was re-encoded, if it was.
    public let note: String?
    /// Time (from the first frame of the input) of the first frame written.
    public let start: MediaTime
    /// Length of the output's video.
    public let duration: MediaTime
    /// Frames written.
    public let frameCount: Int
    /// Size of the output's pictures (coded, before the kept rotation).
    public let size: PixelSize
    /// Audio: "copied", "aac" (re-encoded) or nil for none.
    public let audio: String?
}
