import Foundation

/// The HUD's timing rules as a plain value: grace time, minimum show time, delayed hides and the
/// show/hide animations, all as deadlines against a clock reading rather than timers.
///
/// `ProgressHUD` owns one and brings it up to `clock.now` on every tick and public call. Because
/// `advance(to:)` applies every deadline that has passed in the order they fell due, each at its
/// own time, the outcome never depends on how often or how late the renderer ticks. That is also
/// what removes the races the original component has with its timers:
///
/// - Grace time and a delayed hide: a hide that falls due before the grace time ends (or at the
///   same instant) ends the cycle without the HUD ever appearing; one that falls due later hides
///   the HUD that the grace time showed. Neither can leave it showing forever.
/// - Two hides: a cycle reaches `hidden` once, so it ends once. A second hide while one is pending
///   keeps the earlier deadline; a hide while disappearing or hidden does nothing.
/// - Show during the hide animation: the HUD turns round from where the animation had got to and
///   the cycle goes on; it ends (and the completion fires, once) when the HUD finally reaches
///   hidden.
struct HUDTimeline: Sendable, Hashable {
    /// Where the HUD is between shows.
    enum State: Sendable, Hashable {
        case hidden
        case waitingForGraceTime(showAt: TimeInterval, animated: Bool)
        case appearing(HUDTransition)
        case visible
        case disappearing(HUDTransition)
    }

    /// A hide asked for and not yet begun.
    struct HideRequest: Sendable, Hashable {
        var at: TimeInterval
        var animated: Bool
    }

    private(set) var state: State = .hidden
    /// When the current appearance began; the minimum show time counts from here.
    private(set) var shownAt: TimeInterval = 0
    private(set) var pendingHide: HideRequest?
    /// The latest time the timeline has been brought up to.
    private(set) var time: TimeInterval = -.infinity

    /// The style of the next show or hide (a running animation keeps the one it started with).
    var animation: HUDAnimation = .fade
    /// Length of the next show or hide animation, in seconds.
    var animationDuration: TimeInterval = HUDAnimation.defaultDuration {
        didSet { animationDuration = Self.nonNegative(animationDuration) }
    }
    /// The least time the HUD stays once it has appeared; read when a hide falls due.
    var minShowTime: TimeInterval = 0 {
        didSet { minShowTime = Self.nonNegative(minShowTime) }
    }

    /// The moment a pending hide takes effect: not before it was asked for, and not before the
    /// HUD has been up for the minimum show time.
    private var hideDue: TimeInterval? {
        pendingHide.map { max($0.at, shownAt + minShowTime) }
    }

    /// Asks for the HUD to show from `now`, appearing after `graceTime` if it starts hidden.
    /// A pending hide is dropped: the latest request wins.
    mutating func show(at now: TimeInterval, animated: Bool, graceTime: TimeInterval) {
        pendingHide = nil
        switch state {
        case .hidden:
            if graceTime > 0 {
                state = .waitingForGraceTime(showAt: now + graceTime, animated: animated)
            } else {
                appear(at: now, animated: animated, from: nil)
            }
        case .waitingForGraceTime(let showAt, _):
            // A second show with a shorter grace time (a flashed result) must not wait longer.
            if now + graceTime < showAt {
                state = .waitingForGraceTime(showAt: now + graceTime, animated: animated)
            }
        case .appearing, .visible:
            break
        case .disappearing(let transition):
            appear(at: now, animated: animated, from: transition.state(at: now))
        }
    }

    /// Asks for the HUD to hide `delay` seconds after `now` (NaN and negative delays mean now).
    mutating func hide(at now: TimeInterval, animated: Bool, delay: TimeInterval) {
        switch state {
        case .hidden, .disappearing:
            return
        case .waitingForGraceTime, .appearing, .visible:
            let at = now + (delay.isNaN ? 0 : max(0, delay))
            if let earlier = pendingHide, earlier.at <= at { return }
            pendingHide = HideRequest(at: at, animated: animated)
        }
    }

    /// Applies every deadline up to `now`, in order. Returns true when the HUD reached hidden,
    /// which ends a show→hidden cycle (it can happen at most once per call).
    mutating func advance(to now: TimeInterval) -> Bool {
        var cycleEnded = false
        steps: while true {
            switch state {
            case .hidden:
                break steps
            case .waitingForGraceTime(let showAt, let animated):
                if let hide = pendingHide, hide.at <= showAt, hide.at <= now {
                    // Hidden within the grace time: the HUD never appears at all.
                    pendingHide = nil
                    state = .hidden
                    cycleEnded = true
                } else if showAt <= now {
                    appear(at: showAt, animated: animated, from: nil)
                } else {
                    break steps
                }
            case .appearing(let transition):
                if let due = hideDue, due < transition.end, due <= now {
                    disappear(at: due, from: transition.state(at: due))
                } else if transition.end <= now {
                    state = .visible
                } else {
                    break steps
                }
            case .visible:
                guard let due = hideDue, due <= now else { break steps }
                disappear(at: due, from: .shown)
            case .disappearing(let transition):
                guard transition.end <= now else { break steps }
                state = .hidden
                cycleEnded = true
            }
        }
        time = max(time, now)
        return cycleEnded
    }

    /// What is on screen at `time`, given the state as last advanced.
    func presentation(at time: TimeInterval) -> HUDAnimationState {
        switch state {
        case .hidden, .waitingForGraceTime: .hidden
        case .appearing(let transition), .disappearing(let transition): transition.state(at: time)
        case .visible: .shown
        }
    }

    private mutating func appear(at time: TimeInterval, animated: Bool, from start: HUDAnimationState?) {
        shownAt = time
        let from = start ?? HUDAnimationState(opacity: 0, scale: animation.appearingScale)
        state = .appearing(HUDTransition(from: from, to: .shown, start: time,
                                         duration: animated ? animationDuration : 0))
    }

    private mutating func disappear(at time: TimeInterval, from start: HUDAnimationState) {
        let animated = pendingHide?.animated ?? true
        pendingHide = nil
        let end = HUDAnimationState(opacity: 0, scale: animation.disappearingScale)
        state = .disappearing(HUDTransition(from: start, to: end, start: time,
                                            duration: animated ? animationDuration : 0))
    }

    private static func nonNegative(_ value: TimeInterval) -> TimeInterval {
        value.isFinite ? max(0, value) : 0
    }
}
