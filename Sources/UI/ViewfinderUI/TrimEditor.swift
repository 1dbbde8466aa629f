import CoverPicker
import Foundation
import HUD
import MediaIO
import StudioKit
import VideoEditing
import ViewfinderCore

/// The trimmer (the original's video editor): `canEdit` is checked first, then the preview, the
/// strip with a start and an end handle, Play to watch the kept range, and Export under the HUD
/// (Cancel stops it and leaves nothing). Bound to `TrimSession`. Each export's outcome (saved,
/// failed, cancelled) goes to `onExported`; leaving with Back completes with `.cancelled`.
@MainActor
public final class TrimEditor: Component {
    public static let handleWidth = 14.0

    public let session: TrimSession
    public let title = tr("Trim")
    private let root = Box(.vertical, spacing: 10)
    public var page: Widget { root }
    private let preview = PicturePanel(name: "trim-preview", minimumHeight: 220)
    private lazy var strip = scrubStrip(name: "trim-strip", height: 80,
                                        draw: { [unowned self] context, width, height in self.drawStrip(&context, width, height) },
                                        began: { [unowned self] x in self.beginDrag(atX: x) },
                                        moved: { [unowned self] dx in self.continueDrag(by: dx) })
    private let rangeLabel = Label(tr("Opening…"))
    /// What the keyboard and a screen reader hold of the handles: a slider each, in seconds,
    /// laid unseen over the strip (GTK 4.8 gives a reader a value only from its own range
    /// widgets). They take no pointer input: the strip under them does.
    private let startSlider = Slider(range: 0...1, step: 0.1, page: 1, value: 0)
    private let endSlider = Slider(range: 0...1, step: 0.1, page: 1, value: 1)
    /// True while the sliders are set to the handles (not a person or a reader moving them).
    private var showingHandles = false
    public let playButton = Button(tr("Play"))
    public let exportButton = Button(tr("Export"))
    public let markButton = Button(tr("Keep this range"))
    public let clearButton = Button(tr("Clear ranges"))
    public let backButton = Button(tr("Back"))
    private var stripImages: [CairoImage] = []
    private enum Handle { case start, end }
    private var dragging: Handle = .start
    private var dragStartValue = 0.0
    private var previewTask: Task<Void, Never>?
    private var playTask: Task<Void, Never>?
    /// Told when an export starts, with the file it writes.
    public var onExport: ((URL) -> Void)?
    /// Told of each export's outcome: saved (with what was written), failed, or cancelled.
    public var onExported: ((VideoEditor.Outcome) -> Void)?
    /// Told once when the editor is left (`.cancelled`), or cannot open the video.
    public var completion: ((PickerOutcome<URL>) -> Void)?
    /// Told once the video is open.
    public var onReady: (() -> Void)?
    private let hud: HUDOverlay
    /// The file the last export wrote (or would have).
    public private(set) var lastExport: URL?
    private let exportFolder: URL
    private let stem: String
    /// Told when playback ends, with the number of frames shown and the first and last times.
    public var onPlayed: ((Int, Double, Double) -> Void)?
    /// Told after "Keep this range": whether the range was marked, and how many are marked.
    public var onMarked: ((Bool, Int) -> Void)?

    /// A trimmer for `video` exporting `STEM trimmed.mp4` into `exportFolder` under `hud`.
    public init(video: URL, exportFolder: URL, stem: String, hud: HUDOverlay) {
        self.hud = hud
        self.exportFolder = exportFolder
        self.stem = stem
        session = TrimSession(video: video)
        let hint = Label(tr("""
            Drag the yellow handles to keep part of the video; Play shows the kept part. \
            Keep this range marks it (in green) to be joined with other marked ranges.
            """))
        hint.addStyleClass("dim-label")
        hint.setWraps(true)
        rangeLabel.setWraps(true)
        exportButton.addStyleClass("suggested-action")
        for button in [playButton, exportButton, markButton, clearButton] { button.isSensitive = false }
        markButton.on("clicked") { [unowned self] in self.markRange() }
        clearButton.on("clicked") { [unowned self] in self.clearRanges() }
        playButton.on("clicked") { [unowned self] in self.togglePlay() }
        exportButton.on("clicked") { [unowned self] in self.stopPlaying(); self.export() }
        backButton.on("clicked") { [unowned self] in self.completion?(.cancelled) }
        root.setMargins(16)
        // Back and the actions on one line, wrapping onto more (a button at a time) in a narrow window.
        let buttons = WrappingRow()
        for button in [backButton, markButton, clearButton, playButton, exportButton] { buttons.append(button) }
        let stripArea = Overlay()
        stripArea.setChild(strip)
        for (slider, handle, name) in [(startSlider, Handle.start, tr("Trim start")), (endSlider, Handle.end, tr("Trim end"))] {
            slider.name = handle == .start ? "trim-start-slider" : "trim-end-slider"
            slider.opacity = 0
            slider.canTarget = false
            slider.isFocusable = true
            slider.setAccessibleName(name)
            slider.setAccessibleDescription(tr("Left and Right move it a tenth of a second, Page Up and Page Down a second, Home and End to the ends"))
            // Weak: a slider can hear of a change while GTK takes the screen down.
            slider.onChange { [weak self] seconds in self?.sliderMoved(handle, toSeconds: seconds) }
            slider.onNotify("has-focus") { [weak self] in self?.strip.queueDraw() }
            stripArea.addOverlay(slider)
        }
        for part in [preview.area, rangeLabel, stripArea, hint, buttons] {
            root.append(part)
        }
    }

    /// Opens the video (the session asks `canEdit` first); the completion hears if it cannot.
    public func start() {
        Task {
            do {
                try await open()
                onReady?()
            } catch {
                completion?(.failed(PickerError(tr("Cannot trim this video"), error)))
            }
        }
    }

