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

    /// The cover art of the frame `choice` names, as a 4:2:0 JPEG at `CoverFlow.coverQuality`, with
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
            // Colour at half resolution (4:2:0), as phone, camera and web video carries it: a
            // third smaller and about 40 % quicker to encode than full-resolution chroma, and
            // nothing of such a frame is lost.
            data = try ImageEncoder.encode(frame.image, as: .jpeg(quality: CoverFlow.coverQuality, halfChroma: true))
        } catch {
            throw .imaging(error)
        }
        let art = CoverArt(data: data, format: .jpeg, size: PixelSize(width: frame.image.width, height: frame.image.height),
                           time: frame.time)
        return (art, frame)
    }

    /// Writes a video with its cover attached: the settings (cover included), a reader of the
    /// input already open, and the progress to advance.
    public typealias Exporting = (ExportSettings, FrameReader, Progress?) throws(MediaIOError) -> ExportResult

    /// Writes `input` to `output` as `settings` say (a passthrough copies every packet as it
    /// is) with the frame `choice` names attached as the video's cover art; a cover the input
    /// carried is not copied, so this one replaces it. The cover frame is read and encoded by a
    /// reader of its own on another thread while this one checks the limit from the header and
    /// the export copies packets (the picture is needed only before the MP4's trailer), so on two
    /// cores the cover costs little more than the remux alone. A cover that cannot be made fails
    /// the export and leaves nothing behind.
    /// `exporting` writes the file (settings with the cover attached, the open reader, the
    /// progress); by default MediaIO's `VideoExporter`, and a trim passes VideoEditing's editor.
    /// Returns what the export did and the cover it attached.
    public static func export(_ input: URL, to output: URL, settings: ExportSettings, cover choice: CoverChoice,
                              limit: DurationLimit, progress: Progress? = nil,
                              exporting: Exporting? = nil) throws(CoverPickerError) -> (result: ExportResult, cover: CoverArt) {
        // The cover starts first, on a reader of its own that skips the probe where the header
        // says enough, so its decode overlaps this thread's probe as well as the remux (the
        // cover is the longer of the two). The probe this thread makes anyway then checks that
        // the header told the cover's reader the whole truth; where it did not (a sample aspect
        // ratio only the bitstream carries), the cover is made again from a probed reader.
        let ranges = settings.ranges
        let probed = Handoff<VideoTrackInfo?>()
        let attachment = CoverAttachment(format: .jpeg) {
            let quick = try open(input, limit: limit, analysis: .headerWhenComplete)
            let art = try coverArt(from: quick, choice: choice, within: ranges).art
            guard let full = probed.wait(), full.drawsDifferently(from: quick.video) else { return art }
            return try coverArt(from: try open(input, limit: limit), choice: choice, within: ranges).art
        }
        let reader: FrameReader
        do {
            reader = try open(input, limit: limit)
            probed.settle(reader.video)
        } catch {
            probed.settle(nil)
            throw error
        }
        var withCover = settings
        withCover.cover = attachment
        let result: ExportResult
        do {
            if let exporting {
                result = try exporting(withCover, reader, progress)
            } else {
                result = try VideoExporter(input: input, output: output, settings: withCover).run(progress: progress, reading: reader)
            }
        } catch {
            // The cover's own error says more than the muxer's "could not be made".
            if case .encodeFailed = error, let failure = attachment.failure as? CoverPickerError { throw failure }
            throw .media(error)
        }
        do {
            return (result, try attachment.art())
        } catch let error as CoverPickerError {
            throw error
        } catch {
            throw .media(.encodeFailed(path: output.path, detail: tr("the cover could not be made: {reason}", ["reason": "\(error)"])))
        }
    }
}

extension VideoTrackInfo {
    /// Whether a frame of this track is drawn otherwise than one of `other` (size, pixel shape,
    /// rotation or frame rate differ); the pixel format alone does not count.
    fileprivate func drawsDifferently(from other: VideoTrackInfo) -> Bool {
        !(codedSize == other.codedSize && sampleAspectRatio == other.sampleAspectRatio && rotation == other.rotation
            && frameRate == other.frameRate && streamIndex == other.streamIndex)
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
