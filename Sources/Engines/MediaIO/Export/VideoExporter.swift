internal import CFFmpeg
import Foundation
import ViewfinderCore

/// Converts, re-encodes and trims videos into MP4 files.
///
/// Passthrough copies the streams (the display matrix travels with them); the other presets
/// re-encode the video with H.264 and keep the rotation as the matrix (pixels are never turned,
/// so the rotation applies exactly once). A trim starts at the frame at `start`, as the cover
/// engine defines it, and ends before the first frame shown at or after `end`. The output is
/// written beside its destination and renamed into place only when complete; on failure or
/// cancellation nothing is left.
///
/// Smart cuts and joins of several ranges are VideoEditing's policy (`VideoEditor`): it decides
/// between a smart cut and a re-encode with `smartObstacle`, writes through `smartSession`, and
/// gives the exporter its smart cut as `smartCutting` (with which a copy whose last frames refer
/// to later ones is finished). Without it, a trim of one range takes the ordinary path and
/// several ranges are refused.
public final class VideoExporter: Sendable {
    public let input: URL
    public let output: URL
    public let settings: ExportSettings
    /// The smart cut's policy (VideoEditing's), nil for an exporter made without one.
    let smartCutting: (any SmartCutting)?

    public init(input: URL, output: URL, settings: ExportSettings = ExportSettings()) {
        self.input = input
        self.output = output
        self.settings = settings
        smartCutting = nil
    }

    /// An exporter that makes smart cuts and joins with `smartCutting` (VideoEditing's policy).
    package init(input: URL, output: URL, settings: ExportSettings, smartCutting: any SmartCutting) {
        self.input = input
        self.output = output
        self.settings = settings
        self.smartCutting = smartCutting
    }

    /// The cookbook's "can this video be edited?": true only when a frame can be decoded.
    public static func canEdit(_ url: URL) -> Bool {
        guard let reader = try? FrameReader(url: url) else { return false }
        return (try? reader.frame(at: .time(.zero), mode: .fast, size: .fit(PixelSize(width: 16, height: 16)))) != nil
    }

    /// Codecs an MP4 holds as they are.
    static let mp4Video: Set<String> = ["h264", "hevc"]
    static let mp4Audio: Set<String> = ["aac", "mp3", "alac"]

    /// Runs the export. `progress` (if given) gets `totalUnitCount` in milliseconds of output
    /// and is advanced as output is written; cancelling it stops the export.
    @discardableResult
    public func run(progress: Progress? = nil) throws(MediaIOError) -> ExportResult {
        try run(progress: progress, reading: try openChecked())
    }

    /// A reader of `input` after the checks every export makes first: the output is not the
    /// input, and the input is no longer than `settings.maxDuration` (read from its header).
    /// One open: the header refuses a long input before any analysis, and the reader goes on
    /// with the same file.
    package func openChecked() throws(MediaIOError) -> FrameReader {
        try refuseWritingOverInput()
        let header = try MediaHeader(url: input)
        if let maximum = settings.maxDuration, let recorded = header.recordedDuration, recorded > maximum {
            throw .timePastEnd(path: input.path, requested: maximum, duration: recorded)
        }
        return try FrameReader(header: header)
    }

    /// Runs the export on a reader of `input` already open (one open for a caller that read a
    /// frame first, such as the cover it attaches); the duration limit is the caller's to check.
    @discardableResult
    public func run(progress: Progress? = nil, reading reader: FrameReader) throws(MediaIOError) -> ExportResult {
        try refuseWritingOverInput()
        if settings.ranges.count > 1 {
            throw .encodeFailed(path: output.path, detail: tr("several ranges are joined by VideoEditing's editor, not by MediaIO's exporter alone"))
        }
        let plan = try makePlan(reader)
        progress?.totalUnitCount = max(1, Int64(plan.expectedDuration.seconds * 1000))
        if progress?.isCancelled == true { throw .cancelled }
        let session = try ExportSession(plan: plan, reader: reader, output: output, progress: progress, smartCutting: smartCutting)
        return plan.passthrough ? try session.remux() : try session.transcode()
    }

