import Foundation
import HUD
import Motion
import StudioKit
import ViewfinderCore

/// The progress HUD drawn over the whole window (seeds.md §4).
///
/// `ProgressHUD` decides what shows and when (grace time, minimum show time, delayed hides);
/// the show and hide animations run on a Motion layer, started when the model's phase turns
/// and evaluated on the widget's frame clock, so the same engine as `viewfinder animate` runs
/// live here. While the HUD is hidden the overlay lets every click through.
@MainActor
public final class HUDOverlay {
    public let area: DrawingArea
    public let hud: ProgressHUD
    /// The layer whose presentation (opacity, scale) the box is drawn with.
    public let layer = Layer(name: "hud")
    private let ticker: MotionTicker
    /// The phase the overlay last drew (it follows the model's on the next frame).
    public private(set) var shownPhase: ProgressHUD.Phase = .hidden
    private var tick: UInt32?
    private var buttonFrame: Rect?
    private let painter = HUDPainter()
    /// What the blur background blurs: the screens under the HUD.
    public weak var backdropSource: Widget?
    private var backdropSnapshot: CairoImage?
    private var backdropTaken = -Double.infinity
    /// Blurred, tinted parts of the snapshot, by the rectangle they cover (the box, the whole
    /// view) and their blur style.
    private var blurred: [BackdropKey: CairoImage] = [:]
    private struct BackdropKey: Hashable {
        let rect: Rect
        let style: HUDBlurStyle
    }
    /// The image custom view last drawn, in Cairo's form.
    private var picture: (raster: RasterImage, image: CairoImage)?
    /// Any widget of the app, shown live in place of a `.customView` HUD's symbol.
    public var customWidget: Widget?
    /// True while the HUD wears the app's own look, which follows the light or dark theme;
    /// a script that styles the HUD itself turns it off.
    public var followsTheme = true
    /// Told whenever the HUD's phase changes (the automation waits on it).
    public var onPhaseChange: ((ProgressHUD.Phase) -> Void)?
    /// Told of every frame drawn while the box animates: what Motion presented, and what the
    /// HUD model says at that time (the tests compare the two).
    public var onAnimationFrame: ((_ motion: (opacity: Double, scale: Double), _ model: HUDAnimationState) -> Void)?

    /// What a screen reader finds of the HUD while it is on screen: a progress bar, unseen
    /// over the drawing (GTK 4.8 gives a reader a value only from its own range widgets), named
    /// by the HUD's label and described by its details; its value is the work done, for the
    /// modes that show an amount. A result's text (a flash) is its name.
    public let accessibleProgress = ProgressBar()

    /// Tells a screen-reader user a result the HUD flashes (an error, a success) as it appears.
    private let announcer = Announcer()

    public init(clock: FrameClock = FrameClock()) {
        hud = ProgressHUD(clock: clock)
        layer.clock = clock
        layer.model.opacity = 0
        ticker = MotionTicker(root: layer, clock: clock)
        area = DrawingArea { _, _, _ in }
        area.expand()
        area.name = "hud"
        area.setDraw { [unowned self] context, width, height in
            self.draw(&context, width: width, height: height)
        }
        area.add(ClickGesture { [unowned self] _, x, y in
            self.clicked(at: Point(x: x, y: y))
        })
        setTargetable(false)
        accessibleProgress.opacity = 0
        accessibleProgress.canTarget = false
        accessibleProgress.isVisible = false
        accessibleProgress.name = "hud-progress"
    }

    /// Lays the HUD over `host`'s child: its drawing, and what a screen reader reads of it.
    public func place(on host: Overlay) {
        host.addOverlay(area)
        host.addOverlay(accessibleProgress)
        host.addOverlay(announcer)
    }

    /// Keeps `accessibleProgress` saying what the HUD shows.
    private func followForReaders() {
        let onScreen = hud.isOnScreen
        if accessibleProgress.isVisible != onScreen { accessibleProgress.isVisible = onScreen }
        guard onScreen else { return }
        let name = hud.label.isEmpty ? tr("Working") : hud.label
        if name != spokenLabel.name || hud.detailsLabel != spokenLabel.details {
            spokenLabel = (name, hud.detailsLabel)
            accessibleProgress.setAccessibleName(name)
            accessibleProgress.setAccessibleDescription(hud.detailsLabel)
        }
        switch hud.mode {
        case .determinate, .annularDeterminate, .determinateHorizontalBar:
            if accessibleProgress.fraction != hud.progress { accessibleProgress.fraction = hud.progress }
        case .indeterminate, .customView, .text:
            if accessibleProgress.fraction != 0 { accessibleProgress.fraction = 0 }
        }
    }

