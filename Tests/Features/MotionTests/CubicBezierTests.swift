import Testing
import ViewfinderCore
import ViewfinderTestSupport

@testable import Motion

@Suite("Cubic Bézier timing curves")
struct CubicBezierTests {
    /// References solved independently (exact rational bisection to 1e-30, in Python).
    struct Reference: Sendable, CustomTestStringConvertible {
        let name: String
        let curve: TimingCurve
        let values: [Double]
        var testDescription: String { name }
    }

    static let references = [
        Reference(name: "easeInEaseOut", curve: .easeInEaseOut, values: [0.12916193104731982, 0.5, 0.8708380689526802]),
        Reference(name: "easeIn", curve: .easeIn, values: [0.09346465071882486, 0.3153568125725393, 0.6218618691748902]),
        Reference(name: "easeOut", curve: .easeOut, values: [0.3781381308251098, 0.6846431874274607, 0.9065353492811752]),
        Reference(name: "default", curve: .default, values: [0.40851059135539586, 0.802403387584857, 0.9604589783489741]),
    ]

    @Test("named curves at 0.25, 0.5 and 0.75 match independent references", arguments: references)
    func namedCurves(reference: Reference) {
        for (u, expected) in zip([0.25, 0.5, 0.75], reference.values) {
            let actual = reference.curve.progress(at: u, duration: 1)
            #expect(isClose(actual, expected, 1e-6), "\(reference.name) at \(u): \(actual) ≠ \(expected)")
        }
    }

    @Test("the ends are exact and outside 0…1 is clamped")
    func ends() {
        let curve = CubicBezier(0.42, 0, 0.58, 1)
        #expect(curve.progress(at: 0) == 0 && curve.progress(at: 1) == 1)
        #expect(curve.progress(at: -3) == 0 && curve.progress(at: 7) == 1)
    }

    @Test("control x values are clamped to 0…1 so the curve stays a function of time")
    func clampsControlX() {
        let curve = CubicBezier(-0.5, 0.2, 1.5, 0.8)
        #expect(curve.control1 == Point(x: 0, y: 0.2) && curve.control2 == Point(x: 1, y: 0.8))
    }

    @Test("for random curves and times, x(s) lands within 1e-7 of the time asked")
    func solvesRandomCurves() {
        var random = SplitMix64(seed: 0xBE21)
        for step in 0..<2_000 {
            let curve = CubicBezier(Double.random(in: 0...1, using: &random), Double.random(in: -1...2, using: &random),
                                    Double.random(in: 0...1, using: &random), Double.random(in: -1...2, using: &random))
            let u = Double.random(in: 0...1, using: &random)
            let s = curve.solve(u)
            let x = CubicBezier.cubic(s, curve.control1.x, curve.control2.x)
            #expect(abs(x - u) < 1e-7, "step \(step): \(curve) at \(u) solved to x = \(x)")
        }
    }

    @Test("flat-ended curves (zero slope at the start) still solve near 0")
    func flatStart() {
        let curve = CubicBezier(0, 0, 0, 1)
        let s = curve.solve(1e-9)
        #expect(abs(CubicBezier.cubic(s, 0, 0) - 1e-9) < 1e-7)
    }
}
