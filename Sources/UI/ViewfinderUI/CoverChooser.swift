import CoverPicker
import HUD
import Foundation
import MediaIO
import StudioKit
import ViewfinderCore

/// The cover chooser (seeds.md §1), the whole flow: a video over the duration limit is refused
/// from its header before anything is converted or decoded, a QuickTime movie is converted to
/// MP4 under the HUD first (Cancel stops it), then the "Set cover" screen: the preview on top,
/// the six-frame strip with the slider thumb laid over it, the tip line, Back and Done. Bound
/// to `CoverPickerSession`: dragging the thumb asks the session for the frame, which shows the
/// fast picture at once and the exact frame as soon as it is decoded. The completion gets the
/// chosen cover, or `.cancelled` (Back, or the conversion cancelled), or why it failed.
@MainActor
public final class CoverChooser: Component {
    /// What Done hands back.
    public struct Choice: Sendable, Equatable {
        /// The video the frame came from (the MP4 conversion, when one was made).
        public let video: URL
        /// The picture, at full size.
        public let image: PixelBuffer
        /// The frame's exact time from the first frame.
        public let time: MediaTime
        /// The frame's index from 0 at the stream's average rate (exact for constant-rate
        /// video); nil when the container gives no rate.
        public let frame: Int?
    }

    /// What the conversion step does, for a host that reports it.
    public enum Conversion: Sendable {
        case started(input: URL, output: URL)
        case finished(URL)
        case cancelled
    }

    /// The video as given.
    public let video: URL
    /// The session on the video the screen shows (the conversion's output once converted).
    public private(set) var session: CoverPickerSession
    public let root = Box(.vertical, spacing: 10)
    public var page: Widget { root }
    public let title = tr("Set cover")
    private let hud: HUDOverlay
    private let cache: URL
    private let limit: DurationLimit
    private let conversion: CoverFlow.Conversion
    /// The name the HUD shows for the video.
    private let displayName: String
    private let preview = PicturePanel(name: "cover-preview", minimumHeight: 240)
    private lazy var strip = scrubStrip(name: "cover-strip", height: 90,
                                        draw: { [unowned self] context, width, height in self.drawStrip(&context, width, height) },
                                        began: { [unowned self] x in self.beginDrag(atX: x) },
                                        moved: { [unowned self] dx in self.continueDrag(by: dx) })
    private let frameLabel = Label(tr("Opening…"))
    /// What the keyboard and a screen reader hold of the strip: a slider over the video's
    /// frames, laid unseen over the strip (GTK 4.8 gives a screen reader a value only from its
    /// own range widgets). It takes no pointer input: the strip under it does.
    private let frameSlider = Slider(range: 1...2, step: 1, page: 1, value: 1)
    /// True while the slider is set to the frame shown (not a person or a reader moving it).
    private var showingFrame = false
    public let doneButton = Button(tr("Done"))
    public let backButton = Button(tr("Back"))
    public let trimButton = Button(tr("Trim…"))
    /// Writes the video again beside the input, streams copied, with the frame shown inside it
    /// as its cover art (the flow of `viewfinder cover --embed`).
    public let saveIntoVideoButton = Button(tr("Save into video"))
    /// Plays the video through the preview, frame by frame at its own pace (a Live Photo's
    /// motion); shown only when `offersPlayback` is set before `start`.
    public let playButton = Button(tr("Play"))
    /// Show Play (a Live Photo's key-photo screen); set before `start`.
    public var offersPlayback = false
    /// Show "Save into video" (hidden for a Live Photo, whose motion the library keeps as it
    /// is); set before `start`.
    public var offersSaveIntoVideo = true
    private var playback: Task<Void, Never>?
    /// Told when playback starts (true) and ends (false).
    public var onPlayback: ((_ playing: Bool) -> Void)?
    /// Told when "Save into video" has written its file, or why it failed.
    public var onSavedIntoVideo: ((Result<URL, PickerError>) -> Void)?
    /// One picture per strip cell; nil for a cell whose slice holds no frame.
    private var stripImages: [CairoImage?] = []
    private var dragStartValue = 0.0
    private var moveTask: Task<Void, Never>?
    private var finished = false
    /// Told once with the outcome.
    public var completion: ((PickerOutcome<Choice>) -> Void)?
    /// Trim… was pressed (hidden unless set before `start`).
    public var onTrim: (() -> Void)?
    /// Told of the conversion's steps.
    public var onConversion: ((Conversion) -> Void)?
    /// Told once the video is open and the strip shows (fast cells), then again with `true`
    /// once every strip cell is exact.
    public var onReady: ((_ stripExact: Bool) -> Void)?
    /// Told of every preview shown (the automation and the events follow it).
    public var onPreview: ((CoverPickerSession.Preview) -> Void)?
    /// Told of every strip cell repainted with its exact frame.
    public var onStripCell: ((StripCell) -> Void)?
    /// Told when the suggested covers are marked on the strip.
    public var onSuggestions: (([CoverSuggestion]) -> Void)?

