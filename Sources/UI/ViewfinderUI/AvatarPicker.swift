import AvatarCrop
import Foundation
import Imaging
import StudioKit
import ViewfinderCore

/// The avatar picker's crop editor (seeds.md §2): the photo under a circular (or square) crop
/// with the outside dimmed. Drag pans, the wheel or a pinch zooms about the pointer, a
/// double-click resets; the Straighten slider (±45°) and the `[`/`]` keys (0.5°, with Shift
/// 90°) turn the photo. Every limit comes from `CropSession`/`CropGeometry`; this component only
/// turns pointer events into the session's calls and draws its state. The completion gets the
/// original, the avatar and the crop spec (replayable with `viewfinder avatar --spec`), or
/// `.cancelled` (Back), or why the photo could not be opened.
@MainActor
public final class AvatarPicker: Component {
    /// What Done hands back.
    public struct Avatar: Sendable {
        /// The photo it was cut from.
        public let original: URL
        /// The avatar, `side` pixels square (transparent outside a circle).
        public let image: RasterImage
        /// The crop, in the original's pixels.
        public let spec: CropSpec
    }

    /// The editor's size before GTK gives it one; afterwards the crop uses all the space the
    /// editor gets (`minimumViewport` at least), laid out again whenever it changes.
    public static let viewport = Size(width: 480, height: 480)
    /// The smallest editor, so a narrow window (360 points) still has room for it.
    public static let minimumViewport = Size(width: 240, height: 240)
    /// The avatar's side unless one is given.
    public static let outputSide = 512
    /// The avatar's side in pixels (a rectangle's width): the one asked for, else the crop's
    /// own width in the original's pixels, so the cut keeps the photo's resolution.
    public var side: Int {
        fixedSide ?? max(1, Int((session.spec(side: 1)?.rect.width ?? 1).rounded()))
    }
    private let fixedSide: Int?

    public let photoURL: URL
    public private(set) var session: CropSession
    public let root = Box(.vertical, spacing: 10)
    public var page: Widget { root }
    public let title = tr("Choose avatar")
    public let editor: DrawingArea
    /// What the keyboard and a screen reader hold of the crop (see `init`).
    private let cropSlider = Slider(range: 100...101, step: 10, page: 10, value: 100)
    /// True while the slider is set to the crop shown (not a person or a reader moving it).
    private var showingCrop = false
    public let doneButton = Button(tr("Done"))
    /// Straighten: the photo's turn within ±45° (quarter turns come from Shift+[ and Shift+]).
    public let straighten = Slider(range: -45...45, step: 0.5, page: 5, value: 0, marks: [0])
    /// Quarter turns made with Shift+[ / Shift+]; the slider adds its fine turn to them.
    private var quarterTurns = 0
    /// True while the slider is moved to follow the keys, so its change is not applied twice.
    private var followingKeys = false
    public let backButton = Button(tr("Back"))
    private lazy var shapes = ChoiceGroup([(CropShape.circle, tr("Circle")), (.square, tr("Square"))], selected: session.shape) {
        [unowned self] shape in self.change(shape: shape)
    }
    private var image: CairoImage?
    private var lastDrag = Point.zero
    private var lastPinch = 1.0
    private var pointer = Point(x: AvatarPicker.viewport.width / 2, y: AvatarPicker.viewport.height / 2)
    /// True once `onReady` was told for the photo open now: from then on a resize keeps the crop.
    private var isReady = false
    /// Told once with the outcome.
    public var completion: ((PickerOutcome<Avatar>) -> Void)?
    /// Told when the photo is open (at first and after a shape change) with the crop as Done
    /// would hand it back now.
    public var onReady: ((CropSpec?) -> Void)?
    private var finished = false
    public var onChange: (() -> Void)?
    /// Told when the photo is open again after the shape changed, or why it is not.
    public var onReload: ((ImagingError?) -> Void)?

