import Foundation
import ViewfinderCore

/// A timing curve shaped like CSS's and Core Animation's `cubic-bezier(c1x, c1y, c2x, c2y)`: the
/// curve from (0, 0) to (1, 1) with two control points, read as "time fraction x → progress y".
public struct CubicBezier: Sendable, Hashable, CustomStringConvertible {
    /// The first control point; its x is kept within 0…1 so the curve stays a function of time.
    public let control1: Point
    /// The second control point; its x is kept within 0…1 likewise.
    public let control2: Point

    /// A curve through the two control points. x values outside 0…1 are clamped (Core Animation
    /// does the same) because otherwise one time would map to several progress values.
    public init(_ c1x: Double, _ c1y: Double, _ c2x: Double, _ c2y: Double) {
        control1 = Point(x: Self.clampUnit(c1x), y: c1y)
        control2 = Point(x: Self.clampUnit(c2x), y: c2y)
    }

    /// How close x(s) must come to the asked time fraction.
    public static let tolerance = 1e-7

    /// The progress at time fraction `u` (0…1): solves x(s) = u for the curve parameter s with
    /// Newton's method, falling back to bisection where the slope is too flat for Newton, then
    /// returns y(s). The ends are exact: 0 → 0 and 1 → 1.
    public func progress(at u: Double) -> Double {
        if u <= 0 { return 0 }
        if u >= 1 { return 1 }
        return Self.cubic(solve(u), control1.y, control2.y)
    }

    /// The curve parameter s in 0…1 where x(s) = u.
    func solve(_ u: Double) -> Double {
        let x1 = control1.x, x2 = control2.x
        var s = u
        for _ in 0..<8 {
            let miss = Self.cubic(s, x1, x2) - u
            if abs(miss) < Self.tolerance { return s }
            let slope = Self.slope(s, x1, x2)
            if abs(slope) < 1e-6 { break }
            s -= miss / slope
            if s < 0 || s > 1 { break }
        }
        // x(s) is non-decreasing on 0…1 because both control x values lie in 0…1.
        var low = 0.0, high = 1.0
        s = u
        while high - low > Self.tolerance / 8 {
            let x = Self.cubic(s, x1, x2)
            if abs(x - u) < Self.tolerance { return s }
            if x < u { low = s } else { high = s }
            s = (low + high) / 2
        }
        return s
    }

    /// B(s) for one coordinate of a curve from 0 to 1 with control values a and b.
    static func cubic(_ s: Double, _ a: Double, _ b: Double) -> Double {
        let r = 1 - s
        return 3 * r * r * s * a + 3 * r * s * s * b + s * s * s
    }

    /// dB/ds for the same coordinate.
    static func slope(_ s: Double, _ a: Double, _ b: Double) -> Double {
        let r = 1 - s
        return 3 * r * r * a + 6 * r * s * (b - a) + 3 * s * s * (1 - b)
    }

    private static func clampUnit(_ value: Double) -> Double {
        value.isNaN ? 0 : min(max(value, 0), 1)
    }

    /// "cubic-bezier(c1x, c1y, c2x, c2y)".
    public var description: String { "cubic-bezier(\(control1.x), \(control1.y), \(control2.x), \(control2.y))" }
}
