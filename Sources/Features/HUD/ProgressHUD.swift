import Foundation
import ViewfinderCore

/// The model behind the progress HUD (seeds.md §4): a translucent box that says work is going
/// on, free of any UI toolkit. A renderer (the terminal one here, a GTK one later) reads it and
/// calls `tick()` on every frame it draws.
///
/// Time comes from an injected `ClockSource`; there are no timers. Grace time, minimum show time,
/// delayed hides and the animations are deadlines that `tick()` and every public call settle
/// against `clock.now`, in the order they fell due (see `HUDTimeline` for the races this rules
/// out). Only the main actor touches a HUD; the work it reports on runs elsewhere and publishes
/// through `progress` or a `Foundation.Progress` in `observedProgress`.
///
/// A *cycle* runs from a `show` on a hidden HUD to the moment it is hidden again (or the grace
/// time swallows it). `completion` and then `onWasHidden` are called exactly once per cycle, on
/// the first tick or call at or after the moment the HUD reached hidden.
@MainActor
public final class ProgressHUD {
    /// Where the HUD is in a cycle.
    public enum Phase: Sendable, Hashable {
        /// Nothing shown, nothing pending.
        case hidden
        /// Asked to show, waiting out the grace time; nothing on screen yet.
        case waitingForGraceTime
        /// The show animation is running.
        case appearing
        /// Fully shown.
        case visible
        /// The hide animation is running.
        case disappearing

        /// True when something is on screen.
        public var isOnScreen: Bool {
            switch self {
            case .appearing, .visible, .disappearing: true
            case .hidden, .waitingForGraceTime: false
            }
        }
    }

    /// Where time comes from: `SystemClock` in the app, `VirtualClock` in tests.
    public let clock: any ClockSource

    /// What the indicator shows.
    public var mode: HUDMode
    /// The main line, e.g. "Converting clip.mov".
    public var label: String
    /// Smaller text under the label; may span several lines.
    public var detailsLabel: String = ""
    /// The optional button under the labels, e.g. Cancel.
    public var button: HUDButton?
    /// How the box and the view behind it look.
    public var background = HUDBackground()
    /// The colour of the labels, the indicator, the symbols and the button, or nil to follow the
    /// box (see `automaticContentColor`). `resolvedColors` says what each part gets.
    public var contentColor: RGBA?
    /// The label's font.
    public var labelFont = HUDFont.label
    /// The label's colour, or nil for the content colour.
    public var labelColor: RGBA?
    /// The details label's font.
    public var detailsFont = HUDFont.details
    /// The details label's colour, or nil for the content colour.
    public var detailsColor: RGBA?
    /// The pie's, ring's and bar's colours; those left nil follow the content colour.
    public var indicatorColors = HUDIndicatorColors()
    /// Where the box sits and how big it is.
    public var layout = HUDLayout()

    /// The show/hide style; a running animation keeps the one it started with.
    public var animation: HUDAnimation {
        get { timeline.animation }
        set { timeline.animation = newValue }
    }
    /// Length of a show or hide animation in seconds (0.3 by default; negative counts as 0).
    public var animationDuration: TimeInterval {
        get { timeline.animationDuration }
        set { timeline.animationDuration = newValue }
    }
    /// A show waits this long before anything appears, so short tasks never flash a HUD. Read
    /// when `show` is called. 0 by default.
    public var graceTime: TimeInterval = 0 {
        didSet { graceTime = graceTime.isFinite ? max(0, graceTime) : 0 }
    }
    /// Once on screen, the HUD stays at least this long, so it never flickers. 0 by default.
    public var minShowTime: TimeInterval {
        get { timeline.minShowTime }
        set { timeline.minShowTime = newValue }
    }

    /// How much of the work is done, 0…1 (out-of-range values are clamped, NaN reads as 0).
    /// While `observedProgress` is set, each tick overwrites it with that object's fraction.
    public var progress: Double = 0 {
        didSet { progress = progress.isNaN ? 0 : min(max(progress, 0), 1) }
    }
    /// A progress object to follow: its `fractionCompleted` is read into `progress` on every
    /// tick (polling, not key-value observing, so the worker's thread never calls into the HUD).
    public var observedProgress: Progress? {
        didSet { pollObservedProgress() }
    }

