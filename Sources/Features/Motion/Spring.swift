import Foundation
import ViewfinderCore

/// A damped spring (Core Animation's `CASpringAnimation`): a mass on a spring with a damper,
/// released at the start value with an initial velocity and pulled towards the end value.
///
/// Progress is the closed-form solution of m·x″ + c·x′ + k·(x − 1) = 0 with x(0) = 0 and
/// x′(0) = initialVelocity, for under-, critically and over-damped springs alike. Unlike a Bézier
/// curve it is a function of *seconds*, not of a time fraction, so a spring looks the same
/// whatever the sprite's duration (which defaults to `settlingDuration`).
public struct Spring: Sendable, Hashable, CustomStringConvertible {
    /// The moving mass (> 0).
    public let mass: Double
    /// The spring constant k (> 0): stiffer springs move faster.
    public let stiffness: Double
    /// The damping coefficient c (≥ 0): 0 oscillates for ever, 2·√(k·m) is critical.
    public let damping: Double
    /// Starting speed in distances-per-second (1 = the whole way in one second), as in Core Animation.
    public let initialVelocity: Double
    /// Seconds until the motion stays within 0.1 % of the distance from the target. From then on
    /// `progress(atSeconds:)` reports exactly 1, so a held end state is exactly the end value.
    public private(set) var settlingDuration: Double

    /// How close to the target counts as settled: 0.1 % of the distance travelled.
    public static let settlingTolerance = 0.001

    /// A spring; non-positive or non-finite mass and stiffness become 1 and negative damping 0,
    /// because a spring without them never arrives.
    public init(mass: Double = 1, stiffness: Double = 100, damping: Double = 10, initialVelocity: Double = 0) {
        self.mass = mass.isFinite && mass > 0 ? mass : 1
        self.stiffness = stiffness.isFinite && stiffness > 0 ? stiffness : 1
        self.damping = damping.isFinite && damping > 0 ? damping : 0
        self.initialVelocity = initialVelocity.isFinite ? initialVelocity : 0
        settlingDuration = 0
        settlingDuration = findSettlingDuration()
    }

    /// √(k/m): the angular frequency without damping.
    public var naturalFrequency: Double { (stiffness / mass).squareRoot() }
    /// c / (2·√(k·m)): below 1 the spring overshoots and oscillates, at 1 it is critically damped.
    public var dampingRatio: Double { damping / (2 * (stiffness * mass).squareRoot()) }

    /// Progress from 0 (start) towards 1 (target) `seconds` after release; exactly 1 once settled.
    public func progress(atSeconds seconds: Double) -> Double {
        if seconds <= 0 { return 0 }
        if seconds >= settlingDuration { return 1 }
        return 1 + displacement(at: seconds)
    }

    /// The signed distance from the target, x(t) − 1, of the unsettled closed form.
    func displacement(at t: Double) -> Double {
        let w0 = naturalFrequency, zeta = dampingRatio, v0 = initialVelocity
        if abs(zeta - 1) < 1e-9 {
            return exp(-w0 * t) * (-1 + (v0 - w0) * t)
        } else if zeta < 1 {
            let wd = w0 * (1 - zeta * zeta).squareRoot()
            let b = (v0 - zeta * w0) / wd
            return exp(-zeta * w0 * t) * (-cos(wd * t) + b * sin(wd * t))
        } else {
            let root = (zeta * zeta - 1).squareRoot()
            let r1 = -w0 * (zeta - root), r2 = -w0 * (zeta + root)
            let c2 = (v0 + r1) / (r2 - r1), c1 = -1 - c2
            return c1 * exp(r1 * t) + c2 * exp(r2 * t)
        }
    }

    /// An upper bound on |displacement| from `t` on (it decreases with t once past the start).
    private func envelope(at t: Double) -> Double {
        let w0 = naturalFrequency, zeta = dampingRatio, v0 = initialVelocity
        if abs(zeta - 1) < 1e-9 {
            return exp(-w0 * t) * (1 + abs(v0 - w0) * t)
        } else if zeta < 1 {
            let wd = w0 * (1 - zeta * zeta).squareRoot()
            let b = (v0 - zeta * w0) / wd
            return exp(-zeta * w0 * t) * (1 + b * b).squareRoot()
        } else {
            let root = (zeta * zeta - 1).squareRoot()
            let r1 = -w0 * (zeta - root), r2 = -w0 * (zeta + root)
            let c2 = (v0 + r1) / (r2 - r1), c1 = -1 - c2
            return abs(c1) * exp(r1 * t) + abs(c2) * exp(r2 * t)
        }
    }

    /// Finds the last time |displacement| exceeds the tolerance: first the time past which the
    /// envelope keeps it inside (doubling, then bisection, so the scan that follows starts within
    /// one oscillation of the answer however fast the spring swings), then a backward scan fine
    /// enough to see every oscillation, then bisection on the crossing.
    private func findSettlingDuration() -> Double {
        let tolerance = Self.settlingTolerance
        if damping == 0 { return .infinity }
        let first = max(1 / naturalFrequency, 1e-3)
        var horizon = first
        while envelope(at: horizon) > tolerance && horizon < 1e6 { horizon *= 2 }
        if horizon >= 1e6 { return .infinity }
        // The envelope falls from `horizon / 2` (still outside, unless it never was) to `horizon`.
        var outside = horizon == first ? 0 : horizon / 2
        for _ in 0..<60 {
            let middle = (outside + horizon) / 2
            if envelope(at: middle) > tolerance { outside = middle } else { horizon = middle }
        }
        var step = horizon / 4096
        if dampingRatio < 1 {
            let period = 2 * Double.pi / (naturalFrequency * (1 - dampingRatio * dampingRatio).squareRoot())
            step = min(step, period / 64)
        }
        var later = horizon
        var earlier = horizon - step
        while earlier > 0, abs(displacement(at: earlier)) <= tolerance {
            later = earlier
            earlier -= step
        }
        if earlier <= 0 { earlier = 0 }
        for _ in 0..<60 {
            let middle = (earlier + later) / 2
            if abs(displacement(at: middle)) > tolerance { earlier = middle } else { later = middle }
        }
        return later
    }

    /// "spring(mass m, stiffness k, damping c, velocity v)".
    public var description: String {
        "spring(mass \(mass), stiffness \(stiffness), damping \(damping), velocity \(initialVelocity))"
    }
}
