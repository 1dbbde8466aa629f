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
        /// How many covers to suggest (0: none).
        public var suggestionCount: Int

        public init(limit: DurationLimit = .standard, stripCount: Int = 6,
                    stripFrameSize: FrameSize = .height(90),
                    previewSize: FrameSize = .fit(PixelSize(width: 720, height: 720)),
                    coverSize: FrameSize = .original, suggestionCount: Int = 3) {
            self.limit = limit
            self.suggestionCount = max(0, suggestionCount)
            self.stripCount = max(1, stripCount)
            self.stripFrameSize = stripFrameSize
            self.previewSize = previewSize
            self.coverSize = coverSize
        }
    }

    /// The screen's title.
    public let title = tr("Set cover")
    /// The line that invites the user to choose.
    public let tip = tr("Drag the slider to pick a good frame for the cover.")
    /// The video being covered.
    public let video: URL
    public let configuration: Configuration

    public private(set) var phase: Phase = .idle
    /// Probe results, once open.
    public private(set) var info: MediaInfo?
    /// The strip: `stripCount` cells, each a different frame from its own slice of the video
    /// (fast first; see `FrameReader.strip`). After opening, each cell is replaced in the
    /// background by the exact frame at its time; `onStripChange` is told of each.
    public private(set) var strip: [StripCell] = []
    /// Told of every strip cell replaced by its exact frame.
    public var onStripChange: (@MainActor (StripCell) -> Void)?
    /// True while the strip still holds cells that are not exact.
    public var isRefiningStrip: Bool { refinement != nil }
    /// The suggested covers, best first (see `CoverPicker.suggestions(through:)`): measured in
    /// the background after opening, through the session's frame service, one decode at a time
    /// so the slider waits for one decode at most.
    public private(set) var suggestions: [CoverSuggestion] = []
    /// Told once the suggestions are known.
    public var onSuggestionsChange: (@MainActor ([CoverSuggestion]) -> Void)?
    /// The slider's position, 0...1.
    public private(set) var sliderValue: Double = 0
    /// The time the slider stands for: `time(forSlider: sliderValue)`, or a suggestion's exact time.
    public private(set) var sliderTime: MediaTime = .zero
    /// The picture at the slider, fast first and then exact.
    public private(set) var preview: Preview?
    /// Told of every new preview (the fast one, then the exact one).
    public var onPreviewChange: (@MainActor (Preview) -> Void)?

    private var service: FrameService?
    private var generation = 0
    /// The background work that makes the strip exact; cancelled when the screen closes.
    private var refinement: Task<Void, Never>?
    /// The background work that finds the suggestions; cancelled when the screen closes.
    private var suggesting: Task<Void, Never>?
    /// The work `cancel()` stopped, until `stopped()` has seen it end.
    private var stopping: [Task<Void, Never>] = []
    private let suggestionProgress = Progress(totalUnitCount: 1)
    /// Slider moves decoding now: the strip's work waits for them (the newest work first).
    private var slidersInFlight = 0
    private var sliderWaiters: [CheckedContinuation<Void, Never>] = []

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
                try await opened.stripCells(count: configuration.stripCount, mode: .fast, size: configuration.stripFrameSize)
            }
            guard phase == .opening else { throw .cancelled }
            phase = .ready
            _ = try await moveSlider(to: 0)
            refineStrip(opened)
            suggest(opened)
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

    /// Where the frame shown at `time` stands among the video's frames, counted from 1 as a
    /// person counts them (a screen reader says "frame 75 of 180"); nil before the video is
    /// open or when it gives no frame rate.
    public func framePosition(at time: MediaTime) -> (number: Int, count: Int)? {
        guard let info, let rate = info.video?.frameRate, rate.value > 0, rate.timescale > 0 else { return nil }
        let perSecond = Double(rate.value) / Double(rate.timescale)
        let count = max(1, info.video?.frameCount ?? Int((info.duration.seconds * perSecond).rounded()))
        let number = Int((time.seconds * perSecond).rounded()) + 1
        return (min(max(1, number), count), count)
    }

    /// Moves the slider: publishes the keyframe preview at once, then the exact frame, unless a
    /// newer move arrives first (then the older one stops). Returns the last preview published.
    @discardableResult
    public func moveSlider(to value: Double) async throws(CoverPickerError) -> Preview? {
        let clamped = value.isFinite ? min(max(value, 0), 1) : 0
        return try await move(slider: clamped, target: time(forSlider: clamped))
    }

    /// Moves the slider to a suggestion: its exact frame, the slider where that time lies.
    @discardableResult
    public func moveSlider(to suggestion: CoverSuggestion) async throws(CoverPickerError) -> Preview? {
        let duration = info?.duration.seconds ?? 0
        return try await move(slider: duration > 0 ? min(1, suggestion.time.seconds / duration) : 0, target: suggestion.time)
    }

    /// Moves the slider `frames` frames (negative: back), as the keyboard's arrows do: from the
    /// middle of the exact frame shown when it is the slider's, else from the slider's time, so
    /// for a constant-rate video the frame at the new time is exactly `frames` away, however
    /// quickly the keys come. The first and last frames stop it. Without a frame rate nothing
    /// moves.
    @discardableResult
    public func step(frames: Int) async throws(CoverPickerError) -> Preview? {
        guard let info, let rate = info.video?.frameRate, rate.value > 0, rate.timescale > 0 else { return nil }
        let half = MediaTime(value: rate.timescale, timescale: 2 * rate.value)
        var base = sliderTime
        if let preview, preview.isExact, preview.requestedTime == sliderTime {
            base = preview.frame.time.adding(half) ?? sliderTime
        }
        let offset = MediaTime(value: Int64(frames) * rate.timescale, timescale: rate.value)
        let target = min(max(base.adding(offset) ?? base, .zero), info.duration)
        return try await move(slider: info.duration > .zero ? target.fraction(of: info.duration) : 0, target: target)
    }

    private func move(slider: Double, target: MediaTime) async throws(CoverPickerError) -> Preview? {
        guard phase == .ready, let service else { throw phase == .cancelled ? .cancelled : .notOpen }
        generation += 1
        let mine = generation
        sliderValue = slider
        sliderTime = target
        slidersInFlight += 1
        defer { sliderDone() }
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

    private func sliderDone() {
        slidersInFlight -= 1
        guard slidersInFlight == 0 else { return }
        let waiters = sliderWaiters
        sliderWaiters = []
        for waiter in waiters { waiter.resume() }
    }

    /// Replaces each strip cell that is not exact with the exact frame at its time, one cell
    /// at a time, each after any slider move in flight; a frame another cell shows already is
    /// not shown twice (the fast cell stays).
    private func refineStrip(_ service: FrameService) {
        guard strip.contains(where: { $0.frame != nil && !$0.isExact }) else { return }
        let size = configuration.stripFrameSize
        refinement = Task { [weak self] in
            for index in 0..<(self?.strip.count ?? 0) {
                guard let self, !Task.isCancelled, self.phase == .ready else { return }
                if self.slidersInFlight > 0 {
                    await withCheckedContinuation { self.sliderWaiters.append($0) }
                }
                let cell = self.strip[index]
                guard cell.frame != nil, !cell.isExact else { continue }
                guard let exact = try? await service.frame(at: cell.requested, mode: .exact, size: size),
                      !Task.isCancelled, self.phase == .ready else { return }
                guard !self.strip.contains(where: { $0.frame?.timestamp == exact.timestamp }) else { continue }
                let refined = StripCell(index: index, requested: cell.requested, frame: exact, isExact: true)
                self.strip[index] = refined
                self.onStripChange?(refined)
            }
            self?.refinement = nil
        }
    }

    /// Finds the suggestions through the session's own frame service (the video is not opened
    /// again), measuring off the main actor; slider moves and the strip's exact frames take
    /// turns with them, one decode each.
    private func suggest(_ service: FrameService) {
        let count = configuration.suggestionCount
        guard count > 0 else { return }
        let progress = suggestionProgress
        suggesting = Task { [weak self] in
            guard let suggestions = try? await CoverPicker.suggestions(through: service, count: count, progress: progress),
                  let self, !Task.isCancelled, self.phase == .ready || self.phase == .completed else { return }
            self.suggestions = suggestions
            self.onSuggestionsChange?(suggestions)
        }
    }

    /// Waits until the suggestions are known (or the work stopped).
    public func suggestionsFound() async {
        await suggesting?.value
    }

    /// Waits until the strip holds its exact frames (or the work stopped).
    public func stripRefined() async {
        await refinement?.value
    }

    /// Waits until the background work `cancel()` stopped has ended: after it nothing more is
    /// told about the strip or the suggestions.
    public func stopped() async {
        let tasks = stopping
        stopping = []
        for task in tasks { await task.value }
    }

    /// Done: the exact frame at the slider as the cover.
    public func complete() async throws(CoverPickerError) -> Cover {
        guard phase == .ready, let service else { throw phase == .cancelled ? .cancelled : .notOpen }
        let at = sliderTime, size = configuration.coverSize
        let frame = try await translatingErrors(CoverPickerError.media) { () throws(MediaIOError) in
            try await service.frame(at: at, mode: .exact, size: size)
        }
        guard phase == .ready else { throw .cancelled }
        phase = .completed
        self.service = nil
        // Done means done: the work in the background (the exact-frame refinement, the
        // suggestions with their face detector) is stopped and waited for, so nothing of the
        // session still runs when the result is handed back — a program that exits right after
        // would otherwise tear down C++ libraries (OpenCV) under a worker still using them.
        let background = [refinement, suggesting].compactMap { $0 }
        refinement?.cancel()
        refinement = nil
        suggesting?.cancel()
        suggestionProgress.cancel()
        for task in background { await task.value }
        return Cover(image: frame.image, time: frame.time, video: video)
    }

    /// Back: closes without a cover; work in flight is dropped.
    public func cancel() {
        phase = .cancelled
        generation += 1
        service = nil
        stopping += [refinement, suggesting].compactMap { $0 }
        refinement?.cancel()
        refinement = nil
        suggesting?.cancel()
        suggestionProgress.cancel()
        let waiters = sliderWaiters
        sliderWaiters = []
        for waiter in waiters { waiter.resume() }
    }
}
