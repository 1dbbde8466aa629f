import Foundation
import MediaIO
import ViewfinderCore

/// The model behind the Trim screen (seeds.md §3, "edit (trim) a video"), free of any UI toolkit.
///
/// A screen binds to it: a `strip` of frames with two handles over it (`startValue` and
/// `endValue`, 0...1), a preview of the frame under a handle, a Play button that plays the kept
/// range, and Export. The handles are kept in exact time (`startTime`, `endTime`); the values are
/// derived from them, so the range exported is exactly the range shown.
@MainActor
public final class TrimSession {
    /// Where the session is in its life.
    public enum Phase: Sendable, Equatable {
        /// Not opened yet.
        case idle
        /// Probing the video and building the strip.
        case opening
        /// Open: handles can move, the range can play and be exported.
        case ready
        /// An export is running.
        case exporting
        /// The last export was saved (the handles may still move for another).
        case finished
        /// Opening or the last export failed.
        case failed
        /// The last export was cancelled; nothing was written.
        case cancelled
    }

    /// The video being trimmed.
    public let video: URL
    /// How many frames the strip holds.
    public let stripCount: Int
    /// The size of each strip frame.
    public let stripFrameSize: FrameSize
    /// The size of preview and playback frames.
    public let previewSize: FrameSize

    /// Where the session is.
    public private(set) var phase: Phase = .idle
    /// Probe results, once open.
    public private(set) var info: MediaInfo?
    /// Fast (keyframe) frames at even steps across the video.
    public private(set) var strip: [VideoFrame] = []
    /// The time the start handle stands for: the kept range starts with the frame shown then.
    public private(set) var startTime: MediaTime = .zero
    /// The time the end handle stands for: frames shown at or after it are cut.
    public private(set) var endTime: MediaTime = .zero
    /// True while `play` is delivering frames.
    public private(set) var isPlaying = false
    /// Ranges marked to be joined, in the order marked; empty exports the handles' range alone.
    public private(set) var markedRanges: [ExportRange] = []

    /// Preset, fast start and so on for the export; the range always comes from the handles.
    private var baseSettings = ExportSettings()
    private var requestedMinimum = MediaTime(value: 1, timescale: 10)
    private let clock: any ClockSource
    private var scrubber: FrameService?
    private var player: FrameService?
    private var previewGeneration = 0
    private var playGeneration = 0
    /// A test seam: told, before each pause of playback, how long its next frame is still due in
    /// (seconds on the session's clock), so a test moves a virtual clock then instead of
    /// moving it from a task that sleeps.
    var beforePause: (@MainActor (TimeInterval) -> Void)?

    /// A session for `video`. `clock` paces playback; tests pass a `VirtualClock`.
    public init(video: URL, stripCount: Int = 8, stripFrameSize: FrameSize = .height(72),
                previewSize: FrameSize = .fit(PixelSize(width: 640, height: 360)),
                clock: any ClockSource = SystemClock()) {
        self.video = video
        self.stripCount = max(1, stripCount)
        self.stripFrameSize = stripFrameSize
        self.previewSize = previewSize
        self.clock = clock
    }

    // MARK: - Opening

    /// Opens the video: refuses a file that cannot be edited (with the reason), probes it and
    /// builds the strip. The handles start at both ends.
    public func open() async throws(VideoEditingError) {
        guard phase == .idle else { throw .notReady }
        phase = .opening
        do throws(VideoEditingError) {
            let service = try await Self.openService(video)
            // A strip that decodes is also the cookbook's "can it be edited?", with a reason.
            do {
                strip = try await service.strip(count: stripCount, size: stripFrameSize)
            } catch {
                throw VideoEditingError.cannotEdit(path: video.path, reason: error)
            }
            scrubber = service
            info = service.info
            startTime = .zero
            endTime = service.info.duration
            phase = .ready
        } catch {
            phase = .failed
            throw error
        }
    }

    // MARK: - Handles