    /// Width of the thumb: one strip frame.
    private var thumbWidth: Double {
        Double(strip.width) / Double(max(1, session.configuration.stripCount))
    }

    /// A chooser for `video` refusing videos over `limit`, converting into `cache`, showing its
    /// conversion (when `conversion` asks for one) on `hud`; `displayName` is what the HUD calls
    /// the video.
    public init(video: URL, limit: DurationLimit = .standard, conversion: CoverFlow.Conversion = .auto, cache: URL,
                hud: HUDOverlay, displayName: String? = nil) {
        self.video = video
        self.conversion = conversion
        self.limit = limit
        self.cache = cache
        self.hud = hud
        self.displayName = displayName ?? video.lastPathComponent
        session = CoverPickerSession(video: video, configuration: .init(limit: limit))
        let tip = Label(session.tip)
        tip.addStyleClass("dim-label")
        // Over two lines in a narrow window rather than widening it (Russian's is long).
        tip.setWraps(true)
        frameLabel.addStyleClass("caption")
        doneButton.addStyleClass("suggested-action")
        doneButton.isSensitive = false
        doneButton.on("clicked") { [unowned self] in self.done() }
        backButton.on("clicked") { [unowned self] in self.finish(.cancelled) }
        trimButton.on("clicked") { [unowned self] in self.onTrim?() }
        saveIntoVideoButton.on("clicked") { [unowned self] in self.saveIntoVideo() }
        playButton.on("clicked") { [unowned self] in self.togglePlayback() }
        saveIntoVideoButton.isSensitive = false
        playButton.isSensitive = false
        saveIntoVideoButton.setAccessibleName(tr("Save into video: write the video again with this frame inside it as its cover"))

        root.setMargins(16)
        // The buttons wrap onto a second line in a narrow window (360 points does not hold five).
        let buttons = WrappingRow()
        for button in [backButton, playButton, trimButton, saveIntoVideoButton, doneButton] { buttons.append(button) }
        let stripArea = Overlay()
        stripArea.setChild(strip)
        stripArea.addOverlay(frameSlider)
        for part in [preview.area, frameLabel, stripArea, tip, buttons] {
            root.append(part)
        }
        bindSession()
        frameSlider.name = "cover-frame-slider"
        frameSlider.opacity = 0
        frameSlider.canTarget = false
        frameSlider.isFocusable = true
        frameSlider.setAccessibleName(tr("Cover frame"))
        frameSlider.setAccessibleDescription(tr("Left and Right step one frame, Shift with them one strip cell, Home and End the first and last frame"))
        // The strip's keys come before the slider's own (which would step by its increments).
        frameSlider.add(KeyController(early: true) { [unowned self] key in self.pressed(key) })
        // A screen reader setting the value goes to that frame. Weak: the slider loses its focus
        // (and so notifies) while GTK takes the screen down, after the chooser may be gone.
        frameSlider.onChange { [weak self] number in self?.sliderSet(toFrame: number) }
        frameSlider.onNotify("has-focus") { [weak self] in self?.strip.queueDraw() }
        preview.area.setAccessibleName(tr("Cover preview"))
        doneButton.setAccessibleName(tr("Done: use this frame as the cover"))
        backButton.setAccessibleName(tr("Back: leave without a cover"))
    }