    package func refuseWritingOverInput() throws(MediaIOError) {
        if output.standardizedFileURL.resolvingSymlinksInPath().path == input.standardizedFileURL.resolvingSymlinksInPath().path {
            throw .outputIsInput(path: output.path)
        }
    }

    // MARK: - Planning

    /// What the export will do, decided before any byte is written.
    struct Plan {
        let input: URL
        let fastStart: Bool
        let passthrough: Bool
        let note: String?
        let keyframeBefore: MediaTime?
        let box: PixelSize?
        let quality: VideoEncoder.Quality
        /// First frame to write (stream ticks).
        let startPTS: Int64
        /// Frames shown at or after this time (from the first frame) are not written.
        let endTime: MediaTime
        let expectedDuration: MediaTime
        /// Whether the trim ends before the video does.
        let trimsEnd: Bool
        let audioCodec: String?
        /// The picture attached as the output's cover art.
        let cover: CoverAttachment?
        /// What the source's video signals about its colour.
        let colour: VideoColour
        /// Whether HDR video is made SDR.
        let toSDR: Bool

        /// How HDR video is re-encoded to stay HDR (10-bit HEVC with its metadata); nil for SDR
        /// video and for HDR made SDR.
        var hdrEncoding: VideoEncoder.HDR? {
            colour.dynamicRange == nil || toSDR ? nil : VideoEncoder.HDR(metadata: colour.mastering)
        }

        /// Whether frames are tone-mapped to SDR before they are encoded.
        var toneMaps: Bool { colour.dynamicRange != nil && toSDR }
    }

    private func makePlan(_ reader: FrameReader) throws(MediaIOError) -> Plan {
        let videoCodec = reader.video.codec
        let audioCodec = reader.info.audioCodec
        let fits = Self.mp4Video.contains(videoCodec) && (audioCodec.map(Self.mp4Audio.contains) ?? true)
        var passthrough: Bool
        switch settings.preset {
        case .auto: passthrough = fits
        case .passthrough:
            guard Self.mp4Video.contains(videoCodec) else {
                throw .cannotPassthrough(path: input.path, reason: tr("its {codec} video has no place in MP4", ["codec": videoCodec]))
            }
            if let audioCodec, !Self.mp4Audio.contains(audioCodec) {
                throw .cannotPassthrough(path: input.path, reason: tr("its {codec} audio has no place in MP4", ["codec": audioCodec]))
            }
            passthrough = true
        default: passthrough = false
        }
        let makesSDR = settings.toSDR && reader.video.colour.dynamicRange != nil
        if makesSDR {
            if settings.preset == .passthrough {
                throw .cannotPassthrough(path: input.path, reason: tr("making its HDR video SDR re-encodes it"))
            }
            passthrough = false
        }

        var startPTS = reader.timeMapping.origin
        var endTime = reader.duration
        var note: String?
        var keyframeBefore: MediaTime?
        if let range = settings.range {
            let start = try reader.exactTimestamp(at: range.start)
            startPTS = start.pts
            if let end = range.end {
                endTime = try endTimeOf(end, reader: reader)
            }
            if passthrough && !start.isKeyframe {
                let keyPTS = try reader.keyframeTimestamp(at: range.start)
                let keyTime = reader.timeMapping.time(ofTimestamp: keyPTS)
                if settings.keyframeCut {
                    startPTS = keyPTS
                } else {
                    let at = reader.timeMapping.time(ofTimestamp: start.pts)
                    note = tr("the cut at {time} s is not on a keyframe (the one before is at {keyframe} s), so the video is re-encoded; a keyframe cut would start there without re-encoding",
                              ["time": at.decimalString, "keyframe": keyTime.decimalString])
                    keyframeBefore = keyTime
                    passthrough = false
                }
            }
        }
        let startTime = reader.timeMapping.time(ofTimestamp: startPTS)
        guard endTime > startTime, let expected = endTime.subtracting(startTime) else {
            throw .timePastEnd(path: input.path, requested: startTime, duration: endTime)
        }
        let quality = VideoEncoder.Quality(crf: settings.preset.encoding.crf, preset: ExportPreset.exportSpeed)
        return Plan(input: input, fastStart: settings.fastStart, passthrough: passthrough, note: note, keyframeBefore: keyframeBefore,
                    box: settings.preset.box, quality: quality, startPTS: startPTS, endTime: endTime,
                    expectedDuration: expected, trimsEnd: endTime < reader.duration, audioCodec: audioCodec,
                    cover: settings.cover, colour: reader.video.colour, toSDR: settings.toSDR)
    }