    /// Exports the kept range (or the marked ranges, joined) under the HUD.
    public func export() {
        let output = CoverPicker.freeURL(in: exportFolder, stem: stem + " trimmed", extension: "mp4")
        let progress = Progress(totalUnitCount: 1)
        hud.follow(progress, label: tr("Exporting"), details: output.lastPathComponent)
        lastExport = output
        onExport?(output)
        Task {
            let outcome = await session.export(to: output, progress: progress)
            switch outcome {
            case .saved(let url, _):
                hud.flash(.success, label: tr("Saved"), details: url.lastPathComponent)
            case .failed(let error):
                hud.flash(.error, label: tr("Export failed"), details: "\(error)")
            case .cancelled:
                hud.flash(.text, label: tr("Export cancelled"), details: tr("Nothing was written"))
            }
            onExported?(outcome)
        }
    }

    public func open() async throws(VideoEditingError) {
        try await session.open()
        stripImages = session.strip.compactMap { CairoImage($0.image) }
        for button in [playButton, exportButton, markButton, clearButton] { button.isSensitive = true }
        updateLabel()
        showFrame(at: 0)
        // A keyboard user starts on the start handle.
        startSlider.grabFocus(visibly: true)
    }

    public func part(named name: String) -> Widget? {
        ["preview": preview.area, "strip": strip][name]
    }

    public func button(named name: String) -> Widget? {
        ["play": playButton, "export": exportButton, "back": backButton, "mark": markButton, "clear": clearButton][name]
    }

    public func leave() {
        stopPlaying()
        previewTask?.cancel()
    }

    // MARK: - Handles

    private var track: Double { max(1, Double(strip.width) - 2 * Self.handleWidth) }

    /// The strip x of a handle value.
    public func x(forValue value: Double) -> Double { Self.handleWidth + value * track }

    /// A press picks the nearer handle and moves it under the pointer.
    public func beginDrag(atX x: Double) {
        let value = min(max((x - Self.handleWidth) / track, 0), 1)
        dragging = abs(value - session.startValue) <= abs(value - session.endValue) ? .start : .end
        dragStartValue = value
        moveHandle(to: value)
    }

    public func continueDrag(by dx: Double) {
        moveHandle(to: dragStartValue + dx / track)
    }

    /// Moves the handle being dragged, within the session's limits, and previews its frame.
    public func moveHandle(to value: Double) {
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
    public func setStart(_ value: Double) {
        dragging = .start
        moveHandle(to: value)
    }

    /// Sets the end handle (scripts).
    public func setEnd(_ value: Double) {
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

    /// A handle's slider was moved by a key or a screen reader: the handle goes there.
    private func sliderMoved(_ handle: Handle, toSeconds seconds: Double) {
        let duration = session.duration.seconds
        guard !showingHandles, duration > 0 else { return }
        dragging = handle
        moveHandle(to: seconds / duration)
    }

    private func updateLabel() {
        let start = session.startTime.seconds, end = session.endTime.seconds
        // The sliders follow the handles (which the session may have held back).
        showingHandles = true
        let said = [tr("Start at {seconds} s", ["seconds": Localization.decimal(start, digits: 2)]),
                    tr("End at {seconds} s", ["seconds": Localization.decimal(end, digits: 2)])]
        for (slider, seconds, words) in [(startSlider, start, said[0]), (endSlider, end, said[1])] {
            slider.range = 0...max(0.001, session.duration.seconds)
            slider.value = seconds
            slider.setAccessibleValue(seconds, in: slider.range, text: words)
        }
        showingHandles = false
        let three = { (seconds: Double) in Localization.decimal(seconds, digits: 3) }
        var text = tr("Keep {start} s to {end} s · {length} s", ["start": three(start), "end": three(end), "length": three(end - start)])
        let marked = session.markedRanges.count
        if marked > 0 {
            text += " · " + trn("{count} marked range to join (Export writes those)", "{count} marked ranges to join (Export writes those)", marked)
        }
        rangeLabel.text = text
    }

    /// Marks the handles' range to be joined with the others; one that overlaps is refused.
    public func markRange() {
        let marked = session.markRange()
        if marked { updateLabel() } else { rangeLabel.text = tr("That range overlaps one already marked") }
        strip.queueDraw()
        onMarked?(marked, session.markedRanges.count)
    }

    public func clearRanges() {
        session.clearMarkedRanges()
        updateLabel()
        strip.queueDraw()
    }

    // MARK: - Playing

    public var isPlaying: Bool { playTask != nil }

    public func togglePlay() {
        if isPlaying { return stopPlaying() }
        playButton.title = tr("Stop")
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
            playButton.title = tr("Play")
            onPlayed?(shown, first, last)
        }
    }

    public func stopPlaying() {
        session.stop()
        playTask?.cancel()
        playTask = nil
        playButton.title = tr("Play")
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
        // The handle with the keyboard on it takes the focus colour (GNOME's blue).
        let focusBlue = RGBA(red: 0.21, green: 0.52, blue: 0.89, alpha: 1)
        for (x, leftSide, focused) in [(startX, true, startSlider.hasFocus), (endX, false, endSlider.hasFocus)] {
            let handle = Rect(x: leftSide ? x - Self.handleWidth : x, y: 0, width: Self.handleWidth, height: height)
            context.roundedRectangle(handle, radius: 3)
            context.setColor(focused ? focusBlue : yellow)
            context.fill()
            context.setColor(RGBA(red: 0.3, green: 0.2, blue: 0, alpha: 1))
            context.rectangle(Rect(x: handle.midX - 1, y: handle.midY - 10, width: 2, height: 20))
            context.fill()
        }
    }
}
