import Testing
import ViewfinderCore

@testable import Motion

@Suite("Motion paths")
struct MotionPathTests {
    @Test("lines are walked by distance, exactly")
    func lines() {
        // 30 then 10: an L of length 40.
        let path = MeasuredPath(MotionPath(from: Point(x: 0, y: 0)).line(to: Point(x: 30, y: 0)).line(to: Point(x: 30, y: 10)),
                                start: Point(x: 99, y: 99))
        #expect(path.length == 40)
        #expect(path.point(atFraction: 0) == Point(x: 0, y: 0))
        #expect(path.point(atFraction: 0.5) == Point(x: 20, y: 0))
        #expect(path.point(atFraction: 0.75) == Point(x: 30, y: 0))
        #expect(path.point(atFraction: 0.875) == Point(x: 30, y: 5))
        #expect(path.point(atFraction: 1) == Point(x: 30, y: 10))
    }

    @Test("a path without a start begins where the layer is")
    func defaultStart() {
        let path = MeasuredPath(MotionPath().line(to: Point(x: 10, y: 0)), start: Point(x: 0, y: 0))
        #expect(path.point(atFraction: 0.3) == Point(x: 3, y: 0))
    }

    @Test("a straight cubic is walked at an even speed, unlike its parameter")
    func straightCubic() {
        // Control points bunched at the start: the parameter races ahead of distance.
        let curve = MeasuredPath(MotionPath(from: .zero).curve(to: Point(x: 100, y: 0), control1: .zero, control2: .zero),
                                 start: .zero)
        #expect(isClose(curve.length, 100, 1e-9))
        for fraction in [0.1, 0.25, 0.5, 0.9] {
            #expect(isClose(curve.point(atFraction: fraction), Point(x: 100 * fraction, y: 0), 1e-6))
        }
    }

    @Test("a symmetric arch has its half-way point at its apex")
    func symmetricCubic() {
        let arch = MeasuredPath(MotionPath(from: .zero).curve(to: Point(x: 100, y: 0), control1: Point(x: 0, y: -80),
                                                               control2: Point(x: 100, y: -80)), start: .zero)
        // Apex of this curve: B(½) = (50, −60).
        #expect(isClose(arch.point(atFraction: 0.5), Point(x: 50, y: -60), 1e-6))
        #expect(arch.point(atFraction: 1) == Point(x: 100, y: 0))
    }
}
