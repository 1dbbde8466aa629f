import Foundation
import Imaging
import MediaIO
import ViewfinderCore

// MARK: - The cover inside the file

extension CoverPicker {
    /// Which frame becomes the cover a video carries inside itself.
    public enum CoverChoice: Sendable, Hashable {
        /// The exact frame at a position of the input (`cover --at` defines it).
        case at(TimePosition)
        /// The best suggestion (`suggestions(from:count:)`), inside the kept ranges of a trim.
        case best
    }

    /// The cover art of the frame `choice` names, as a JPEG at `CoverFlow.coverQuality`, with
    /// the frame it shows. With `ranges` (a trim's), the frame must lie inside one of them:
    /// `.best` looks for the best suggestion there, else takes the first frame kept; an
    /// explicit position outside them is refused.
    public static func coverArt(from reader: FrameReader, choice: CoverChoice, within ranges: [ExportRange] = [],
                                size: FrameSize = .original) throws(CoverPickerError) -> (art: CoverArt, frame: VideoFrame) {
        let kept = try KeptSpans(ranges, reader: reader)
        let position: TimePosition
        switch choice {
        case .at(let requested):
            let time = try kept.time(of: requested)
            if !ranges.isEmpty, !kept.contains(time) { throw .coverOutsideKept(path: reader.info.path, time: time) }
            position = requested
        case .best:
            // More candidates than one when a trim may leave the best one out.
            let ranked = try suggestions(from: reader, count: ranges.isEmpty ? 1 : 12)
            position = .time(ranked.first { kept.contains($0.time) }?.time ?? kept.first)
        }
        let frame = try cover(from: reader, at: position, size: size)
        let data: Data
        do {
            data = try ImageEncoder.encode(frame.image, as: .jpeg(quality: CoverFlow.coverQuality))
        } catch {
            throw .imaging(error)
        }
        let art = CoverArt(data: data, format: .jpeg, size: PixelSize(width: frame.image.width, height: frame.image.height),
                           time: frame.time)
        return (art, frame)
    }

    /// Writes `input` to `output` as `settings` say (a passthrough copies every packet as it
    /// is) with the frame `choice` names attached as the video's cover art; a cover the input
    /// carried is not copied, so this one replaces it. One open of the input: the limit is
    /// checked from its header, the cover frame read, then the same reader exports.
    /// Returns what the export did and the cover it attached.
    public static func export(_ input: URL, to output: URL, settings: ExportSettings, cover choice: CoverChoice,
                              limit: DurationLimit, progress: Progress? = nil) throws(CoverPickerError) -> (result: ExportResult, cover: CoverArt) {
        let reader = try open(input, limit: limit)
        let (art, _) = try coverArt(from: reader, choice: choice, within: settings.ranges)
        var withCover = settings
        withCover.cover = art
        do {
            let result = try VideoExporter(input: input, output: output, settings: withCover).run(progress: progress, reading: reader)
            return (result, art)
        } catch {
            throw .media(error)
        }
    }
}

/// A trim's kept ranges as times on the input's timeline (frame numbers resolved from the
/// packets, once, only when a position uses them); no ranges is the whole video.
private final class KeptSpans {
    private let reader: FrameReader
    private var timeline: FrameTimeline?
    private var spans: [(start: MediaTime, end: MediaTime)] = []

    init(_ ranges: [ExportRange], reader: FrameReader) throws(CoverPickerError) {
        self.reader = reader
        for range in ranges {
            spans.append((try time(of: range.start), try range.end.map { p throws(CoverPickerError) in try time(of: p) } ?? reader.duration))
        }
        if spans.isEmpty { spans = [(.zero, reader.duration)] }
    }

    /// The time a position stands for (a frame number's presentation time).
    func time(of position: TimePosition) throws(CoverPickerError) -> MediaTime {
        switch position {
        case .time(let t):
            return t
        case .frame(let n):
            if timeline == nil {
                do { timeline = try reader.timeline() } catch { throw .media(error) }
            }
            let frames = timeline?.frames ?? []
            return n < frames.count ? frames[n] : reader.duration
        }
    }

    /// Whether a time is kept: inside a span, or at the very end when a span reaches it.
    func contains(_ time: MediaTime) -> Bool {
        spans.contains { time >= $0.start && (time < $0.end || ($0.end == reader.duration && time <= $0.end)) }
    }

    var first: MediaTime { spans[0].start }
}
