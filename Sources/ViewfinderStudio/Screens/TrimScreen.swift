import Foundation
import MediaIO
import StudioKit
import VideoEditing
import ViewfinderCore

/// The Trim screen: the preview, the strip with a start and an end handle, Play to watch the
/// kept range, and Export (with the HUD, which can cancel it). Bound to `TrimSession`.
@MainActor
final class TrimScreen: Screen {
    static let handleWidth = 14.0

    let session: TrimSession
    let title = "Trim"
    private let root = Box(.vertical, spacing: 10)
    var page: Widget { root }
    private let preview = PicturePanel(name: "trim-preview", minimumHeight: 220)
    private lazy var strip = scrubStrip(name: "trim-strip", height: 80,
                                        draw: { [unowned self] context, width, height in self.drawStrip(&context, width, height) },
                                        began: { [unowned self] x in self.beginDrag(atX: x) },
                                        moved: { [unowned self] dx in self.continueDrag(by: dx) })
    private let rangeLabel = Label("Opening…")
    let playButton = Button("Play")
    let exportButton = Button("Export")
    let markButton = Button("Keep this range")
    let clearButton = Button("Clear ranges")
    let backButton = Button("Back")
    private var stripImages: [CairoImage] = []
    private enum Handle { case start, end }
    private var dragging: Handle = .start
    private var dragStartValue = 0.0
    private var previewTask: Task<Void, Never>?
    private var playTask: Task<Void, Never>?
    var onExport: (() -> Void)?
    /// Told when playback ends, with the number of frames shown and the first and last times.
    var onPlayed: ((Int, Double, Double) -> Void)?
    var onBack: (() -> Void)?
    /// Told after "Keep this range": whether the range was marked, and how many are marked.
    var onMarked: ((Bool, Int) -> Void)?

    init(video: URL) {
        session = TrimSession(video: video)
        let hint = Label("Drag the yellow handles to keep part of the video; Play shows the kept part. "
                         + "Keep this range marks it (in green) to be joined with other marked ranges.")
        hint.addStyleClass("dim-label")
        exportButton.addStyleClass("suggested-action")
        for button in [playButton, exportButton, markButton, clearButton] { button.isSensitive = false }
        markButton.on("clicked") { [unowned self] in self.markRange() }
        clearButton.on("clicked") { [unowned self] in self.clearRanges() }
        playButton.on("clicked") { [unowned self] in self.togglePlay() }
        exportButton.on("clicked") { [unowned self] in self.stopPlaying(); self.onExport?() }
        backButton.on("clicked") { [unowned self] in self.onBack?() }
        root.setMargins(16)
        for part in [preview.area, rangeLabel, strip, hint, buttonRow([backButton], [markButton, clearButton, playButton, exportButton])] {
            root.append(part)
        }
    }

    func open() async throws(VideoEditingError) {
        try await session.open()
        stripImages = session.strip.compactMap { CairoImage($0.image) }
        for button in [playButton, exportButton, markButton, clearButton] { button.isSensitive = true }
        updateLabel()
        showFrame(at: 0)
    }

    func part(named name: String) -> Widget? {
        ["preview": preview.area, "strip": strip][name]
    }

    func button(named name: String) -> Widget? {
        ["play": playButton, "export": exportButton, "back": backButton, "mark": markButton, "clear": clearButton][name]
    }

    func leave() {
        stopPlaying()
        previewTask?.cancel()
    }

    // MARK: - Handles

    private var track: Double { max(1, Double(strip.width) - 2 * Self.handleWidth) }

    /// The strip x of a handle value.
    func x(forValue value: Double) -> Double { Self.handleWidth + value * track }

    /// A press picks the nearer handle and moves it under the pointer.
    func beginDrag(atX x: Double) {
        let value = min(max((x - Self.handleWidth) / track, 0), 1)
        dragging = abs(value - session.startValue) <= abs(value - session.endValue) ? .start : .end
        dragStartValue = value
        moveHandle(to: value)
    }

    func continueDrag(by dx: Double) {
        moveHandle(to: dragStartValue + dx / track)
    }

    /// Moves the handle being dragged, within the session's limits, and previews its frame.
    func moveHandle(to value: Double) {
        stopPlaying()
        switch dragging {
        case .start: session.moveStart(to: value)
        case .end: session.moveEnd(to: value)
        }
        updateLabel()
        strip.queueDraw()
        showFrame(at: dragging == .start ? session.startValue : session.endValue)
    }