    /// The length of the video (zero until open).
    public var duration: MediaTime { info?.duration ?? .zero }

    /// The start handle's position, 0...1.
    public var startValue: Double { startTime.fraction(of: duration) }

    /// The end handle's position, 0...1.
    public var endValue: Double { info == nil ? 1 : endTime.fraction(of: duration) }

    /// The handles never come closer than this: 0.1 s by default, or the whole clip when it is
    /// shorter. Setting a non-positive length is ignored (the range must never be empty); a
    /// longer one pushes the end handle out (and the start handle back when the end is reached).
    public var minimumLength: MediaTime {
        get { info == nil ? requestedMinimum : min(requestedMinimum, duration) }
        set {
            guard newValue > .zero else { return }
            requestedMinimum = newValue
            keepMinimumLength()
        }
    }

    /// Moves the start handle to `value` (0...1), no closer to the end handle than
    /// `minimumLength`. Non-finite values, and moves before the video is open, are ignored.
    public func moveStart(to value: Double) {
        guard value.isFinite, info != nil else { return }
        let limit = endTime.subtracting(minimumLength) ?? .zero
        startTime = max(.zero, min(duration.fraction(value), limit))
    }

    /// Moves the end handle to `value` (0...1), no closer to the start handle than
    /// `minimumLength`. Non-finite values, and moves before the video is open, are ignored.
    public func moveEnd(to value: Double) {
        guard value.isFinite, info != nil else { return }
        let limit = startTime.adding(minimumLength) ?? duration
        endTime = min(duration, max(duration.fraction(value), limit))
    }

    private func keepMinimumLength() {
        guard info != nil, let length = endTime.subtracting(startTime), length < minimumLength else { return }
        endTime = min(duration, startTime.adding(minimumLength) ?? duration)
        startTime = max(.zero, endTime.subtracting(minimumLength) ?? .zero)
    }

    /// What Export writes: `baseSettings` (set through this property; its `method` is smart
    /// by default) with the marked ranges joined in order, or, when none is marked, the handles'
    /// `startTime ..< endTime`; ranges in a value assigned here are replaced.
    public var exportSettings: ExportSettings {
        get {
            var settings = baseSettings
            settings.ranges = markedRanges.isEmpty ? [handleRange] : markedRanges
            return settings
        }
        set { baseSettings = newValue }
    }

    /// The range between the handles.
    private var handleRange: ExportRange { ExportRange(start: .time(startTime), end: .time(endTime)) }

    /// Marks the handles' range to be kept beside the ranges marked before (joined after them).
    /// False, and nothing marked, when it overlaps one of them or the video is not open.
    @discardableResult
    public func markRange() -> Bool {
        guard info != nil else { return false }
        let range = handleRange
        guard !markedRanges.contains(where: { $0.overlaps(range) != false }) else { return false }
        markedRanges.append(range)
        return true
    }

    /// Forgets the marked range at `index` (ignored when there is none).
    public func unmarkRange(at index: Int) {
        guard markedRanges.indices.contains(index) else { return }
        markedRanges.remove(at: index)
    }

    /// Forgets every marked range: Export keeps the handles' range again.
    public func clearMarkedRanges() {
        markedRanges.removeAll()
    }

    /// The preview picture for a handle at `value` (0...1): the frame shown at that time. A newer
    /// request supersedes this one, which then throws `CancellationError` so a stale picture is
    /// never shown.
    public func frame(atHandle value: Double, mode: FrameMode = .exact) async throws -> VideoFrame {
        guard let scrubber else { throw VideoEditingError.notReady }
        previewGeneration += 1
        let mine = previewGeneration
        let frame = try await translatingErrors(VideoEditingError.media) { () throws(MediaIOError) in
            try await scrubber.frame(at: duration.fraction(value), mode: mode, size: previewSize)
        }
        guard mine == previewGeneration else { throw CancellationError() }
        return frame
    }

    // MARK: - Playing