    // MARK: - Smart cuts and joins

    /// Containers whose H.264 and HEVC tracks carry the avcC or hvcC configuration a smart cut reads.
    static let smartContainers: Set<String> = ["mp4", "mov", "matroska"]
    /// The codecs a smart cut can re-encode the edges of (libx264, libx265).
    static let smartCodecs: Set<String> = ["h264", "hevc"]

    /// Why this export cannot be a smart cut, nil when it can (VideoEditing's policy decides
    /// what then happens).
    package func smartObstacle(_ reader: FrameReader) -> String? {
        if settings.method != .smart { return "--method reencode was asked for" }
        if settings.keyframeCut { return "--keyframe-cut was asked for" }
        if !Self.smartCodecs.contains(reader.video.codec) {
            return tr("its video is {codec}, and smart cuts are made on H.264 and HEVC", ["codec": reader.video.codec])
        }
        if !Self.smartContainers.contains(reader.info.container) {
            return tr("its {container} container has no avcC or hvcC configuration", ["container": reader.info.container])
        }
        if settings.preset.box != nil { return tr("the {preset} preset changes the size", ["preset": settings.preset]) }
        if settings.toSDR, reader.video.colour.dynamicRange != nil { return tr("making HDR video SDR re-encodes every frame") }
        return nil
    }

    /// A session for a smart cut or join of `settings.ranges` from `reader` (`expected`: how
    /// long the kept ranges are together), for VideoEditing's policy to write with.
    package func smartSession(_ reader: FrameReader, expected: MediaTime, progress: Progress?) throws(MediaIOError) -> ExportSession {
        try ExportSession(plan: smartPlan(reader, expected: expected), reader: reader, output: output, progress: progress)
    }

    private func smartPlan(_ reader: FrameReader, expected: MediaTime) -> Plan {
        Plan(input: input, fastStart: settings.fastStart, passthrough: false, note: nil, keyframeBefore: nil,
             box: settings.preset.box, quality: VideoEncoder.Quality(crf: settings.preset.encoding.crf, preset: ExportPreset.exportSpeed),
             startPTS: reader.timeMapping.origin, endTime: reader.duration, expectedDuration: expected, trimsEnd: false,
             audioCodec: reader.info.audioCodec, cover: settings.cover, colour: reader.video.colour, toSDR: settings.toSDR)
    }

    private func endTimeOf(_ end: TimePosition, reader: FrameReader) throws(MediaIOError) -> MediaTime {
        switch end {
        case .time(let t):
            guard t <= reader.duration else { throw .timePastEnd(path: input.path, requested: t, duration: reader.duration) }
            return t
        case .frame:
            return reader.timeMapping.time(ofTimestamp: try reader.exactTimestamp(at: end).pts)
        }
    }
}

extension VideoExporter {
    /// Whether an export named `url` can carry cover art: MP4 only (FFmpeg 5.1's QuickTime writer
    /// drops attached pictures, so a `.mov` with a cover is refused before any work).
    public static func holdsCover(_ url: URL) -> Bool { MP4Output.holdsCover(url) }
}