    private var spokenLabel: (name: String, details: String) = ("", "")

    // MARK: - Showing work

    /// Shows the HUD for work that reports through `progress`, with a Cancel button when the
    /// work can be cancelled. The HUD appears only if the work outlasts `graceTime`.
    public func follow(_ progress: Progress, label: String, details: String = "", mode: HUDMode = .determinate,
                cancellable: Bool = true, graceTime: TimeInterval = 0.3) {
        reset()
        hud.label = label
        hud.detailsLabel = details
        hud.graceTime = graceTime
        hud.minShowTime = 0.5
        hud.follow(progress, mode: mode, cancelTitle: cancellable ? tr("Cancel") : nil)
        if !cancellable { hud.button = nil }
        startTicking()
    }

    /// Shows a spinner for work of unknown length.
    public func showBusy(label: String, graceTime: TimeInterval = 0.3) {
        reset()
        hud.label = label
        hud.detailsLabel = ""
        hud.mode = .indeterminate
        hud.button = nil
        hud.observedProgress = nil
        hud.graceTime = graceTime
        hud.show()
        startTicking()
    }

    /// Shows the HUD as it is configured now.
    public func show(graceTime: TimeInterval) {
        hud.graceTime = graceTime
        hud.show()
        startTicking()
    }

    /// Hides the HUD (after its minimum show time).
    public func hide() {
        hud.hide()
        startTicking()
    }

    /// Flashes a result: a checkmark, a cross or text, for 3 s in a box at least 150 × 100.
    /// A screen reader is told the words as the flash appears.
    public func flash(_ kind: ProgressHUD.Flash, label: String, details: String = "") {
        reset()
        hud.flash(kind, label: label, details: details)
        startTicking()
        // TRANSLATORS: what a screen reader says when the HUD flashes a result: its title, then what happened.
        announcer.announce(details.isEmpty ? label : tr("{label}: {details}", ["label": label, "details": details]))
    }

    /// The app's own look for work and results: a box blurred light or dark as the theme is,
    /// fading, in the default fonts and colours (a script may have shown other styles).
    private func reset() {
        hud.animation = .fade
        hud.layout = HUDLayout()
        hud.restoreDefaultAppearance()
        customWidget = nil
        followsTheme = true
        followTheme()
    }

    /// The blur of the app's look, as the theme is now.
    public static var themeBlur: HUDBlurStyle { Application.prefersDarkTheme ? .dark : .light }

    /// Puts the app's look in the theme's blur, unless a script styled the HUD itself.
    private func followTheme() {
        guard followsTheme else { return }
        hud.background = HUDBackground(style: .blur(Self.themeBlur))
    }

    /// Presses the HUD's button as a click on it would.
    public func pressButton() {
        hud.pressButton()
    }

    /// The HUD's phase now.
    public var phase: ProgressHUD.Phase { hud.phase }

    // MARK: - Frames

    private func startTicking() {
        followPhase()
        guard tick == nil else { return }
        tick = area.addTickCallback { [unowned self] time in
            self.hud.tick()
            _ = self.ticker.tick()
            self.followPhase()
            self.refreshBackdrop(at: time)
            // Both read at one instant, and only while the model animates: a frame that
            // straddles an animation's end would compare two different moments.
            let now = self.layer.currentTime
            if self.layer.hasRunningSprites, self.hud.animationEnd(at: now) != nil, let report = self.onAnimationFrame {
                let shown = self.layer.presentation(at: now)
                report((shown.opacity, shown.transform.scale.x), self.hud.animationState(at: now))
            }
            self.area.queueDraw()
            if self.hud.phase == .hidden && !self.layer.hasRunningSprites {
                self.tick = nil
                return false
            }
            return true
        }
    }

