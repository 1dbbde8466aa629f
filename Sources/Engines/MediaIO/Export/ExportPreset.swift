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

    /// The named presets, in the order help texts list them (then `WxH` for `.fit`). Help,
    /// errors and the capture qualities are made from this list and from `encoding`.
    public static let named: [ExportPreset] = [.auto, .passthrough, .highest, .medium, .low]

    /// "auto, passthrough, highest, medium, low or WxH", for help and error texts.
    public static var choices: String {
        tr("{values} or WxH", ["values": named.map(\.description).joined(separator: ", ")])
    }

    /// Parses a name from `named` or `WxH` (both sides 2 to 16384).
    public init?(parsing text: String) {
        if let preset = Self.named.first(where: { $0.description == text.lowercased() }) {
            self = preset
            return
        }
        guard let size = PixelSize(parsing: text), size.width >= 2, size.height >= 2 else { return nil }
        self = .fit(size)
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

    /// How a preset re-encodes: the box the picture fits in (nil keeps its size) and x264's
    /// constant rate factor. The one quality table of the project: exports, camera recordings
    /// and rendered animations all read it.
    public struct Encoding: Sendable, Hashable {
        /// The box a transcode fits in, nil for "keep the size".
        public let box: PixelSize?
        /// x264's constant rate factor (lower is better; 18 is visually lossless).
        public let crf: Int

        /// What x265's rate factor (HDR re-encodes) adds to `crf`: x265's scale sits about 4–5
        /// above x264's for a like picture (its default 28 against x264's 23).
        public static let x265Offset = 4
    }

    /// The re-encoding this preset stands for (`auto` and `passthrough` re-encode as `highest`
    /// when they must).
    public var encoding: Encoding {
        switch self {
        case .auto, .passthrough, .highest: return Encoding(box: nil, crf: 18)
        case .medium: return Encoding(box: PixelSize(width: 960, height: 540), crf: 21)
        case .low: return Encoding(box: PixelSize(width: 640, height: 360), crf: 23)
        case .fit(let size): return Encoding(box: size, crf: 21)
        }
    }

    /// x264's speed preset for an export: "fast" (a good size for the time); recordings that
    /// must keep up with a camera use `realTimeSpeed`.
    static let exportSpeed = "fast"
    /// x264's speed preset for encoding as frames arrive (cameras, animation renders).
    static let realTimeSpeed = "veryfast"

    /// The box a transcode fits in, nil for "keep the size".
    var box: PixelSize? { encoding.box }

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

/// How a trim treats the frames it keeps.
public enum TrimMethod: String, Sendable, Hashable, CaseIterable {
    /// Re-encode only the frames between each cut and the nearest clean keyframe inside the
    /// range, copy the rest packet for packet (H.264 in MP4, MOV or Matroska); anything else is
    /// re-encoded whole, with a note.
    case smart
    /// Copy when the cut falls on keyframes, else re-encode the whole kept range.
    case reencode
}

extension ExportRange {
    /// Whether two ranges share a moment; nil when that cannot be told without the file (frame
    /// numbers beside times, or an open end).
    public func overlaps(_ other: ExportRange) -> Bool? {
        switch (start, end, other.start, other.end) {
        case (.time(let a), .time(let b)?, .time(let c), .time(let d)?): return a < d && c < b
        case (.frame(let a), .frame(let b)?, .frame(let c), .frame(let d)?): return a < d && c < b
        default: return nil
        }
    }
}

extension TimePosition {
    /// Whether this comes before `other`; nil when that needs the file (a time and a frame).
    public func isBefore(_ other: TimePosition) -> Bool? {
        switch (self, other) {
        case (.time(let a), .time(let b)): return a < b
        case (.frame(let a), .frame(let b)): return a < b
        default: return nil
        }
    }
}

/// Everything an export needs to know.
public struct ExportSettings: Sendable, Hashable {
    public var preset: ExportPreset
    /// Index before the media data ("optimised for network use").
    public var fastStart: Bool
    /// The ranges a trim keeps, joined in this order; empty for the whole video.
    public var ranges: [ExportRange]
    /// How a trim keeps its frames.
    public var method: TrimMethod
    /// With passthrough, cut at the keyframe at or before the start instead of re-encoding.
    public var keyframeCut: Bool
    /// Refuse inputs longer than this (checked from metadata before any work).
    public var maxDuration: MediaTime?
    /// A picture to attach as the output's cover art, ready or being made beside the export
    /// (any cover art of the input is dropped either way, so this replaces it).
    public var cover: CoverAttachment?
    /// Make HDR (HLG or PQ) video SDR: tone-mapped as stills are, 8-bit BT.709 H.264. Without
    /// it HDR video stays HDR (re-encodes are 10-bit HEVC). SDR video is not touched by it.
    public var toSDR: Bool

    public init(preset: ExportPreset = .auto, fastStart: Bool = true, range: ExportRange? = nil,
                keyframeCut: Bool = false, maxDuration: MediaTime? = nil, method: TrimMethod = .smart,
                cover: CoverAttachment? = nil, toSDR: Bool = false) {
        self.preset = preset
        self.toSDR = toSDR
        self.cover = cover
        self.fastStart = fastStart
        self.ranges = range.map { [$0] } ?? []
        self.keyframeCut = keyframeCut
        self.maxDuration = maxDuration
        self.method = method
    }

    /// A single trim (the first range), or nil for the whole video; setting it replaces `ranges`.
    public var range: ExportRange? {
        get { ranges.first }
        set { ranges = newValue.map { [$0] } ?? [] }
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
    /// When a passthrough cut was re-encoded because it does not start on a keyframe: the
    /// keyframe before it, where a keyframe cut would start without re-encoding.
    public var keyframeBefore: MediaTime? = nil
    /// Of `frameCount`, the frames a smart cut re-encoded and copied (nil for other methods).
    public var reencodedFrames: Int? = nil
    public var copiedFrames: Int? = nil
    /// The stretches of the output in order: where each came from and how it was made.
    public var parts: [ExportPart] = []
}

extension ExportResult {
    /// A result as a smart cut (made above MediaIO, by VideoEditing) writes it.
    package static func made(method: String, note: String?, start: MediaTime, duration: MediaTime, frameCount: Int,
                             size: PixelSize, audio: String?, reencodedFrames: Int?, copiedFrames: Int?,
                             parts: [ExportPart]) -> ExportResult {
        ExportResult(method: method, note: note, start: start, duration: duration, frameCount: frameCount, size: size,
                     audio: audio, reencodedFrames: reencodedFrames, copiedFrames: copiedFrames, parts: parts)
    }

    /// The same result with `note` (when given) as its note.
    package func noting(_ note: String?) -> ExportResult {
        guard let note else { return self }
        var made = ExportResult(method: method, note: note, start: start, duration: duration, frameCount: frameCount,
                                size: size, audio: audio, keyframeBefore: nil)
        made.reencodedFrames = reencodedFrames
        made.copiedFrames = copiedFrames
        made.parts = parts
        return made
    }
}

/// One stretch of a trim's output: frames from `start` (on the input's timeline) for `duration`,
/// re-encoded or copied.
public struct ExportPart: Sendable, Equatable {
    /// True when the frames were re-encoded, false when their packets were copied.
    public let reencoded: Bool
    /// Time on the input (from its first frame) of the first frame.
    public let start: MediaTime
    public let duration: MediaTime
    public let frames: Int

    package init(reencoded: Bool, start: MediaTime, duration: MediaTime, frames: Int) {
        self.reencoded = reencoded
        self.start = start
        self.duration = duration
        self.frames = frames
    }
}
