import Foundation
import Testing
import ViewfinderCore

@testable import Motion

/// Path sprites timed per point, eased per segment, in each of Core Animation's calculation
/// modes. The expected values are computed here from the definitions (the Catmull-Rom matrix
/// form, a bisection Bézier solver, a fine arc-length sum), not with the code under test.
@Suite("Path calculation modes")
struct MotionPathModesTests {
    /// Position at `t` of a one-second, held path sprite along `route` from the origin.
    func position(_ route: MotionPath, at t: Double) -> Point {
        let rig = Rig()
        rig.layer.motion.path(route).duration(1).keepAlive().activate()
        return rig.state(at: t).position
    }

    /// cubic-bezier(x1, y1, x2, y2) at time fraction u, by bisection on x(s).
    static func bezier(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, at u: Double) -> Double {
        func b(_ s: Double, _ a: Double, _ c: Double) -> Double { 3 * (1 - s) * (1 - s) * s * a + 3 * (1 - s) * s * s * c + s * s * s }
        var low = 0.0, high = 1.0
        for _ in 0..<100 {
            let middle = (low + high) / 2
            if b(middle, x1, x2) < u { low = middle } else { high = middle }
        }
        return b((low + high) / 2, y1, y2)
    }

    /// The uniform Catmull-Rom segment from p1 to p2 at s, in its matrix form.
    static func catmullRom(_ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point, at s: Double) -> Point {
        func axis(_ a: Double, _ b: Double, _ c: Double, _ d: Double) -> Double {
            0.5 * (2 * b + (-a + c) * s + (2 * a - 5 * b + 4 * c - d) * s * s + (-a + 3 * b - 3 * c + d) * s * s * s)
        }
        return Point(x: axis(p0.x, p1.x, p2.x, p3.x), y: axis(p0.y, p1.y, p2.y, p3.y))
    }

    static let corner = MotionPath(from: .zero).line(to: Point(x: 100, y: 0), at: 0.25).line(to: Point(x: 100, y: 100))

    @Test("linear with key times: each segment in its own stretch of time")
    func linearKeyTimes() {
        #expect(Self.corner.resolvedMode == .linear)
        #expect(position(Self.corner, at: 0.125) == Point(x: 50, y: 0))
        #expect(position(Self.corner, at: 0.25) == Point(x: 100, y: 0))
        #expect(position(Self.corner, at: 0.625) == Point(x: 100, y: 50))
        #expect(position(Self.corner, at: 1) == Point(x: 100, y: 100))
        // Without a key time, the middle point of three is spaced evenly between its neighbours.
        let even = MotionPath(from: .zero).line(to: Point(x: 10, y: 0)).line(to: Point(x: 20, y: 0))
            .line(to: Point(x: 100, y: 0), at: 0.9).calculationMode(.linear)
        #expect(even.resolvedKeyTimes == [0, 0.3, 0.6, 0.9])
        #expect(isClose(position(even, at: 0.45).x, 15) && position(even, at: 0.95).x == 100)
    }

    @Test("a timing curve per segment eases only that segment")
    func segmentCurves() {
        let route = MotionPath(from: .zero).line(to: Point(x: 100, y: 0), at: 0.5, timing: .easeIn)
            .line(to: Point(x: 100, y: 100), timing: .bezier(0.2, 0.9, 0.3, 1))
        for u in [0.2, 0.5, 0.8] {
            #expect(isClose(position(route, at: u / 2).x, 100 * Self.bezier(0.42, 0, 1, 1, at: u), 1e-5))
            #expect(isClose(position(route, at: 0.5 + u / 2).y, 100 * Self.bezier(0.2, 0.9, 0.3, 1, at: u), 1e-5))
        }
    }

    @Test("discrete: each point from its key time on, no motion between")
    func discrete() {
        let route = Self.corner.calculationMode(.discrete)
        #expect(position(route, at: 0.2) == .zero)
        #expect(position(route, at: 0.3) == Point(x: 100, y: 0))
        #expect(position(route, at: 0.99) == Point(x: 100, y: 0))
        #expect(position(route, at: 1) == Point(x: 100, y: 100))
    }

    @Test("paced ignores key times and curves: one even speed over the whole route")
    func paced() {
        let route = MotionPath(from: .zero).line(to: Point(x: 100, y: 0), at: 0.9, timing: .easeIn)
            .line(to: Point(x: 100, y: 100)).calculationMode(.paced)
        #expect(position(route, at: 0.25) == Point(x: 50, y: 0))
        #expect(position(route, at: 0.75) == Point(x: 100, y: 50))
    }