    /// Sets the start handle (scripts).
    func setStart(_ value: Double) {
        dragging = .start
        moveHandle(to: value)
    }

    /// Sets the end handle (scripts).
    func setEnd(_ value: Double) {
        dragging = .end
        moveHandle(to: value)
    }

    private func showFrame(at value: Double) {
        previewTask?.cancel()
        previewTask = Task {
            for mode in [FrameMode.fast, .exact] {
                guard let frame = try? await session.frame(atHandle: value, mode: mode) else { return }
                preview.image = CairoImage(frame.image)
            }
        }
    }

    private func updateLabel() {
        let start = session.startTime.seconds, end = session.endTime.seconds
        var text = String(format: "Keep %.3f s to %.3f s · %.3f s", start, end, end - start)
        let marked = session.markedRanges.count
        if marked > 0 { text += " · \(marked) marked range\(marked == 1 ? "" : "s") to join (Export writes those)" }
        rangeLabel.text = text
    }

    /// Marks the handles' range to be joined with the others; one that overlaps is refused.
    func markRange() {
        let marked = session.markRange()
        if marked { updateLabel() } else { rangeLabel.text = "That range overlaps one already marked" }
        strip.queueDraw()
        onMarked?(marked, session.markedRanges.count)
    }

    func clearRanges() {
        session.clearMarkedRanges()
        updateLabel()
        strip.queueDraw()
    }

    // MARK: - Playing

    var isPlaying: Bool { playTask != nil }

    func togglePlay() {
        if isPlaying { return stopPlaying() }
        playButton.title = "Stop"
        playTask = Task {
            var shown = 0
            var first = Double.nan, last = Double.nan
            try? await session.play { [weak self] frame in
                shown += 1
                if shown == 1 { first = frame.time.seconds }
                last = frame.time.seconds
                self?.preview.image = CairoImage(frame.image)
            }
            playTask = nil
            playButton.title = "Play"
            onPlayed?(shown, first, last)
        }
    }

    func stopPlaying() {
        session.stop()
        playTask?.cancel()
        playTask = nil
        playButton.title = "Play"
    }

    // MARK: - Drawing

    private func drawStrip(_ context: inout CairoContext, _ width: Double, _ height: Double) {
        let inner = Rect(x: Self.handleWidth, y: 4, width: track, height: height - 8)
        let cell = inner.width / Double(max(1, stripImages.count))
        for (index, image) in stripImages.enumerated() {
            context.draw(image, filling: Rect(x: inner.minX + Double(index) * cell, y: inner.minY, width: cell, height: inner.height))
        }
        let startX = x(forValue: session.startValue), endX = x(forValue: session.endValue)
        // Dim what is cut away.
        context.setColor(RGBA(red: 0, green: 0, blue: 0, alpha: 0.6))
        context.rectangle(Rect(x: inner.minX, y: inner.minY, width: startX - inner.minX, height: inner.height))
        context.rectangle(Rect(x: endX, y: inner.minY, width: inner.maxX - endX, height: inner.height))
        context.fill()
        // Marked ranges: green bars along the bottom.
        context.setColor(RGBA(red: 0.2, green: 0.8, blue: 0.3, alpha: 1))
        for range in session.markedRanges {
            guard case .time(let a) = range.start, case .time(let b)? = range.end else { continue }
            let from = x(forValue: a.fraction(of: session.duration)), to = x(forValue: b.fraction(of: session.duration))
            context.rectangle(Rect(x: from, y: height - 12, width: to - from, height: 6))
        }
        context.fill()
        // The kept range: a yellow bracket with a handle at each end.
        let yellow = RGBA(red: 1, green: 0.8, blue: 0.1, alpha: 1)
        context.setColor(yellow)
        context.rectangle(Rect(x: startX, y: 0, width: endX - startX, height: 4))
        context.rectangle(Rect(x: startX, y: height - 4, width: endX - startX, height: 4))
        context.fill()
        for (x, leftSide) in [(startX, true), (endX, false)] {
            let handle = Rect(x: leftSide ? x - Self.handleWidth : x, y: 0, width: Self.handleWidth, height: height)
            context.roundedRectangle(handle, radius: 3)
            context.setColor(yellow)
            context.fill()
            context.setColor(RGBA(red: 0.3, green: 0.2, blue: 0, alpha: 1))
            context.rectangle(Rect(x: handle.midX - 1, y: handle.midY - 10, width: 2, height: 20))
            context.fill()
        }
    }
}
