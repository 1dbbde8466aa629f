import Foundation
import ViewfinderCore

/// A route for a layer's position made of straight lines and cubic Bézier curves.
///
/// How it is walked is Core Animation's `calculationMode`: by default at an even speed (by arc
/// length, "paced"), so that "stop at 50 %" means half of the distance; given a key time per
/// point (the original's endAtPercent) or a curve per segment, "linear" — each segment in its own
/// stretch of time. See `CalculationMode` for all five.
public struct MotionPath: Sendable, Hashable {
    /// How the points of the route are reached over time (Core Animation's `calculationMode`).
    /// The points are the start and each segment's end.
    public enum CalculationMode: String, Sendable, Hashable, CaseIterable {
        /// Segment i runs from key time i to key time i + 1 (even spacing when none are given),
        /// at an even speed within the segment, eased by its curve.
        case linear
        /// No motion: point i shows from key time i until the next point's.
        case discrete
        /// The whole route at one even speed; key times and curves are ignored.
        case paced
        /// A Catmull-Rom spline through the points (control points ignored; the end tangents
        /// repeat the end points), segment i timed like `linear`, its spline parameter eased.
        case cubic
        /// The same spline walked at one even speed; key times and curves are ignored.
        case cubicPaced
    }

    /// One piece of the route, from wherever the previous one ended.
    public enum Segment: Sendable, Hashable {
        /// A straight line to a point.
        case line(to: Point)
        /// A cubic Bézier curve to a point, bent by two control points.
        case curve(to: Point, control1: Point, control2: Point)

        /// Where this piece ends.
        public var end: Point {
            switch self {
            case .line(let end), .curve(let end, _, _): end
            }
        }
    }

    /// Where the route begins; nil starts it wherever the layer is when the sprite activates.
    public var start: Point?
    /// The pieces, in order.
    public var segments: [Segment]
    /// When each segment's end is reached, as a fraction (0…1) of the sprite's pass, index for
    /// index with `segments`; nil entries are spaced evenly between their neighbours.
    public var keyTimes: [Double?] = []
    /// Each segment's timing curve (nil: linear), index for index with `segments`.
    public var curves: [TimingCurve?] = []
    /// How the route is walked; nil is `.paced`, or `.linear` when a key time or curve is given.
    public var mode: CalculationMode?

    /// An empty route from `start` (nil: from the layer's position at activation).
    public init(from start: Point? = nil, segments: [Segment] = []) {
        self.start = start
        self.segments = segments
    }

    /// The route with a straight line to `point` added, reached at key time `at` (a fraction of
    /// the pass) and paced within by `timing`, when given.
    public func line(to point: Point, at keyTime: Double? = nil, timing: TimingCurve? = nil) -> MotionPath {
        adding(.line(to: point), at: keyTime, timing: timing)
    }

    /// The route with a cubic curve to `point` added, reached at key time `at` and paced within
    /// by `timing`, when given.
    public func curve(to point: Point, control1: Point, control2: Point, at keyTime: Double? = nil,
                      timing: TimingCurve? = nil) -> MotionPath {
        adding(.curve(to: point, control1: control1, control2: control2), at: keyTime, timing: timing)
    }

    /// The route walked in `mode`.
    public func calculationMode(_ mode: CalculationMode) -> MotionPath {
        var copy = self
        copy.mode = mode
        return copy
    }

    private func adding(_ segment: Segment, at keyTime: Double?, timing: TimingCurve?) -> MotionPath {
        var copy = self
        copy.keyTimes += Array(repeating: nil, count: max(0, segments.count - keyTimes.count))
        copy.curves += Array(repeating: nil, count: max(0, segments.count - curves.count))
        copy.segments.append(segment)
        copy.keyTimes.append(keyTime.map { $0.isFinite ? min(max($0, 0), 1) : 1 })
        copy.curves.append(timing)
        return copy
    }

    /// The mode used: the one set, else linear when a key time or curve is given, else paced.
    public var resolvedMode: CalculationMode {
        if let mode { return mode }
        return keyTimes.contains { $0 != nil } || curves.contains { $0 != nil } ? .linear : .paced
    }

