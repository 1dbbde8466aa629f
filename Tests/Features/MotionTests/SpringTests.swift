import Foundation
import Testing

@testable import Motion

@Suite("Springs")
struct SpringTests {
    /// Integrates m·x″ + c·x′ + k·(x − 1) = 0 with fourth-order Runge–Kutta: an oracle that does
    /// not share the closed form's algebra.
    static func integrate(_ spring: Spring, to end: Double, step: Double = 1e-4) -> Double {
        var x = 0.0, v = spring.initialVelocity, t = 0.0
        func acceleration(_ x: Double, _ v: Double) -> Double {
            (-spring.damping * v - spring.stiffness * (x - 1)) / spring.mass
        }
        while t < end - 1e-12 {
            let h = min(step, end - t)
            let k1x = v, k1v = acceleration(x, v)
            let k2x = v + h / 2 * k1v, k2v = acceleration(x + h / 2 * k1x, v + h / 2 * k1v)
            let k3x = v + h / 2 * k2v, k3v = acceleration(x + h / 2 * k2x, v + h / 2 * k2v)
            let k4x = v + h * k3v, k4v = acceleration(x + h * k3x, v + h * k3v)
            x += h / 6 * (k1x + 2 * k2x + 2 * k3x + k4x)
            v += h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v)
            t += h
        }
        return x
    }

    static let springs = [
        Spring(mass: 1, stiffness: 100, damping: 10),  // under-damped, ζ = 0.5
        Spring(mass: 1, stiffness: 100, damping: 20),  // critically damped
        Spring(mass: 1, stiffness: 100, damping: 50),  // over-damped
        Spring(mass: 2, stiffness: 300, damping: 4, initialVelocity: 5),
        Spring(mass: 0.5, stiffness: 50, damping: 10, initialVelocity: -3),
        Spring(mass: 1, stiffness: 200, damping: 60, initialVelocity: 8),
    ]

    @Test("the closed form matches a numerical integration", arguments: springs)
    func closedForm(spring: Spring) {
        for t in stride(from: 0.05, through: 1.0, by: 0.05) where t < spring.settlingDuration {
            let expected = Self.integrate(spring, to: t)
            let actual = spring.progress(atSeconds: t)
            #expect(isClose(actual, expected, 1e-8), "\(spring) at \(t): \(actual) ≠ \(expected)")
        }
    }

    @Test("damping ratios classify the three regimes")
    func regimes() {
        #expect(Self.springs[0].dampingRatio == 0.5)
        #expect(Self.springs[1].dampingRatio == 1)
        #expect(Self.springs[2].dampingRatio == 2.5)
    }

    @Test("after the settling duration the motion stays within 0.1 %; just before, it is outside", arguments: springs)
    func settling(spring: Spring) {
        let settle = spring.settlingDuration
        #expect(settle.isFinite && settle > 0)
        #expect(abs(spring.displacement(at: settle - 1e-6)) > Spring.settlingTolerance)
        for t in stride(from: settle, through: settle + 5, by: 1e-3) {
            #expect(abs(spring.displacement(at: t)) <= Spring.settlingTolerance + 1e-12, "\(spring) at \(t)")
        }
        #expect(spring.progress(atSeconds: settle) == 1)
    }

    @Test("the example spring (1, 100, 10) settles before its envelope does, at 1.41 s")
    func exampleSettles() {
        let spring = Spring(mass: 1, stiffness: 100, damping: 10)
        // Envelope e^(−5t)·√(1 + 1/3) = 0.001 at t = ln(1154.7)/5 ≈ 1.4103: an upper bound.
        #expect(spring.settlingDuration <= 1.4104 && spring.settlingDuration > 1.0)
    }

    @Test("an undamped spring never settles; nonsense parameters are repaired")
    func undamped() {
        #expect(Spring(mass: 1, stiffness: 100, damping: 0).settlingDuration == .infinity)
        let repaired = Spring(mass: -1, stiffness: .nan, damping: -2, initialVelocity: .infinity)
        #expect(repaired.mass == 1 && repaired.stiffness == 1 && repaired.damping == 0 && repaired.initialVelocity == 0)
    }

    @Test("a fast, barely damped spring (found by fuzzing: it took seconds to parse) settles where its motion stays within tolerance",
          arguments: [(1_000_000.0, 0.000001, 0.000001), (1_000_000.0, 1.0, 0.5), (1_000_000.0, 0.000001, 1.0)])
    func extremeSettling(_ stiffness: Double, _ mass: Double, _ damping: Double) {
        let spring = Spring(mass: mass, stiffness: stiffness, damping: damping)
        let t = spring.settlingDuration
        #expect(t.isFinite && t > 0)
        // After it, never outside the tolerance (sampled finely across many periods; a peak may
        // graze it by a hundredth of a per cent, between the scan's samples).
        let period = 2 * Double.pi / spring.naturalFrequency
        for i in 1...2000 {
            let later = t + Double(i) * period / 97
            #expect(abs(spring.displacement(at: later)) <= Spring.settlingTolerance * 1.001, "at \(later)")
        }
        #expect(spring.progress(atSeconds: t) == 1)
    }
}