    /// The strip's keys: ←/→ one frame, Shift+←/→ one cell, Home/End the ends.
    public func pressed(_ key: KeyPress) -> Bool {
        guard session.phase == .ready else { return false }
        let cell = 1 / Double(max(1, session.configuration.stripCount))
        switch (key.name, key.shift) {
        case ("Left", false), ("Right", false):
            moveTask = Task { [session] in _ = try? await session.step(frames: key.name == "Left" ? -1 : 1) }
            strip.queueDraw()
        case ("Left", true): moveSlider(to: max(0, session.sliderValue - cell))
        case ("Right", true): moveSlider(to: min(1, session.sliderValue + cell))
        case ("Home", _): moveSlider(to: 0)
        case ("End", _): moveSlider(to: 1)
        default: return false
        }
        return true
    }

    private func bindSession() {
        session.onPreviewChange = { [unowned self] shown in self.show(shown) }
        // Fast cells first; each is repainted when the session has its exact frame.
        session.onStripChange = { [unowned self] cell in
            guard cell.index < self.stripImages.count else { return }
            self.stripImages[cell.index] = cell.frame.flatMap { CairoImage($0.image) }
            self.strip.queueDraw()
            self.onStripCell?(cell)
        }
        session.onSuggestionsChange = { [unowned self] suggestions in
            self.strip.queueDraw()
            self.onSuggestions?(suggestions)
        }
    }

    /// Runs the flow: the limit from the header, the conversion when needed, then the screen;
    /// a video not converted is opened once for all of it (the session's frame service), and
    /// once more for its keyframes (see `FrameReader`).
    public func start() {
        trimButton.isVisible = onTrim != nil
        playButton.isVisible = offersPlayback
        saveIntoVideoButton.isVisible = offersSaveIntoVideo
        let plan: CoverFlow.Plan
        do {
            plan = try CoverFlow.plan(for: video, limit: limit, cache: cache, conversion: conversion)
        } catch {
            return finish(.failed(PickerError(tr("Cannot choose a cover"), error)))
        }
        Task {
            if case .convert(let input, let output) = plan {
                let progress = Progress(totalUnitCount: 1)
                hud.follow(progress, label: tr("Converting to MP4"), details: displayName)
                onConversion?(.started(input: input, output: output))
                do throws(CoverPickerError) {
                    let converted = try await CoverFlow.run(plan, progress: progress)
                    hud.hide()
                    onConversion?(.finished(converted))
                    session = CoverPickerSession(video: converted, configuration: .init(limit: limit))
                    bindSession()
                } catch .cancelled {
                    hud.flash(.text, label: tr("Conversion cancelled"))
                    onConversion?(.cancelled)
                    return finish(.cancelled)
                } catch {
                    return finish(.failed(PickerError(tr("Conversion failed"), error)))
                }
            }
            do throws(CoverPickerError) {
                try await open()
                onReady?(false)
                await session.stripRefined()
                guard session.phase == .ready else { return }
                onReady?(true)
            } catch {
                // The limit is checked from the header the session opens (the plan opens
                // nothing for a video not converted): a long video is refused as the plan would.
                let what = if case .tooLong = error { tr("Cannot choose a cover") } else { tr("Cannot open the video") }
                finish(.failed(PickerError(what, error)))
            }
        }
    }

    /// Opens the video: strip first, then the first frame, exactly.
    public func open() async throws(CoverPickerError) {
        try await session.open()
        stripImages = session.strip.map { $0.frame.flatMap { CairoImage($0.image) } }
        doneButton.isSensitive = true
        saveIntoVideoButton.isSensitive = true
        playButton.isSensitive = true
        strip.queueDraw()
        // A keyboard user starts on the strip.
        frameSlider.grabFocus()
    }

    private func finish(_ outcome: PickerOutcome<Choice>) {
        guard !finished else { return }
        finished = true
        completion?(outcome)
    }

    // MARK: - The slider

    /// The strip's width in points.
    public var stripWidth: Int { strip.width }

    /// Where the thumb's centre sits for a slider value.
    public func thumbCentre(forValue value: Double) -> Double {
        thumbWidth / 2 + value * (Double(strip.width) - thumbWidth)
    }

    public func part(named name: String) -> Widget? {
        ["preview": preview.area, "strip": strip, "frame-slider": frameSlider][name]
    }

    /// Where the preview picture is drawn inside the preview area (aspect fit).
    public var previewImageRect: Rect? { preview.imageRect }

    public func button(named name: String) -> Widget? {
        ["done": doneButton, "back": backButton, "trim": trimButton, "save-into-video": saveIntoVideoButton, "play": playButton][name]
    }

