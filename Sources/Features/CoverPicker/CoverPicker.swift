import Foundation
import MediaIO
import ViewfinderCore

/// The cover chooser's operations, synchronous, for command-line use and for the session.
public enum CoverPicker {
    /// The strip's times: `i · duration / count` for i = 0 ..< count, exact.
    public static func stripTimes(duration: MediaTime, count: Int) -> [MediaTime] {
        duration.evenSteps(count)
    }

    /// The time a slider value (0...1, clamped) stands for across the whole duration. The value
    /// is rounded to a millionth so that the mapping stays exact.
    public static func time(forSlider value: Double, duration: MediaTime) -> MediaTime {
        duration.fraction(value)
    }

    /// Opens `url` for picking a cover, once. The duration limit is checked first from the
    /// header alone (nothing analyzed or decoded, as the original failed to do), then again from
    /// the full probe of the same open file (with `analysis` `.headerWhenComplete`, from the
    /// header once more when it says enough to skip that probe).
    public static func open(_ url: URL, limit: DurationLimit,
                            analysis: FrameReader.StreamAnalysis = .full) throws(CoverPickerError) -> FrameReader {
        let header: MediaHeader
        do {
            header = try MediaHeader(url: url)
        } catch {
            throw .media(error)
        }
        if limit.maximum != nil, let recorded = header.recordedDuration { try limit.check(duration: recorded, path: url.path) }
        let reader: FrameReader
        do {
            reader = try FrameReader(header: header, analysis: analysis)
        } catch {
            throw .media(error)
        }
        try limit.check(reader.info)
        return reader
    }

    /// The cover: the exact frame at `position`.
    public static func cover(from reader: FrameReader, at position: TimePosition,
                             size: FrameSize = .original) throws(CoverPickerError) -> VideoFrame {
        do {
            return try reader.frame(at: position, mode: .exact, size: size)
        } catch {
            throw .media(error)
        }
    }

    /// A strip of `count` cells across the video, in order, each showing a different frame from
    /// its own slice (see `FrameReader.strip`). With `progress`, cells are counted one by one
    /// and cancelling stops before the next decode (`MediaIOError.cancelled`).
    public static func filmstrip(from reader: FrameReader, count: Int, mode: FrameMode,
                                 size: FrameSize, progress: Progress? = nil) throws(CoverPickerError) -> [StripCell] {
        do {
            return try reader.strip(count: count, mode: mode, size: size, progress: progress)
        } catch {
            throw .media(error)
        }
    }
}