    /// The key time of each point (the start at 0, then each segment's end): given ones kept
    /// (ascending), missing ones spaced evenly between their neighbours, the last at 1 if missing.
    var resolvedKeyTimes: [Double] {
        let count = segments.count + 1
        var times: [Double?] = [0] + (0..<segments.count).map { $0 < keyTimes.count ? keyTimes[$0] : nil }
        if times[count - 1] == nil { times[count - 1] = 1 }
        var result = [Double](repeating: 0, count: count)
        var last = 0
        for index in 1..<count {
            guard let time = times[index] else { continue }
            let floor = result[last]
            let clamped = max(time, floor)
            for between in (last + 1)..<index {
                result[between] = floor + (clamped - floor) * Double(between - last) / Double(index - last)
            }
            result[index] = clamped
            last = index
        }
        return result
    }
}

/// A route measured for walking: the curves are cut into short chords whose cumulative lengths
/// are kept, once, when the sprite activates — never per frame. A cubic mode's spline is made
/// into Bézier segments first (a Catmull-Rom segment is the Bézier with control points
/// P_i + m_i / 3 and P_{i+1} − m_{i+1} / 3, where m_i = (P_{i+1} − P_{i−1}) / 2).
struct MeasuredPath: Sendable, Hashable {
    /// One chord: a parameter range of one segment, and the route's length at its end.
    struct Chord: Sendable, Hashable {
        let segment: Int
        let from: Double
        let to: Double
        let startPoint: Point
        let lengthAtEnd: Double
    }

    /// Chords per curve: enough that the arc length is right to about 1e-5 of a typical curve.
    static let chordsPerCurve = 256

    let start: Point
    let segments: [MotionPath.Segment]
    let chords: [Chord]
    let mode: MotionPath.CalculationMode
    /// Per point (start, then each segment's end).
    let keyTimes: [Double]
    /// Per segment.
    let curves: [TimingCurve]
    /// The route's length at the start of each segment, and at the end (one more than segments).
    let segmentLengths: [Double]

    init(_ path: MotionPath, start defaultStart: Point) {
        start = path.start ?? defaultStart
        mode = path.resolvedMode
        keyTimes = path.resolvedKeyTimes
        curves = path.segments.indices.map { $0 < path.curves.count ? path.curves[$0] ?? .linear : .linear }
        switch mode {
        case .cubic, .cubicPaced: segments = Self.catmullRom(through: [start] + path.segments.map(\.end))
        default: segments = path.segments
        }
        var chords: [Chord] = []
        var lengths: [Double] = [0]
        var length = 0.0
        var from = start
        for (index, segment) in segments.enumerated() {
            let pieces = if case .line = segment { 1 } else { Self.chordsPerCurve }
            var previous = from
            for piece in 1...pieces {
                let s = Double(piece) / Double(pieces)
                let point = Self.point(on: segment, from: from, at: s)
                length += ((point.x - previous.x) * (point.x - previous.x)
                    + (point.y - previous.y) * (point.y - previous.y)).squareRoot()
                chords.append(Chord(segment: index, from: Double(piece - 1) / Double(pieces), to: s,
                                    startPoint: previous, lengthAtEnd: length))
                previous = point
            }
            lengths.append(length)
            from = segment.end
        }
        self.chords = chords
        segmentLengths = lengths
    }

    /// The Bézier segments of the Catmull-Rom spline through `points`.
    static func catmullRom(through points: [Point]) -> [MotionPath.Segment] {
        guard points.count > 1 else { return [] }
        let last = points.count - 1
        func tangent(_ i: Int) -> Point {
            let before = points[max(i - 1, 0)], after = points[min(i + 1, last)]
            return Point(x: (after.x - before.x) / 2, y: (after.y - before.y) / 2)
        }
        return (0..<last).map { i in
            let m0 = tangent(i), m1 = tangent(i + 1)
            return .curve(to: points[i + 1], control1: Point(x: points[i].x + m0.x / 3, y: points[i].y + m0.y / 3),
                          control2: Point(x: points[i + 1].x - m1.x / 3, y: points[i + 1].y - m1.y / 3))
        }
    }

    /// The whole route's length.
    var length: Double { chords.last?.lengthAtEnd ?? 0 }