    /// Plays the kept range: decodes it in order on a background actor and calls `onFrame` with
    /// every frame from the one at `startTime` up to (not including) `endTime`, each at its time
    /// on the session's clock. Returns at the end of the range, or early when `stop()` is
    /// called or another `play` starts; throws `CancellationError` when the task is cancelled.
    public func play(onFrame: @escaping @MainActor (VideoFrame) -> Void) async throws {
        guard info != nil, phase != .exporting else { throw VideoEditingError.notReady }
        playGeneration += 1
        let mine = playGeneration
        isPlaying = true
        defer { if mine == playGeneration { isPlaying = false } }
        let (start, end) = (startTime, endTime)
        let service = try await playbackService()
        guard mine == playGeneration else { return }
        let size = previewSize
        var frame = try await translatingErrors(VideoEditingError.media) { () throws(MediaIOError) in
            try await service.frame(at: start, mode: .exact, size: size)
        }
        let origin = clock.now
        let first = frame.time
        while true {
            let offset = frame.time.subtracting(first) ?? .zero
            guard try await wait(until: origin + offset.seconds, generation: mine) else { return }
            onFrame(frame)
            let current = frame
            guard let next = try await translatingErrors(VideoEditingError.media, { () throws(MediaIOError) in
                try await service.frame(after: current, size: size)
            }), next.time < end else { return }
            guard mine == playGeneration else { return }
            frame = next
        }
    }

    /// Stops playback; frames already being decoded are dropped.
    public func stop() {
        playGeneration += 1
        isPlaying = false
    }

    /// A reader of its own for playback, so scrubbing a handle never moves its decoder.
    private func playbackService() async throws(VideoEditingError) -> FrameService {
        if let player { return player }
        let opened = try await Self.openService(video)
        player = opened
        return opened
    }

    /// Opens `url` off the main actor; a file that cannot be read at all is `cannotEdit`.
    private nonisolated static func openService(_ url: URL) async throws(VideoEditingError) -> FrameService {
        do {
            return try await FrameService.open(url)
        } catch {
            throw .cannotEdit(path: url.path, reason: error)
        }
    }

    /// Waits until the clock reaches `due`. Polls in short steps rather than sleeping once, so
    /// that a virtual clock moved by a test (or a stop) is noticed promptly. False when this
    /// playback was superseded meanwhile.
    private func wait(until due: TimeInterval, generation: Int) async throws -> Bool {
        while true {
            try Task.checkCancellation()
            guard generation == playGeneration else { return false }
            let remaining = due - clock.now
            if remaining <= 0 { return true }
            beforePause?(remaining)
            try await Task.sleep(nanoseconds: UInt64(min(remaining, 0.01) * 1_000_000_000))
        }
    }

    // MARK: - Exporting

    /// Writes the kept range to `url` with `exportSettings` (stopping playback first, since it
    /// would compete for the cores). `progress` follows the output; cancelling it stops the
    /// export and nothing is left. The phase goes to `exporting`, then `finished`, `failed` or
    /// `cancelled`.
    public func export(to url: URL, progress: Progress) async -> VideoEditor.Outcome {
        guard info != nil, phase != .exporting, phase != .opening else {
            return .failed(.unreadable(path: video.path, reason: VideoEditingError.notReady.description))
        }
        stop()
        phase = .exporting
        let editor = VideoEditor(input: video, output: url, settings: exportSettings)
        let outcome = await Self.run(editor, progress: Lent(progress))
        switch outcome {
        case .saved: phase = .finished
        case .failed: phase = .failed
        case .cancelled: phase = .cancelled
        }
        return outcome
    }

    /// Runs the editor outside the main actor. `Progress` is thread-safe but not marked
    /// `Sendable` on Linux, so it travels lent.
    private nonisolated static func run(_ editor: VideoEditor, progress: Lent<Progress>) async -> VideoEditor.Outcome {
        await editor.run(progress: progress.value)
    }
}
