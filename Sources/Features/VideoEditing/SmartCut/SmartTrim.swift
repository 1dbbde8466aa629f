import Foundation
import MediaIO
import ViewfinderCore

/// How a trim is made (the editor's policy): a smart cut where the input and the settings allow
/// one, else the ordinary re-encode, with a note saying why; several ranges are always joined
/// here, copied where they can be, re-encoded otherwise. MediaIO's exporter says what stands in
/// a smart cut's way and opens the sessions; this decides what to do about it.
struct SmartTrim {
    let exporter: VideoExporter
    let policy: SmartCutPolicy

    /// The trim, or nil when the exporter's ordinary path should make it (no ranges, or one
    /// range that cannot be a smart cut).
    func run(_ reader: FrameReader, progress: Progress?) throws(MediaIOError) -> ExportResult? {
        let settings = exporter.settings
        let ranges = settings.ranges
        guard !ranges.isEmpty else { return nil }
        let joins = ranges.count > 1
        let obstacle = exporter.smartObstacle(reader)
        if obstacle != nil && !joins { return nil }
        if joins, settings.keyframeCut {
            throw .cannotPassthrough(path: exporter.input.path, reason: tr("--keyframe-cut cuts one range, not several"))
        }
        let expected = Self.keptDuration(of: ranges, in: reader)
        progress?.totalUnitCount = max(1, Int64(expected.seconds * 1000))
        if progress?.isCancelled == true { throw .cancelled }
        var note: String?
        if obstacle == nil {
            let session = try exporter.smartSession(reader, expected: expected, progress: progress)
            switch try policy.smartCut(session, ranges: ranges, copying: true) {
            case .written(let result): return result
            case .cancelled: throw .cancelled
            case .unavailable(let reason): note = tr("a smart cut cannot be made here ({reason}), so the video is re-encoded", ["reason": reason])
            }
            guard joins else {
                let again = try VideoEditor(input: exporter.input, output: exporter.output, settings: Self.fallback(from: settings))
                    .export(progress: progress)
                return again.noting(note)
            }
        } else if let obstacle, settings.method == .smart {
            note = tr("the ranges are re-encoded: {reason}", ["reason": obstacle])
        }
        // The copying attempt read the first reader on; the re-encode starts on a fresh one.
        let fresh = try FrameReader(url: exporter.input)
        let session = try exporter.smartSession(fresh, expected: expected, progress: progress)
        switch try policy.smartCut(session, ranges: ranges, copying: false) {
        case .written(let result): return result.noting(note)
        case .cancelled: throw .cancelled
        case .unavailable(let reason): throw .encodeFailed(path: exporter.output.path, detail: reason)
        }
    }

    /// How long the kept ranges are together (an open end runs to the end of the video).
    static func keptDuration(of ranges: [ExportRange], in reader: FrameReader) -> MediaTime {
        var expected = MediaTime.zero
        for range in ranges {
            let start: MediaTime = if case .time(let t) = range.start { t } else { .zero }
            let end: MediaTime = if case .time(let t)? = range.end { t } else { reader.duration }
            expected = expected.adding(end.subtracting(start) ?? .zero) ?? expected
        }
        return expected
    }

    /// `settings` for the ordinary path a failed smart cut falls back to: re-encoded, and at
    /// the highest quality where the settings would have copied.
    static func fallback(from settings: ExportSettings) -> ExportSettings {
        var copy = settings
        copy.method = .reencode
        if copy.preset == .passthrough || copy.preset == .auto { copy.preset = .highest }
        return copy
    }
}