    /// The slider value under `x` in the strip: the thumb's centre follows the pointer.
    public func sliderValue(atX x: Double) -> Double {
        let track = Double(strip.width) - thumbWidth
        guard track > 0 else { return 0 }
        return min(max((x - thumbWidth / 2) / track, 0), 1)
    }

    /// Where a suggestion's mark sits on the strip: over the thumb's centre at its time.
    public func markX(of suggestion: CoverSuggestion) -> Double {
        let duration = session.info?.duration.seconds ?? 0
        return thumbCentre(forValue: duration > 0 ? min(1, suggestion.time.seconds / duration) : 0)
    }

    /// How close (points) a press must be to a mark to jump to its suggestion.
    public static let markReach = 8.0

    /// A press on the strip: the thumb jumps under the pointer, or onto the suggestion whose
    /// mark is under it (its exact frame).
    public func beginDrag(atX x: Double) {
        frameSlider.grabFocus()
        let near = session.suggestions.map { ($0, abs(markX(of: $0) - x)) }.filter { $0.1 <= Self.markReach }.min { $0.1 < $1.1 }
        if let (suggestion, _) = near, session.phase == .ready {
            dragStartValue = sliderValue(atX: markX(of: suggestion))
            moveTask = Task { [session] in _ = try? await session.moveSlider(to: suggestion) }
            strip.queueDraw()
            return
        }
        dragStartValue = sliderValue(atX: x)
        moveSlider(to: dragStartValue)
    }

    /// The pointer moved `dx` points since the press.
    public func continueDrag(by dx: Double) {
        let track = Double(strip.width) - thumbWidth
        guard track > 0 else { return }
        moveSlider(to: dragStartValue + dx / track)
    }

    /// Moves the thumb; the session drops older requests when a newer one comes.
    public func moveSlider(to value: Double) {
        guard session.phase == .ready else { return }
        moveTask = Task { [session] in
            _ = try? await session.moveSlider(to: value)
        }
        strip.queueDraw()
    }

    public func done() {
        guard session.phase == .ready else { return }
        doneButton.isSensitive = false
        Task {
            do {
                let cover = try await session.complete()
                let rate = session.info?.video?.frameRate?.seconds
                let frame = rate.flatMap { $0 > 0 ? Int((cover.time.seconds * $0).rounded()) : nil }
                finish(.done(Choice(video: cover.video, image: cover.image, time: cover.time, frame: frame)))
            } catch {
                doneButton.isSensitive = true
            }
        }
    }

    public func leave() {
        playback?.cancel()
        session.cancel()
        moveTask?.cancel()
    }

    // MARK: - Playing and saving into the video

    /// Play from the first frame to the last, each exact frame shown no earlier than its time
    /// after the start (slower when decoding is slower); Pause, or a second press, stops it
    /// where it is.
    public func togglePlayback() {
        if let playback {
            playback.cancel()
            return
        }
        guard session.phase == .ready else { return }
        playButton.title = tr("Pause")
        onPlayback?(true)
        playback = Task { [weak self] in
            guard let session = self?.session else { return }
            _ = try? await session.moveSlider(to: 0)
            let clock = ContinuousClock(), start = clock.now
            var last = session.preview?.frame.time
            while !Task.isCancelled {
                // A variable-rate video has gaps longer than a step at its average rate: step
                // further until the picture changes, or the end is reached.
                var next: CoverPickerSession.Preview?
                for frames in 1...8 where next == nil && session.sliderValue < 1 {
                    guard let shown = try? await session.step(frames: frames) else { break }
                    if shown.frame.time > (last ?? MediaTime(value: -1, timescale: 1)) { next = shown }
                }
                guard let shown = next else { break }
                last = shown.frame.time
                self?.strip.queueDraw()
                let due = start.advanced(by: .nanoseconds(Int64(shown.frame.time.seconds * 1e9)))
                if clock.now < due { try? await clock.sleep(until: due) }
            }
            self?.playback = nil
            self?.playButton.title = tr("Play")
            self?.onPlayback?(false)
        }
    }

