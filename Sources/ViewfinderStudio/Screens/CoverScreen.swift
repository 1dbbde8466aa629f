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
    private let preview: DrawingArea
    private let strip: DrawingArea
    private let frameLabel = Label("Opening…")
    let doneButton: Button
    let backButton: Button
    let trimButton = Button("Trim…")
    private var previewImage: CairoImage?
    private var stripImages: [CairoImage] = []
    private var dragStartValue = 0.0
    private var moveTask: Task<Void, Never>?
    /// Called by Done with the chosen cover; the flow saves it.
    var onDone: ((CoverPickerSession.Cover) -> Void)?
    var onBack: (() -> Void)?
    var onTrim: (() -> Void)?
    /// Told of every preview shown (the automation and the events follow it).
    var onPreview: ((CoverPickerSession.Preview) -> Void)?

    /// Width of the thumb: one strip frame.
    private var thumbWidth: Double {
        Double(strip.width) / Double(max(1, session.configuration.stripCount))
    }

    init(video: URL) {
        session = CoverPickerSession(video: video)
        preview = DrawingArea { _, _, _ in }
        strip = DrawingArea { _, _, _ in }
        doneButton = Button("Done")
        backButton = Button("Back")
        preview.name = "cover-preview"
        preview.expand()
        preview.setMinimumSize(width: 320, height: 240)
        preview.setDraw { [unowned self] context, width, height in self.drawPreview(&context, width, height) }
        strip.name = "cover-strip"
        strip.setMinimumSize(height: 90)
        strip.setDraw { [unowned self] context, width, height in self.drawStrip(&context, width, height) }
        strip.add(DragGesture(began: { [unowned self] x, _ in self.beginDrag(atX: x) },
                              moved: { [unowned self] dx, _ in self.continueDrag(by: dx) }))

        let tip = Label(session.tip)
        tip.addStyleClass("dim-label")
        frameLabel.addStyleClass("caption")
        doneButton.addStyleClass("suggested-action")
        doneButton.isSensitive = false
        doneButton.on("clicked") { [unowned self] in self.done() }
        backButton.on("clicked") { [unowned self] in self.onBack?() }
        trimButton.on("clicked") { [unowned self] in self.onTrim?() }

        let buttons = Box(.horizontal, spacing: 8)
        let spacer = Label("")
        spacer.expand(horizontally: true, vertically: false)
        buttons.append(backButton)
        buttons.append(spacer)
        buttons.append(trimButton)
        buttons.append(doneButton)

        root.setMargins(16)
        root.append(preview)
        root.append(frameLabel)
        root.append(strip)
        root.append(tip)
        root.append(buttons)

        session.onPreviewChange = { [unowned self] shown in self.show(shown) }
    }

    /// Opens the video: strip first, then the first frame, exactly.
    func open() async throws(CoverPickerError) {
        try await session.open()
        stripImages = session.strip.compactMap { CairoImage($0.image) }
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
        ["preview": preview, "strip": strip][name]
    }

    /// Where the preview picture is drawn inside the preview area (aspect fit).
    var previewImageRect: Rect? {
        previewImage.map { Rect(x: 0, y: 0, width: Double(preview.width), height: Double(preview.height))
            .aspectFit(Size(width: Double($0.width), height: Double($0.height))) }
    }

    func button(named name: String) -> Widget? {
        ["done": doneButton, "back": backButton, "trim": trimButton][name]
    }

    /// The slider value under `x` in the strip: the thumb's centre follows the pointer.
    func sliderValue(atX x: Double) -> Double {
        let track = Double(strip.width) - thumbWidth
        guard track > 0 else { return 0 }
        return min(max((x - thumbWidth / 2) / track, 0), 1)
    }

    /// A press on the strip: the thumb jumps under the pointer.
    func beginDrag(atX x: Double) {
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
        previewImage = CairoImage(shown.frame.image)
        let seconds = String(format: "%.3f", shown.frame.time.seconds)
        frameLabel.text = "Frame at \(seconds) s · \(shown.isExact ? "exact" : "nearest keyframe, decoding…")"
        preview.queueDraw()
        strip.queueDraw()
        onPreview?(shown)
    }

    // MARK: - Drawing

    private func drawPreview(_ context: inout CairoContext, _ width: Double, _ height: Double) {
        let area = Rect(x: 0, y: 0, width: width, height: height)
        context.rectangle(area)
        context.setColor(RGBA(red: 0.08, green: 0.08, blue: 0.08, alpha: 1))
        context.fill()
        guard let image = previewImage else { return }
        context.draw(image, in: area.aspectFit(Size(width: Double(image.width), height: Double(image.height))))
    }

    private func drawStrip(_ context: inout CairoContext, _ width: Double, _ height: Double) {
        let cell = thumbWidth
        for (index, image) in stripImages.enumerated() {
            let rect = Rect(x: Double(index) * cell, y: 6, width: cell, height: height - 12)
            context.draw(image, filling: rect, opacity: 0.75)
        }
        // The thumb: a bright frame around the current picture, one strip cell wide.
        let x = session.sliderValue * (width - cell)
        let thumb = Rect(x: x, y: 0, width: cell, height: height)
        if let image = previewImage {
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
    }
}