    /// An editor for `photo`, starting with `shape`, making avatars `side` pixels square (a
    /// rectangle `side` wide); with `side` nil, as many pixels as the crop covers. A circle or
    /// square offers the other; a rectangle keeps its shape.
    public init(photo: URL, shape: CropShape = .circle, side: Int? = AvatarPicker.outputSide) {
        photoURL = photo
        fixedSide = side
        session = CropSession(viewportSize: Self.viewport, shape: shape)
        editor = DrawingArea { _, _, _ in }
        editor.name = "avatar-editor"
        editor.setMinimumSize(width: Int(Self.minimumViewport.width), height: Int(Self.minimumViewport.height))
        editor.expand()
        editor.onResize { [unowned self] width, height in self.resized(to: Size(width: Double(width), height: Double(height))) }
        editor.setDraw { [unowned self] context, width, height in self.draw(&context, width, height) }
        editor.add(DragGesture(moved: { [unowned self] dx, dy in self.dragged(toOffset: Point(x: dx, y: dy)) },
                               ended: { [unowned self] _, _ in self.dragEnded() }))
        editor.add(ScrollController { [unowned self] _, dy in self.scrolled(dy) })
        editor.add(MotionController { [unowned self] x, y in self.pointerMoved(to: Point(x: x, y: y)) })
        editor.add(ZoomGesture(began: { [unowned self] in self.lastPinch = 1 },
                               changed: { [unowned self] scale, x, y in self.pinched(scale, at: Point(x: x, y: y)) }))
        editor.add(ClickGesture { [unowned self] count, _, _ in if count == 2 { self.reset() } })


        // The keyboard and a screen reader hold the crop through an unseen slider over the
        // editor (GTK 4.8 gives a reader a value only from its own range widgets): its value is
        // the zoom, its description says where the crop is. The pointer reaches the editor.
        cropSlider.name = "avatar-crop-slider"
        cropSlider.opacity = 0
        cropSlider.canTarget = false
        cropSlider.isFocusable = true
        cropSlider.setAccessibleName(tr("Avatar crop"))
        cropSlider.setAccessibleDescription(tr(Self.keysHelp))
        // A reader setting the value zooms about the centre.
        cropSlider.onChange { [weak self] percent in self?.sliderSet(toZoom: percent) }
        straighten.name = "avatar-straighten"
        straighten.setAccessibleName(tr("Straighten"))
        straighten.setAccessibleDescription(tr("Turns the photo up to 45 degrees either way"))
        straighten.expand(vertically: false)
        straighten.onChange { [unowned self] fine in
            guard !self.followingKeys else { return }
            self.session.setRotation(Double(self.quarterTurns) * 90 + fine)
            self.changed()
        }
        // The editor's keys come before the slider's own (which would step its value).
        cropSlider.add(KeyController(early: true) { [unowned self] key in self.pressed(key) })
        doneButton.setAccessibleName(tr("Done: make the avatar"))
        backButton.setAccessibleName(tr("Back: leave without an avatar"))

        let hint = Label(tr("Drag or arrows to move · scroll, pinch or +/− to zoom · [ ] to straighten · double-click or 0 to reset"))
        hint.addStyleClass("dim-label")
        // A narrow window wraps the hint rather than growing to fit it.
        hint.setWraps(true)
        doneButton.addStyleClass("suggested-action")
        doneButton.isSensitive = false
        doneButton.on("clicked") { [unowned self] in self.done() }
        backButton.on("clicked") { [unowned self] in self.finish(.cancelled) }
        shapes.box.isVisible = shape.isSquare
        let buttons = buttonRow([backButton], [shapes.box, doneButton])
        // 12-point margins: a 360-point window has room for the editor and every button.
        root.setMargins(12)
        let straightenRow = Box(.horizontal, spacing: 8)
        straightenRow.append(Label(tr("Straighten")))
        straightenRow.append(straighten)
        let editorArea = Overlay()
        editorArea.setChild(editor)
        editorArea.addOverlay(cropSlider)
        root.append(editorArea)
        root.append(straightenRow)
        root.append(hint)
        root.append(buttons)
    }

    /// Opens the photo; the completion hears if it cannot.
    public func start() {
        Task {
            do {
                try await open()
                announceReady()
            } catch {
                finish(.failed(PickerError(tr("Cannot open the photo"), error)))
            }
        }
    }

    /// Tells `onReady` once the photo is open in an editor GTK has laid out (the crop then
    /// stands where the user starts from); until then the resize that lays it out opens the
    /// photo afresh in the new size.
    private func announceReady() {
        guard !isReady, session.geometry != nil, editor.width > 0, editor.height > 0 else { return }
        isReady = true
        onReady?(session.spec(side: side))
    }