    /// The exact frame shown, inside a copy of the video written beside the input (streams
    /// copied, as `cover --embed`; the exporter writes a temporary file and renames it into
    /// place), under the HUD; the HUD says where it went.
    public func saveIntoVideo() {
        guard session.phase == .ready else { return }
        let source = session.video, time = session.preview?.frame.time ?? session.sliderTime
        let target = CoverPicker.freeURL(in: video.deletingLastPathComponent(),
                                         stem: (video.lastPathComponent as NSString).deletingPathExtension + " with cover", extension: "mp4")
        let limit = self.limit
        let progress = Progress(totalUnitCount: 1)
        saveIntoVideoButton.isSensitive = false
        hud.follow(progress, label: tr("Saving the cover into the video"), details: target.lastPathComponent)
        Task {
            let outcome = await Task.detached { () -> Result<URL, PickerError> in
                do {
                    _ = try CoverPicker.export(source, to: target, settings: ExportSettings(preset: .passthrough),
                                               cover: .at(.time(time)), limit: limit, progress: progress)
                    return .success(target)
                } catch {
                    return .failure(PickerError(tr("Cannot save the cover into the video"), error))
                }
            }.value
            saveIntoVideoButton.isSensitive = true
            switch outcome {
            case .success(let url): hud.flash(.success, label: tr("Saved into the video"), details: url.lastPathComponent)
            case .failure(let failure): hud.flash(.error, label: failure.what, details: failure.message)
            }
            onSavedIntoVideo?(outcome)
        }
    }

    private func show(_ shown: CoverPickerSession.Preview) {
        preview.image = CairoImage(shown.frame.image)
        let seconds = Localization.decimal(shown.frame.time.seconds, digits: 3)
        frameLabel.text = shown.isExact
            ? tr("Frame at {seconds} s · exact", ["seconds": seconds])
            : tr("Frame at {seconds} s · nearest keyframe, decoding…", ["seconds": seconds])
        if let (number, count) = session.framePosition(at: shown.frame.time) {
            showingFrame = true
            frameSlider.range = 1...Double(max(2, count))
            frameSlider.value = Double(number)
            frameSlider.setAccessibleValue(Double(number), in: 1...Double(count),
                                           text: tr("Frame {number} of {count}, {seconds} s",
                                                    ["number": number, "count": count, "seconds": Localization.decimal(shown.frame.time.seconds, digits: 2)]))
            showingFrame = false
        }
        strip.queueDraw()
        onPreview?(shown)
    }

    /// The slider was set to frame `number` by something other than the frame shown (a
    /// screen reader): the strip goes there.
    private func sliderSet(toFrame number: Double) {
        guard !showingFrame, let (_, count) = session.framePosition(at: .zero), count > 1 else { return }
        moveSlider(to: (number - 1) / Double(count - 1))
    }

    // MARK: - Drawing

    private func drawStrip(_ context: inout CairoContext, _ width: Double, _ height: Double) {
        let cell = thumbWidth
        for (index, image) in stripImages.enumerated() {
            guard let image else { continue }
            let rect = Rect(x: Double(index) * cell, y: 6, width: cell, height: height - 12)
            context.draw(image, filling: rect, opacity: 0.75)
        }
        // The thumb: a bright frame around the current picture, one strip cell wide.
        let x = session.sliderValue * (width - cell)
        let thumb = Rect(x: x, y: 0, width: cell, height: height)
        if let image = preview.image {
            context.save()
            context.roundedRectangle(thumb, radius: 4)
            context.clip()
            context.paint(RGBA(red: 0, green: 0, blue: 0, alpha: 1))
            context.draw(image, filling: thumb)
            context.restore()
        }
        context.roundedRectangle(thumb.insetBy(1.5), radius: 4)
        // With the keyboard on the strip the thumb takes the focus colour (GNOME's blue).
        context.setColor(frameSlider.hasFocus ? RGBA(red: 0.21, green: 0.52, blue: 0.89, alpha: 1) : RGBA(red: 1, green: 1, blue: 1, alpha: 1))
        context.stroke(width: 3)
        // The suggested covers: a yellow mark above the strip at each one's time.
        for suggestion in session.suggestions {
            let x = markX(of: suggestion)
            context.roundedRectangle(Rect(x: x - 3, y: 0, width: 6, height: 6), radius: 3)
            context.setColor(RGBA(red: 1, green: 0.8, blue: 0, alpha: 1))
            context.fill()
        }
    }
}
