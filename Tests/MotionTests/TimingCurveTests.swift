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
        #expect(TimingCurve.extremeEaseIn == .bezier(0.755, 0.05, 0.855, 0.06))
        #expect(TimingCurve.extremeEaseOut == .bezier(0.23, 1, 0.32, 1))
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
