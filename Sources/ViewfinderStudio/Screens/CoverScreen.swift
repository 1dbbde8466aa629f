import CoverPicker
import Foundation
import MediaIO
import StudioKit
import ViewfinderCore

/// The "Set cover" screen (seeds.md §1): the preview on top, the six-frame strip with the
/// slider thumb laid over it, the tip line, Back and Done. Bound to `CoverPickerSession`:
/// dragging the thumb asks the session for the frame, which shows the fast picture at once and
/// the exact frame as soon as it is decoded.
@MainActor
final class CoverScreen: Screen {
    let session: CoverPickerSession
    let root = Box(.vertical, spacing: 10)
    var page: Widget { root }
    let title = "Set cover"
    private let preview = PicturePanel(name: "cover-preview", minimumHeight: 240)
    private lazy var strip = scrubStrip(name: "cover-strip", height: 90,
                                        draw: { [unowned self] context, width, height in self.drawStrip(&context, width, height) },
                                        began: { [unowned self] x in self.beginDrag(atX: x) },
                                        moved: { [unowned self] dx in self.continueDrag(by: dx) })
    private let frameLabel = Label("Opening…")
    let doneButton = Button("Done")
    let backButton = Button("Back")
    let trimButton = Button("Trim…")
    /// One picture per strip cell; nil for a cell whose slice holds no frame.
    private var stripImages: [CairoImage?] = []
    private var dragStartValue = 0.0
    private var moveTask: Task<Void, Never>?
    /// Called by Done with the chosen cover; the flow saves it.
    var onDone: ((CoverPickerSession.Cover) -> Void)?
    var onBack: (() -> Void)?
    var onTrim: (() -> Void)?
    /// Told of every preview shown (the automation and the events follow it).
    var onPreview: ((CoverPickerSession.Preview) -> Void)?
    /// Told of every strip cell repainted with its exact frame.
    var onStripCell: ((StripCell) -> Void)?
    /// Told when the suggested covers are marked on the strip.
    var onSuggestions: (([CoverSuggestion]) -> Void)?

    /// Width of the thumb: one strip frame.
    private var thumbWidth: Double {
        Double(strip.width) / Double(max(1, session.configuration.stripCount))
    }

    init(video: URL) {
        session = CoverPickerSession(video: video)
        let tip = Label(session.tip)
        tip.addStyleClass("dim-label")
        frameLabel.addStyleClass("caption")
        doneButton.addStyleClass("suggested-action")
        doneButton.isSensitive = false
        doneButton.on("clicked") { [unowned self] in self.done() }
        backButton.on("clicked") { [unowned self] in self.onBack?() }
        trimButton.on("clicked") { [unowned self] in self.onTrim?() }

        root.setMargins(16)
        for part in [preview.area, frameLabel, strip, tip, buttonRow([backButton], [trimButton, doneButton])] {
            root.append(part)
        }

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

    /// Opens the video: strip first, then the first frame, exactly.
    func open() async throws(CoverPickerError) {
        try await session.open()
        stripImages = session.strip.map { $0.frame.flatMap { CairoImage($0.image) } }
        doneButton.isSensitive = true
        strip.queueDraw()
    }

    // MARK: - The slider

    /// The strip's width in points.
    var stripWidth: Int { strip.width }

    /// Where the thumb's centre sits for a slider value.
    func thumbCentre(forValue value: Double) -> Double {
        thumbWidth / 2 + value * (Double(strip.width) - thumbWidth)
    }

    func part(named name: String) -> Widget? {
        ["preview": preview.area, "strip": strip][name]
    }

    /// Where the preview picture is drawn inside the preview area (aspect fit).
    var previewImageRect: Rect? { preview.imageRect }

    func button(named name: String) -> Widget? {
        ["done": doneButton, "back": backButton, "trim": trimButton][name]
    }

    /// The slider value under `x` in the strip: the thumb's centre follows the pointer.
    func sliderValue(atX x: Double) -> Double {
        let track = Double(strip.width) - thumbWidth
        guard track > 0 else { return 0 }
        return min(max((x - thumbWidth / 2) / track, 0), 1)
    }

    /// Where a suggestion's mark sits on the strip: over the thumb's centre at its time.
    func markX(of suggestion: CoverSuggestion) -> Double {
        let duration = session.info?.duration.seconds ?? 0
        return thumbCentre(forValue: duration > 0 ? min(1, suggestion.time.seconds / duration) : 0)
    }

    /// How close (points) a press must be to a mark to jump to its suggestion.
    static let markReach = 8.0

    /// A press on the strip: the thumb jumps under the pointer, or onto the suggestion whose
    /// mark is under it (its exact frame).
    func beginDrag(atX x: Double) {
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
    func continueDrag(by dx: Double) {
        let track = Double(strip.width) - thumbWidth
        guard track > 0 else { return }
        moveSlider(to: dragStartValue + dx / track)
    }

    /// Moves the thumb; the session drops older requests when a newer one comes.
    func moveSlider(to value: Double) {
        guard session.phase == .ready else { return }
        moveTask = Task { [session] in
            _ = try? await session.moveSlider(to: value)
        }
        strip.queueDraw()
    }

    func done() {
        guard session.phase == .ready else { return }
        doneButton.isSensitive = false
        Task {
            do {
                let cover = try await session.complete()
                onDone?(cover)
            } catch {
                doneButton.isSensitive = true
            }
        }
    }

    func leave() {
        session.cancel()
        moveTask?.cancel()
    }

    private func show(_ shown: CoverPickerSession.Preview) {
        preview.image = CairoImage(shown.frame.image)
        let seconds = String(format: "%.3f", shown.frame.time.seconds)
        frameLabel.text = "Frame at \(seconds) s · \(shown.isExact ? "exact" : "nearest keyframe, decoding…")"
        strip.queueDraw()
        onPreview?(shown)
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
        context.setColor(RGBA(red: 1, green: 1, blue: 1, alpha: 1))
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
