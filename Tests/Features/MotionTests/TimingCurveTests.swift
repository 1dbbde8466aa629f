import Foundation
import Testing

@testable import Motion

@Suite("Timing curves")
struct TimingCurveTests {
    @Test("named curves carry Core Animation's control points")
    func controlPoints() {
        #expect(TimingCurve.easeIn == .bezier(0.42, 0, 1, 1))
        #expect(TimingCurve.easeOut == .bezier(0, 0, 0.58, 1))
        #expect(TimingCurve.easeInEaseOut == .bezier(0.42, 0, 0.58, 1))
        #expect(TimingCurve.default == .bezier(0.25, 0.1, 0.25, 1))
        #expect(TimingCurve.extremeEaseIn == .bezier(1, 0, 1, 1))
        #expect(TimingCurve.extremeEaseOut == .bezier(0, 0, 0, 1))
        #expect(TimingCurve.named.count == 7 && TimingCurve.named["easeInEaseOut"] == .easeInEaseOut)
    }

    @Test("linear progress is the time fraction")
    func linear() {
        #expect(TimingCurve.linear.progress(at: 0.3, duration: 9) == 0.3)
    }

    @Test("extreme curves are more extreme than the plain ones at mid-time")
    func extremes() {
        #expect(TimingCurve.extremeEaseIn.progress(at: 0.5, duration: 1) < TimingCurve.easeIn.progress(at: 0.5, duration: 1))
        #expect(TimingCurve.extremeEaseOut.progress(at: 0.5, duration: 1) > TimingCurve.easeOut.progress(at: 0.5, duration: 1))
    }

    /// With control points (1, 0, 1, 1) the curve is x(s) = 1 − (1 − s)³, y(s) = 3s² − 2s³, and
    /// with (0, 0, 0, 1) it is x(s) = s³ with the same y: both invert in closed form, so these
    /// values owe nothing to the solver under test.
    @Test("the extreme curves follow the original's published points", arguments: [0.05, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99])
    func extremeValues(t: Double) {
        func y(_ s: Double) -> Double { 3 * s * s - 2 * s * s * s }
        let easeIn = y(1 - pow(1 - t, 1.0 / 3)), easeOut = y(pow(t, 1.0 / 3))
        #expect(abs(TimingCurve.extremeEaseIn.progress(at: t, duration: 1) - easeIn) < 1e-6)
        #expect(abs(TimingCurve.extremeEaseOut.progress(at: t, duration: 1) - easeOut) < 1e-6)
    }

    @Test("at half time the extreme curves give the original's 0.110 and 0.890")
    func extremeHalfTime() {
        #expect((TimingCurve.extremeEaseIn.progress(at: 0.5, duration: 1) * 1000).rounded() == 110)
        #expect((TimingCurve.extremeEaseOut.progress(at: 0.5, duration: 1) * 1000).rounded() == 890)
    }

    @Test("a spring is evaluated in seconds: the same instant gives the same progress whatever the duration")
    func springInSeconds() {
        let spring = Spring(mass: 1, stiffness: 100, damping: 10)
        let curve = TimingCurve.spring(spring)
        #expect(curve.progress(at: 0.5, duration: 0.4) == spring.progress(atSeconds: 0.2))
        #expect(curve.progress(at: 0.1, duration: 2) == spring.progress(atSeconds: 0.2))
    }

    @Test("descriptions name named curves")
    func descriptions() {
        #expect(TimingCurve.easeIn.description == "easeIn")
        #expect(TimingCurve.bezier(0.1, 0.2, 0.3, 0.4).description.hasPrefix("cubic-bezier"))
    }
}