    /// GTK gave the editor another size: the crop frame is laid out in it again.
    private func resized(to size: Size) {
        guard size.width > 0, size.height > 0, size != session.viewportSize else { return announceReady() }
        session.resize(to: size, keepingCrop: isReady)
        pointer = Point(x: size.width / 2, y: size.height / 2)
        changed()
        announceReady()
    }

    private func finish(_ outcome: PickerOutcome<Avatar>) {
        guard !finished else { return }
        finished = true
        completion?(outcome)
    }

    /// Loads the photo (header checked before decoding) at the initial zoom.
    public func open() async throws(ImagingError) {
        if editor.width > 0, editor.height > 0 {
            session.resize(to: Size(width: Double(editor.width), height: Double(editor.height)))
        }
        try await session.load(photoURL)
        image = session.preview.flatMap { CairoImage($0) }
        doneButton.isSensitive = true
        changed()
        // A keyboard user starts on the crop.
        cropSlider.grabFocus(visibly: true)
    }

    /// How far one arrow press pans, in points.
    public static let keyPan = 10.0

    /// How far one `[` or `]` turns the photo, in degrees.
    public static let keyTurn = 0.5

    /// The editor's keys: arrows pan, +/− zoom by 10 % about the centre, `[`/`]` turn the photo
    /// 0.5° anticlockwise/clockwise (with Shift a quarter turn), 0 resets.
    public func pressed(_ key: KeyPress) -> Bool {
        guard image != nil else { return false }
        let step = Self.keyPan
        let pans = ["Left": Point(x: -step, y: 0), "Right": Point(x: step, y: 0), "Up": Point(x: 0, y: -step), "Down": Point(x: 0, y: step)]
        let centre = Point(x: session.viewportSize.width / 2, y: session.viewportSize.height / 2)
        if let pan = pans[key.name] {
            session.pan(by: pan)
            changed()
        } else if ["plus", "equal", "KP_Add"].contains(key.name) {
            zoom(by: 1.1, at: centre)
        } else if ["minus", "KP_Subtract"].contains(key.name) {
            zoom(by: 1 / 1.1, at: centre)
        } else if ["0", "KP_0"].contains(key.name) {
            reset()
        } else if let direction = ["bracketleft": -1.0, "bracketright": 1, "braceleft": -1, "braceright": 1][key.name] {
            // Shift+[ arrives as "{" on most layouts, or as "[" with Shift held.
            if key.shift || key.name.hasPrefix("brace") {
                quarterTurns += Int(direction)
                session.rotate(by: 90 * direction)
            } else {
                session.rotate(by: Self.keyTurn * direction)
            }
            followSession()
            changed()
        } else {
            return false
        }
        return true
    }

    /// Moves the slider to the session's fine turn (what the keys left within ±45°).
    private func followSession() {
        let fine = session.state.rotation - Double(quarterTurns) * 90
        guard abs(fine) <= 45 else { return }
        followingKeys = true
        straighten.value = fine
        followingKeys = false
    }

    // MARK: - Gestures, in the session's terms

    /// A drag reached `offset` from where it began: pan by the part not applied yet.
    public func dragged(toOffset offset: Point) {
        session.pan(by: Point(x: offset.x - lastDrag.x, y: offset.y - lastDrag.y))
        lastDrag = offset
        changed()
    }

    /// The drag is over; the next one starts from nothing.
    public func dragEnded() {
        lastDrag = .zero
    }

    public func part(named name: String) -> Widget? {
        name == "editor" ? editor : nil
    }

    public func button(named name: String) -> Widget? {
        if let shape = ["circle": CropShape.circle, "square": .square][name] { return shapes.buttons[shape] }
        if name == "straighten" { return straighten }
        return ["done": doneButton, "back": backButton][name]
    }

    /// The wheel: each notch zooms by 10 % about the pointer (up zooms in).
    public func scrolled(_ dy: Double) -> Bool {
        guard dy != 0, dy.isFinite else { return false }
        zoom(by: pow(1.1, -dy), at: pointer)
        return true
    }

    /// A pinch reached `scale` since it began, centred at `centre` in the editor.
    public func pinched(_ scale: Double, at centre: Point) {
        guard scale > 0, scale.isFinite else { return }
        zoom(by: scale / lastPinch, at: viewportPoint(centre))
        lastPinch = scale
    }

