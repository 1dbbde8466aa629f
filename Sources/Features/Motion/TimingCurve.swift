import Foundation
import ViewfinderCore

/// How a sprite's progress follows time: evenly, along a cubic Bézier, or like a spring.
///
/// The named curves carry Core Animation's exact control points, so motion paced here matches
/// motion paced by `CAMediaTimingFunction`.
public enum TimingCurve: Sendable, Hashable, CustomStringConvertible {
    /// Progress equals the time fraction (Core Animation's pacing when no curve is given).
    case linear
    /// A cubic Bézier from (0, 0) to (1, 1).
    case bezier(CubicBezier)
    /// A damped spring, evaluated in seconds.
    case spring(Spring)

    /// Slow start: (0.42, 0, 1, 1).
    public static let easeIn = TimingCurve.bezier(CubicBezier(0.42, 0, 1, 1))
    /// Slow end: (0, 0, 0.58, 1).
    public static let easeOut = TimingCurve.bezier(CubicBezier(0, 0, 0.58, 1))
    /// Slow start and end: (0.42, 0, 0.58, 1).
    public static let easeInEaseOut = TimingCurve.bezier(CubicBezier(0.42, 0, 0.58, 1))
    /// Core Animation's default for implicit animations: (0.25, 0.1, 0.25, 1).
    public static let `default` = TimingCurve.bezier(CubicBezier(0.25, 0.1, 0.25, 1))
    /// The original library's very slow start, with its published control points (1, 0, 1, 1):
    /// 0.110 at half time, then a rush.
    public static let extremeEaseIn = TimingCurve.bezier(CubicBezier(1, 0, 1, 1))
    /// The original library's very gentle arrival, with its published control points
    /// (0, 0, 0, 1): 0.890 at half time.
    public static let extremeEaseOut = TimingCurve.bezier(CubicBezier(0, 0, 0, 1))

    /// A cubic Bézier with control points (c1x, c1y) and (c2x, c2y).
    public static func bezier(_ c1x: Double, _ c1y: Double, _ c2x: Double, _ c2y: Double) -> TimingCurve {
        .bezier(CubicBezier(c1x, c1y, c2x, c2y))
    }

    /// A spring with the given physics.
    public static func spring(mass: Double = 1, stiffness: Double = 100, damping: Double = 10,
                              initialVelocity: Double = 0) -> TimingCurve {
        .spring(Spring(mass: mass, stiffness: stiffness, damping: damping, initialVelocity: initialVelocity))
    }

    /// The curves that have a name, by the name the scene format and the Swift API use.
    public static let named: [String: TimingCurve] = [
        "linear": .linear, "easeIn": .easeIn, "easeOut": .easeOut, "easeInEaseOut": .easeInEaseOut,
        "default": .default, "extremeEaseIn": .extremeEaseIn, "extremeEaseOut": .extremeEaseOut,
    ]

    /// Progress (0 at the start, 1 at the end, possibly beyond for springs and overshooting
    /// Béziers) at time fraction `fraction` of a cycle that lasts `duration` seconds.
    public func progress(at fraction: Double, duration: Double) -> Double {
        switch self {
        case .linear: fraction
        case .bezier(let curve): curve.progress(at: fraction)
        case .spring(let spring): spring.progress(atSeconds: fraction * duration)
        }
    }

    /// The curve's name, its control points or its spring.
    public var description: String {
        switch self {
        case .linear: "linear"
        case .bezier(let curve): Self.named.first { $0.value == self }?.key ?? curve.description
        case .spring(let spring): spring.description
        }
    }
}