    static let square = [Point(x: 0, y: 0), Point(x: 100, y: 0), Point(x: 100, y: 100), Point(x: 0, y: 100)]
    static let squareRoute = MotionPath(from: square[0]).line(to: square[1]).line(to: square[2]).line(to: square[3])

    @Test("cubic: a Catmull-Rom spline through the points, timed per segment", arguments: [0.1, 1.0 / 3, 0.5, 0.6, 0.9])
    func cubic(t: Double) {
        let p = Self.square
        // Phantom end points repeat the ends; three segments of a third each.
        let controls = [p[0]] + p + [p[3]]
        let segment = min(Int(t * 3), 2), s = t * 3 - Double(segment)
        let expected = Self.catmullRom(controls[segment], controls[segment + 1], controls[segment + 2], controls[segment + 3], at: s)
        let got = position(Self.squareRoute.calculationMode(.cubic), at: t)
        #expect(isClose(got, expected, 1e-9), "\(got) vs \(expected)")
    }

    @Test("cubicPaced: the same spline at one even speed, key times ignored")
    func cubicPaced() {
        let p = Self.square, controls = [p[0]] + p + [p[3]]
        // The spline's points at fine steps, and their cumulative length.
        var samples: [Point] = [], lengths: [Double] = [0]
        for segment in 0..<3 {
            for step in 0...20_000 where segment == 0 || step > 0 {
                samples.append(Self.catmullRom(controls[segment], controls[segment + 1], controls[segment + 2], controls[segment + 3],
                                               at: Double(step) / 20_000))
            }
        }
        for index in 1..<samples.count {
            let a = samples[index - 1], b = samples[index]
            lengths.append(lengths[index - 1] + ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot())
        }
        let route = MotionPath(from: p[0]).line(to: p[1], at: 0.9).line(to: p[2]).line(to: p[3]).calculationMode(.cubicPaced)
        for fraction in [0.2, 0.5, 0.8] {
            let target = fraction * lengths[lengths.count - 1]
            let index = lengths.firstIndex { $0 >= target } ?? lengths.count - 1
            #expect(isClose(position(route, at: fraction), samples[index], 0.02), "at \(fraction)")
        }
    }

    @Test("scenes: at and timing per path point, calculationMode per sprite")
    func scenes() throws {
        func scene(_ sprite: String) throws -> Scene {
            try Scene.parse(Data(#"{"size": [10, 10], "layers": [{"name": "a", "sprites": [\#(sprite)]}]}"#.utf8))
        }
        let s = try scene(#"""
        {"kind": "path", "start": [0, 0], "path": [{"line": [100, 0], "at": 0.25, "timing": "easeIn"}, {"line": [100, 100]}],
         "duration": 1, "keepAlive": true}
        """#)
        let route = try #require(s.layers[0].sprites[0].recipe.path)
        #expect(route.keyTimes == [0.25, nil] && route.curves == [.easeIn, nil] && route.resolvedMode == .linear)
        #expect(isClose(s.presentation(at: 0.125).sublayers[0].state.position.x, 100 * Self.bezier(0.42, 0, 1, 1, at: 0.5), 1e-5))
        #expect(s.presentation(at: 0.625).sublayers[0].state.position == Point(x: 100, y: 50))
        let discrete = try scene(#"{"kind": "path", "path": [{"line": [5, 5]}], "calculationMode": "discrete", "duration": 1}"#)
        #expect(discrete.layers[0].sprites[0].recipe.path?.mode == .discrete)
        for (json, message) in [
            (#"{"kind": "path", "path": [{"line": [5, 5]}], "calculationMode": "smooth"}"#, "calculationMode: expected one of linear, discrete, paced, cubic, cubicPaced"),
            (#"{"kind": "fade", "to": 0, "calculationMode": "cubic"}"#, "calculationMode: only a sprite with a path"),
            (#"{"kind": "path", "path": [{"line": [5, 5], "at": 0.5}, {"line": [6, 6], "at": 0.4}]}"#, "path[1].at: key times must not decrease"),
            (#"{"kind": "path", "path": [{"line": [5, 5], "at": 2}]}"#, "path[0].at: 2 is out of range"),
        ] {
            do {
                _ = try scene(json)
                Issue.record("parsed \(json)")
            } catch {
                #expect("\(error)".contains(message), "got: \(error)")
            }
        }
    }
}