    public func zoom(by factor: Double, at point: Point) {
        session.zoom(by: factor, at: point)
        changed()
    }

    /// The pointer moved over the editor to `point` (a wheel zoom centres there).
    public func pointerMoved(to point: Point) {
        pointer = viewportPoint(point)
    }

    /// The session's viewport is drawn centred in the editor (the same size once laid out).
    public func viewportPoint(_ point: Point) -> Point {
        Point(x: point.x - (Double(editor.width) - session.viewportSize.width) / 2,
              y: point.y - (Double(editor.height) - session.viewportSize.height) / 2)
    }

    public func reset() {
        session.reset()
        quarterTurns = 0
        followSession()
        changed()
    }

    public func done() {
        guard let spec = session.spec(side: side) else { return }
        doneButton.isSensitive = false
        Task {
            do {
                let avatar = try await session.complete(side: side)
                finish(.done(Avatar(original: photoURL, image: avatar, spec: spec)))
            } catch {
                // Said, not swallowed: a Done that silently does nothing looks like a hang.
                finish(.failed(PickerError(tr("Cannot make the avatar"), error)))
            }
        }
    }

    private func change(shape: CropShape) {
        guard shape != session.shape else { return }
        session = CropSession(viewportSize: session.viewportSize, shape: shape)
        quarterTurns = 0
        followSession()
        isReady = false
        doneButton.isSensitive = false
        Task {
            do throws(ImagingError) {
                try await open()
                onReload?(nil)
                announceReady()
            } catch {
                onReload?(error)
            }
        }
    }

    private func changed() {
        editor.queueDraw()
        if let readout = session.readout {
            showingCrop = true
            cropSlider.range = readout.zoomRange
            cropSlider.value = readout.zoomPercent
            // TRANSLATORS: what a screen reader says of the crop: where it is ({crop}), then the keys ({keys}).
            cropSlider.setAccessibleDescription(tr("{crop}. {keys}", ["crop": readout.text, "keys": tr(Self.keysHelp)]))
            showingCrop = false
        }
        onChange?()
    }

    /// The slider was set to `percent` by something other than the crop (a screen reader):
    /// the photo zooms about the centre to it.
    private func sliderSet(toZoom percent: Double) {
        guard !showingCrop, let now = session.readout?.zoomPercent, now > 0, percent > 0 else { return }
        zoom(by: percent / now, at: Point(x: session.viewportSize.width / 2, y: session.viewportSize.height / 2))
    }

    /// The keys, as a screen reader says them after where the crop is.
    static let keysHelp = N_("Arrows move the photo, plus and minus zoom about the centre, [ and ] turn it by half a degree (with Shift a quarter turn), 0 resets")

    // MARK: - Drawing

    private func draw(_ context: inout CairoContext, _ width: Double, _ height: Double) {
        // The session's viewport follows the editor's size; until the resize reaches it, centre it.
        let viewport = session.viewportSize
        context.translate((width - viewport.width) / 2, (height - viewport.height) / 2)
        let view = Rect(origin: .zero, size: viewport)
        context.rectangle(view)
        context.setColor(RGBA(red: 0.1, green: 0.1, blue: 0.1, alpha: 1))
        context.fill()
        if let image, let frame = session.imageFrame {
            context.save()
            context.rectangle(view)
            context.clip()
            // Turned about the viewport's middle, where the crop's centre is drawn.
            context.translate(viewport.width / 2, viewport.height / 2)
            context.rotate(degrees: session.state.rotation)
            context.translate(-viewport.width / 2, -viewport.height / 2)
            context.draw(image, in: frame)
            context.restore()
        }
        let crop = session.cropFrame
        context.rectangle(view)
        if session.shape == .circle { context.ellipse(in: crop) } else { context.rectangle(crop) }
        context.setColor(RGBA(red: 0, green: 0, blue: 0, alpha: 0.6))
        context.fill(evenOdd: true)
        if session.shape == .circle { context.ellipse(in: crop) } else { context.rectangle(crop) }
        context.setColor(RGBA(red: 1, green: 1, blue: 1, alpha: 0.9))
        context.stroke(width: 1)
    }
}
