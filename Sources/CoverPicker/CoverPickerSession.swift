import Foundation
import MediaIO
import ViewfinderCore

/// The model behind the "Set cover" screen (seeds.md §1), free of any UI toolkit.
///
/// A screen binds to it: it shows `title`, `tip`, the `strip` of frames with a slider over it,
/// and the `preview` of the frame at the slider. Moving the slider shows the fast (keyframe)
/// picture at once and then the exact frame; Done calls `complete()`, Back calls `cancel()`.
@MainActor
public final class CoverPickerSession {
    /// Where the session is in its life.
    public enum Phase: Sendable, Equatable {
        case idle, opening, ready, completed, cancelled, failed
    }

    /// What the preview shows for a slider position.
    public struct Preview: Sendable, Equatable {
        /// The slider value (0...1) it was made for.
        public let sliderValue: Double
        /// The time that slider value stands for.
        public let requestedTime: MediaTime
        /// The picture and its actual time.
        public let frame: VideoFrame
        /// True once the exact frame (not the keyframe stand-in) is shown.
        public var isExact: Bool { frame.mode == .exact }
    }

    /// The chosen cover, handed back by Done.
    public struct Cover: Sendable, Equatable {
        /// The picture at full size (or `Configuration.coverSize`).
        public let image: PixelBuffer
        /// The frame's actual time from the first frame.
        public let time: MediaTime
        /// The video it came from.
        public let video: URL
    }

    /// Sizes and limits; the defaults follow the original screen.
    public struct Configuration: Sendable {
        public var limit: DurationLimit
        public var stripCount: Int
        public var stripFrameSize: FrameSize
        public var previewSize: FrameSize
        public var coverSize: FrameSize

        public init(limit: DurationLimit = .standard, stripCount: Int = 6,
                    stripFrameSize: FrameSize = .height(90),
                    previewSize: FrameSize = .fit(PixelSize(width: 720, height: 720)),
                    coverSize: FrameSize = .original) {
            self.limit = limit
            self.stripCount = max(1, stripCount)
            self.stripFrameSize = stripFrameSize
            self.previewSize = previewSize
            self.coverSize = coverSize
        }
    }

    /// The screen's title.
    public let title = "Set cover"
    /// The line that invites the user to choose.
    public let tip = "Drag the slider to pick a good frame for the cover."
    /// The video being covered.
    public let video: URL
    public let configuration: Configuration

    public private(set) var phase: Phase = .idle
    /// Probe results, once open.
    public private(set) var info: MediaInfo?
    /// The strip: `stripCount` fast frames at even steps.
    public private(set) var strip: [VideoFrame] = []
    /// The slider's position, 0...1.
    public private(set) var sliderValue: Double = 0
    /// The picture at the slider, fast first and then exact.
    public private(set) var preview: Preview?
    /// Told of every new preview (the fast one, then the exact one).
    public var onPreviewChange: (@MainActor (Preview) -> Void)?

    private var service: FrameService?
    private var generation = 0

    public init(video: URL, configuration: Configuration = Configuration()) {
        self.video = video
        self.configuration = configuration
    }

    /// Opens the video: checks its length from metadata (no decoding before that), builds the
    /// strip and shows the first frame exactly.
    public func open() async throws(CoverPickerError) {
        guard phase == .idle else { throw phase == .cancelled ? .cancelled : .notOpen }
        phase = .opening
        do throws(CoverPickerError) {
            let opened = try await Self.openService(video, limit: configuration.limit)
            service = opened
            info = opened.info
            strip = try await translatingErrors(CoverPickerError.media) { () throws(MediaIOError) in
                try await opened.strip(count: configuration.stripCount, size: configuration.stripFrameSize)
            }
            guard phase == .opening else { throw .cancelled }
            phase = .ready
            _ = try await moveSlider(to: 0)
        } catch {
            if phase != .cancelled { phase = .failed }
            service = nil
            throw error
        }
    }

    /// Opens `url` off the main actor, the limit checked from the header before any decoding.
    private nonisolated static func openService(_ url: URL, limit: DurationLimit) async throws(CoverPickerError) -> FrameService {
        FrameService(reader: try CoverPicker.open(url, limit: limit))
    }

    /// The time a slider value stands for: 0 is the first frame, 1 the end.
    public func time(forSlider value: Double) -> MediaTime {
        CoverPicker.time(forSlider: value, duration: info?.duration ?? .zero)
    }

    /// Moves the slider: publishes the keyframe preview at once, then the exact frame, unless a
    /// newer move arrives first (then the older one stops). Returns the last preview published.
    @discardableResult
    public func moveSlider(to value: Double) async throws(CoverPickerError) -> Preview? {
        guard phase == .ready, let service else { throw phase == .cancelled ? .cancelled : .notOpen }
        generation += 1
        let mine = generation
        sliderValue = value.isFinite ? min(max(value, 0), 1) : 0
        let target = time(forSlider: sliderValue)
        let slider = sliderValue
        for mode in [FrameMode.fast, .exact] {
            let frame = try await translatingErrors(CoverPickerError.media) { () throws(MediaIOError) in
                try await service.frame(at: target, mode: mode, size: configuration.previewSize)
            }
            guard mine == generation, phase == .ready else { return preview }
            let shown = Preview(sliderValue: slider, requestedTime: target, frame: frame)
            preview = shown
            onPreviewChange?(shown)
        }
        return preview
    }

    /// Done: the exact frame at the slider as the cover.
    public func complete() async throws(CoverPickerError) -> Cover {
        guard phase == .ready, let service else { throw phase == .cancelled ? .cancelled : .notOpen }
        let at = time(forSlider: sliderValue), size = configuration.coverSize
        let frame = try await translatingErrors(CoverPickerError.media) { () throws(MediaIOError) in
            try await service.frame(at: at, mode: .exact, size: size)
        }
        guard phase == .ready else { throw .cancelled }
        phase = .completed
        self.service = nil
        return Cover(image: frame.image, time: frame.time, video: video)
    }

    /// Back: closes without a cover; work in flight is dropped.
    public func cancel() {
        phase = .cancelled
        generation += 1
        service = nil
    }
}
