import Foundation
import ViewfinderCore

/// A route for a layer's position made of straight lines and cubic Bézier curves, walked at an
/// even speed (by arc length, Core Animation's "paced" mode), so that "stop at 50 %" means half
/// of the distance.
public struct MotionPath: Sendable, Hashable {
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

    /// An empty route from `start` (nil: from the layer's position at activation).
    public init(from start: Point? = nil, segments: [Segment] = []) {
        self.start = start
        self.segments = segments
    }

    /// The route with a straight line to `point` added.
    public func line(to point: Point) -> MotionPath {
        var copy = self
        copy.segments.append(.line(to: point))
        return copy
    }

    /// The route with a cubic curve to `point` added.
    public func curve(to point: Point, control1: Point, control2: Point) -> MotionPath {
        var copy = self
        copy.segments.append(.curve(to: point, control1: control1, control2: control2))
        return copy
    }
}

/// A route measured for walking by distance: the curves are cut into short chords whose
/// cumulative lengths are kept, once, when the sprite activates — never per frame.
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

    init(_ path: MotionPath, start defaultStart: Point) {
        start = path.start ?? defaultStart
        segments = path.segments
        var chords: [Chord] = []
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
            from = segment.end
        }
        self.chords = chords
    }

    /// The whole route's length.
    var length: Double { chords.last?.lengthAtEnd ?? 0 }

    /// The point `fraction` (0…1) of the way along the route by distance; the ends are exact.
    func point(atFraction fraction: Double) -> Point {
        guard let last = segments.last else { return start }
        if fraction <= 0 { return start }
        if fraction >= 1 { return last.end }
        let target = fraction * length
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