    /// Starts the Motion animation that matches a change of the model's phase.
    private func followPhase() {
        followForReaders()
        let phase = hud.phase
        guard phase != shownPhase else { return }
        shownPhase = phase
        onPhaseChange?(phase)
        let now = layer.currentTime
        // Motion takes over from where the model is now and ends when the model's animation
        // ends, linearly as the model's timeline, so frame and model agree even when this
        // tick came a little after the phase turned.
        let state = hud.animationState(at: now)
        let remaining = max(0, (hud.animationEnd(at: now) ?? now) - now)
        let animation = hud.animation
        layer.motion.clear()
        switch phase {
        case .appearing:
            layer.model.opacity = 1
            layer.model.transform.scale = .one
            layer.motion.fade.from(state.opacity).to(1).duration(remaining).timing(.linear).activate()
            layer.motion.scale.from(state.scale).to(1).duration(remaining).timing(.linear).activate()
        case .visible:
            layer.model.opacity = 1
            layer.model.transform.scale = .one
        case .disappearing:
            layer.model.opacity = 0
            layer.motion.fade.from(state.opacity).to(0).duration(remaining).timing(.linear).activate()
            layer.motion.scale.from(state.scale).to(animation.disappearingScale).duration(remaining)
                .timing(.linear).keepAlive().activate()
        case .hidden, .waitingForGraceTime:
            layer.model.opacity = 0
            layer.model.transform.scale = .one
        }
        setTargetable(phase.isOnScreen)
    }

    /// Re-renders what is under the HUD ten times a second while a blurred HUD shows (a
    /// preview may be playing behind it).
    private func refreshBackdrop(at time: Double) {
        guard hud.isOnScreen, hud.background.needsBackdrop, let source = backdropSource else {
            backdropSnapshot = nil
            blurred = [:]
            return
        }
        // The first picture at once (a box must not show without its backdrop), then ten a second
        // once shown; a fade's third of a second keeps its first picture, so its frames are spent
        // on drawing, not on re-rendering and re-blurring what lies behind.
        guard backdropSnapshot == nil || (hud.phase == .visible && time - backdropTaken >= 0.1) else { return }
        backdropTaken = time
        backdropSnapshot = source.renderImage() ?? backdropSnapshot
        blurred = [:]
    }

    /// The backdrop under `rect` blurred and tinted as `style`, made once per snapshot.
    private func backdrop(for rect: Rect, _ style: HUDBlurStyle) -> CairoImage? {
        let key = BackdropKey(rect: rect, style: style)
        if let image = blurred[key] { return image }
        guard let image = backdropSnapshot?.blurredCrop(rect, radius: HUDBlurStyle.radius, tint: style.tint) else { return nil }
        blurred[key] = image
        return image
    }

    /// `raster` in Cairo's form, converted once while it stays the custom view.
    private func drawable(_ raster: RasterImage) -> CairoImage? {
        if let picture, picture.raster == raster { return picture.image }
        guard let image = CairoImage(raster) else { return nil }
        picture = (raster, image)
        return image
    }

    /// A hidden HUD must not swallow clicks meant for the screen under it.
    private func setTargetable(_ on: Bool) {
        area.canTarget = on
    }

    @discardableResult
    private func clicked(at point: Point) -> Bool {
        guard hud.isOnScreen, let frame = buttonFrame, frame.contains(point) else { return false }
        hud.pressButton()
        return true
    }

    /// Clicks the middle of the button where it was last drawn, as the pointer would.
    public func clickButton() -> Bool {
        guard let frame = buttonFrame else { return false }
        return clicked(at: frame.center)
    }

    private func draw(_ context: inout CairoContext, width: Double, height: Double) {
        let presented = layer.presentation(at: layer.currentTime)
        buttonFrame = nil
        guard hud.isOnScreen || presented.opacity > 0.001 else { return }
        followTheme()
        let around = HUDPainter.Surroundings(backdrop: { [unowned self] in self.backdrop(for: $0, $1) },
                                             picture: { [unowned self] in self.drawable($0) },
                                             customWidget: customWidget)
        buttonFrame = painter.draw(hud, in: &context, size: Size(width: width, height: height),
                                   opacity: presented.opacity, scale: presented.transform.scale.x,
                                   time: layer.currentTime, around: around)
    }
}
