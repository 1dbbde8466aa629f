import Foundation

/// How the HUD appears and disappears (the original component's four styles).
public enum HUDAnimation: String, Sendable, Hashable, CaseIterable {
    /// Opacity only.
    case fade
    /// Grows in from half size when appearing, shrinks to half size when disappearing.
    case zoom
    /// Always zooms "in" (towards the viewer): grows from half size, leaves growing to 1.5×.
    case zoomIn
    /// Always zooms "out": shrinks from 1.5× to appear, shrinks to half size to leave.
    case zoomOut

    /// The default length of a show or hide animation, in seconds.
    public static let defaultDuration: TimeInterval = 0.3

    /// The scale the box starts from when it appears out of nothing.
    public var appearingScale: Double {
        switch self {
        case .fade: 1
        case .zoom, .zoomIn: 0.5
        case .zoomOut: 1.5
        }
    }

    /// The scale the box ends at when it has disappeared.
    public var disappearingScale: Double {
        switch self {
        case .fade: 1
        case .zoom, .zoomOut: 0.5
        case .zoomIn: 1.5
        }
    }
}

/// What a renderer draws at one moment: the box's opacity (also the dimming's) and its scale
/// about its centre.
public struct HUDAnimationState: Sendable, Hashable, CustomStringConvertible {
    /// 0 (invisible) … 1 (opaque).
    public var opacity: Double
    /// 1 is the laid-out size.
    public var scale: Double

    /// A state; opacity is clamped to 0…1 and scale kept positive.
    public init(opacity: Double, scale: Double) {
        self.opacity = opacity.isFinite ? min(max(opacity, 0), 1) : 0
        self.scale = scale.isFinite && scale > 0 ? scale : 1
    }

    /// Nothing on screen.
    public static let hidden = HUDAnimationState(opacity: 0, scale: 1)
    /// Fully shown at its laid-out size.
    public static let shown = HUDAnimationState(opacity: 1, scale: 1)

    /// "opacity 0.5, scale 0.75", for test output and logs.
    public var description: String { "opacity \(opacity), scale \(scale)" }
}

/// One running animation from a start state to an end state, evaluated against the clock.
///
/// Interpolation is linear so the numbers a renderer (and a test) reads are predictable; a
/// renderer that wants a curve can ease the `fraction` itself. An interrupted animation starts
/// the next one from wherever it had got to, so the box never jumps.
struct HUDTransition: Sendable, Hashable {
    var from: HUDAnimationState
    var to: HUDAnimationState
    var start: TimeInterval
    var duration: TimeInterval

    /// When the animation is over.
    var end: TimeInterval { start + duration }

    /// How far along it is at `time`, 0…1.
    func fraction(at time: TimeInterval) -> Double {
        guard duration > 0 else { return 1 }
        return min(max((time - start) / duration, 0), 1)
    }

    /// The state at `time`.
    func state(at time: TimeInterval) -> HUDAnimationState {
        let f = fraction(at: time)
        return HUDAnimationState(opacity: from.opacity + (to.opacity - from.opacity) * f,
                                 scale: from.scale + (to.scale - from.scale) * f)
    }
}
