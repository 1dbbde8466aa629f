import Foundation
import ViewfinderCore

/// A projective mapping of the plane, (x, y) → ((m0·x + m1·y + m2) / w, (m3·x + m4·y + m5) / w)
/// with w = m6·x + m7·y + m8: what a flat layer seen in perspective becomes on screen.
public struct Homography: Sendable, Hashable {
    /// The 3×3 matrix, row by row.
    public var m: [Double]

    /// A mapping from its nine entries, row by row.
    public init(_ m: [Double]) {
        precondition(m.count == 9, "a homography has nine entries")
        self.m = m
    }

    /// The mapping that leaves every point where it is.
    public static let identity = Homography([1, 0, 0, 0, 1, 0, 0, 0, 1])

    /// This mapping after `first`: the point goes through `first`, then through this.
    public func concatenating(_ first: Homography) -> Homography {
        var r = [Double](repeating: 0, count: 9)
        for row in 0..<3 {
            for column in 0..<3 {
                r[row * 3 + column] = (0..<3).reduce(0) { $0 + m[row * 3 + $1] * first.m[$1 * 3 + column] }
            }
        }
        return Homography(r)
    }

    /// The mapped point and its w (a point with w ≤ 0 is behind the viewer).
    public func apply(to p: Point) -> (point: Point, w: Double) {
        let w = m[6] * p.x + m[7] * p.y + m[8]
        return (Point(x: (m[0] * p.x + m[1] * p.y + m[2]) / w, y: (m[3] * p.x + m[4] * p.y + m[5]) / w), w)
    }

    /// The inverse mapping, or nil when it has none.
    public var inverted: Homography? {
        let a = m
        let c0 = a[4] * a[8] - a[5] * a[7], c1 = a[5] * a[6] - a[3] * a[8], c2 = a[3] * a[7] - a[4] * a[6]
        let det = a[0] * c0 + a[1] * c1 + a[2] * c2
        guard det.isFinite, abs(det) > 1e-12 else { return nil }
        let inv = [c0, a[2] * a[7] - a[1] * a[8], a[1] * a[5] - a[2] * a[4],
                   c1, a[0] * a[8] - a[2] * a[6], a[2] * a[3] - a[0] * a[5],
                   c2, a[1] * a[6] - a[0] * a[7], a[0] * a[4] - a[1] * a[3]]
        return Homography(inv.map { $0 / det })
    }
}