    /// Called once at the end of every cycle, before `onWasHidden`.
    public var completion: (@MainActor () -> Void)?
    /// The "was hidden" event: called once at the end of every cycle, after `completion`.
    public var onWasHidden: (@MainActor (ProgressHUD) -> Void)?

    private var timeline = HUDTimeline()

    /// A hidden HUD on `clock`.
    public init(clock: any ClockSource = SystemClock(), mode: HUDMode = .indeterminate, label: String = "") {
        self.clock = clock
        self.mode = mode
        self.label = label
    }

    // MARK: - Showing and hiding

    /// Starts a cycle (or keeps the current one going): the HUD appears after the grace time.
    /// Cancels a pending delayed hide. During the hide animation it turns round and comes back
    /// from where it had got to; the cycle continues and ends at the next hide.
    public func show(animated: Bool = true) {
        show(animated: animated, graceTime: graceTime)
    }

    /// `show` with a grace time of the caller's choosing, for the convenience HUDs.
    func show(animated: Bool, graceTime: TimeInterval) {
        settle()
        timeline.show(at: clock.now, animated: animated, graceTime: graceTime)
        settle()
    }

    /// Hides the HUD `delay` seconds from now, but never before the minimum show time has passed;
    /// if that comes within the grace time, the HUD is never shown. When two hides are pending
    /// the earlier wins; hiding a HUD that is hidden or already disappearing does nothing.
    public func hide(animated: Bool = true, afterDelay delay: TimeInterval = 0) {
        settle()
        timeline.hide(at: clock.now, animated: animated, delay: delay)
        settle()
    }

    /// The renderer's heartbeat: applies the deadlines that have passed and reads the observed
    /// progress. Call it on every frame.
    public func tick() {
        settle()
        pollObservedProgress()
    }

    /// What the renderer calls when the user presses the button.
    public func pressButton() {
        settle()
        button?.action()
    }

    // MARK: - Reading the state

    /// The phase now.
    public var phase: Phase { phase(at: clock.now) }

    /// The phase at `time` (at or after the last tick), as the pending deadlines will make it.
    /// Reading never calls back; the callbacks wait for the next tick or call.
    public func phase(at time: TimeInterval) -> Phase {
        switch projected(to: time).state {
        case .hidden: .hidden
        case .waitingForGraceTime: .waitingForGraceTime
        case .appearing: .appearing
        case .visible: .visible
        case .disappearing: .disappearing
        }
    }

    /// True when something of the HUD is on screen now.
    public var isOnScreen: Bool { phase.isOnScreen }

    /// The opacity and scale to draw now.
    public var animationState: HUDAnimationState { animationState(at: clock.now) }

    /// The opacity and scale to draw at `time` (at or after the last tick).
    public func animationState(at time: TimeInterval) -> HUDAnimationState {
        projected(to: time).presentation(at: time)
    }

    /// When the show or hide animation running at `time` ends, or nil when none runs. A
    /// renderer that animates with its own engine aims for this moment, so its frames and the
    /// model's `animationState` agree.
    public func animationEnd(at time: TimeInterval) -> TimeInterval? {
        switch projected(to: time).state {
        case .appearing(let transition), .disappearing(let transition): transition.end
        case .hidden, .waitingForGraceTime, .visible: nil
        }
    }

    /// The box for content of `content` size in a container of `container` size; see
    /// `HUDLayout.box(in:content:)`.
    public func box(in container: Size, content: Size) -> Rect {
        layout.box(in: container, content: content)
    }

    // MARK: - Private

    /// The timeline as it will be at `time`, without committing to it.
    private func projected(to time: TimeInterval) -> HUDTimeline {
        var copy = timeline
        _ = copy.advance(to: time)
        return copy
    }

    /// Applies the deadlines up to now and, if a cycle ended, tells the callbacks — after the
    /// state is final, so a callback that shows the HUD again starts a fresh cycle.
    private func settle() {
        guard timeline.advance(to: clock.now) else { return }
        completion?()
        onWasHidden?(self)
    }
}