    /// Where the sprite is at pass progress `progress` (0…1) in the route's mode; `duration` is
    /// the pass's length in seconds, which a spring on a segment needs.
    func point(atProgress progress: Double, duration: Double) -> Point {
        switch mode {
        case .paced, .cubicPaced:
            return point(atFraction: progress)
        case .discrete, .linear, .cubic:
            guard let last = segments.last else { return start }
            if progress <= keyTimes[0] { return start }
            if progress >= keyTimes[segments.count] { return last.end }
            // The segment whose stretch of time holds `progress`: keyTimes[low] <= progress < keyTimes[low + 1].
            var low = 0, high = segments.count
            while high - low > 1 {
                let middle = (low + high) / 2
                if keyTimes[middle] <= progress { low = middle } else { high = middle }
            }
            let segmentStart = low > 0 ? segments[low - 1].end : start
            if mode == .discrete { return segmentStart }
            let span = keyTimes[low + 1] - keyTimes[low]
            let local = span > 0 ? (progress - keyTimes[low]) / span : 1
            let eased = curves[low].progress(at: local, duration: duration * span)
            if mode == .cubic { return Self.point(on: segments[low], from: segmentStart, at: eased) }
            let from = segmentLengths[low], to = segmentLengths[low + 1]
            return point(atLength: from + (to - from) * eased)
        }
    }

    /// The point `fraction` (0…1) of the way along the route by distance; the ends are exact.
    func point(atFraction fraction: Double) -> Point {
        guard let last = segments.last else { return start }
        if fraction <= 0 { return start }
        if fraction >= 1 { return last.end }
        return point(atLength: fraction * length)
    }

    /// The point `target` along the route by distance.
    private func point(atLength target: Double) -> Point {
        guard let last = segments.last else { return start }
        if target <= 0 { return start }
        if target >= length { return last.end }
        var low = 0, high = chords.count - 1
        while low < high {
            let middle = (low + high) / 2
            if chords[middle].lengthAtEnd < target { low = middle + 1 } else { high = middle }
        }
        let chord = chords[low]
        let lengthAtStart = low > 0 ? chords[low - 1].lengthAtEnd : 0
        let span = chord.lengthAtEnd - lengthAtStart
        let local = span > 0 ? (target - lengthAtStart) / span : 0
        var s = chord.from + (chord.to - chord.from) * local
        let segment = segments[chord.segment]
        let segmentStart = chord.segment > 0 ? segments[chord.segment - 1].end : start
        // The parameter's speed varies along a curve, so linear interpolation within a chord
        // drifts; two Newton steps on the distance from the chord's start correct it.
        let wanted = target - lengthAtStart
        for _ in 0..<2 {
            let point = Self.point(on: segment, from: segmentStart, at: s)
            let dx = point.x - chord.startPoint.x, dy = point.y - chord.startPoint.y
            let speed = Self.speed(on: segment, from: segmentStart, at: s)
            guard speed > 1e-12 else { break }
            s += (wanted - (dx * dx + dy * dy).squareRoot()) / speed
        }
        return Self.point(on: segment, from: segmentStart, at: min(max(s, chord.from), chord.to))
    }

    /// |dB/ds| of one segment at parameter `s`.
    static func speed(on segment: MotionPath.Segment, from: Point, at s: Double) -> Double {
        switch segment {
        case .line(let to):
            return ((to.x - from.x) * (to.x - from.x) + (to.y - from.y) * (to.y - from.y)).squareRoot()
        case .curve(let to, let c1, let c2):
            let r = 1 - s
            let a = 3 * r * r, b = 6 * r * s, c = 3 * s * s
            let dx = a * (c1.x - from.x) + b * (c2.x - c1.x) + c * (to.x - c2.x)
            let dy = a * (c1.y - from.y) + b * (c2.y - c1.y) + c * (to.y - c2.y)
            return (dx * dx + dy * dy).squareRoot()
        }
    }

    /// The point at parameter `s` (0…1) of one segment that begins at `from`.
    static func point(on segment: MotionPath.Segment, from: Point, at s: Double) -> Point {
        switch segment {
        case .line(let to):
            return Point(x: from.x + (to.x - from.x) * s, y: from.y + (to.y - from.y) * s)
        case .curve(let to, let c1, let c2):
            let r = 1 - s
            let a = r * r * r, b = 3 * r * r * s, c = 3 * r * s * s, d = s * s * s
            return Point(x: a * from.x + b * c1.x + c * c2.x + d * to.x,
                         y: a * from.y + b * c1.y + c * c2.y + d * to.y)
        }
    }
}
