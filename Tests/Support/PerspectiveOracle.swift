import Foundation
import ViewfinderCore

/// Where a layer turned in perspective puts its points, multiplied out from 4×4 matrices here,
/// independently of the renderer's homography; and a point's distance inside a quad, to read a
/// drawn quad back from pixels.
public enum PerspectiveOracle {
    public typealias Matrix = [[Double]]

    public static func multiply(_ a: Matrix, _ b: Matrix) -> Matrix {
        (0..<4).map { i in (0..<4).map { j in (0..<4).reduce(0) { $0 + a[i][$1] * b[$1][j] } } }
    }

    /// Where the layer puts bounds point (x, y): translate by −anchor, scale, Rx, Ry, Rz,
    /// translate, then the perspective row (w = 1 − z/d; d = .infinity: orthographic), divide,
    /// and add the position.
    public static func project(_ x: Double, _ y: Double, rotation: (Double, Double, Double), perspective d: Double,
                               anchor: (Double, Double), position: (Double, Double),
                               translation: (Double, Double, Double) = (0, 0, 0)) -> Point {
        let (a, b, c) = rotation
        let rx: Matrix = [[1, 0, 0, 0], [0, cos(a), -sin(a), 0], [0, sin(a), cos(a), 0], [0, 0, 0, 1]]
        let ry: Matrix = [[cos(b), 0, sin(b), 0], [0, 1, 0, 0], [-sin(b), 0, cos(b), 0], [0, 0, 0, 1]]
        let rz: Matrix = [[cos(c), -sin(c), 0, 0], [sin(c), cos(c), 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]
        let move: Matrix = [[1, 0, 0, translation.0], [0, 1, 0, translation.1], [0, 0, 1, translation.2], [0, 0, 0, 1]]
        let view: Matrix = [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, d.isFinite ? -1 / d : 0, 1]]
        let m = multiply(view, multiply(move, multiply(rz, multiply(ry, rx))))
        let v = [x - anchor.0, y - anchor.1, 0, 1]
        let out = m.map { row in zip(row, v).map(*).reduce(0, +) }
        return Point(x: position.0 + out[0] / out[3], y: position.1 + out[1] / out[3])
    }

    /// How far inside the convex quad `corners` (clockwise on a y-down screen) the point lies
    /// (negative: outside).
    public static func depth(_ p: Point, in corners: [Point]) -> Double {
        let signed = (0..<4).map { i -> Double in
            let a = corners[i], b = corners[(i + 1) % 4]
            let length = ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
            return ((b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)) / length
        }
        return signed.min() ?? 0
    }

    /// Pixels of an RGB picture (`width`×`height`, 3 bytes each) that contradict a `fill`
    /// coloured quad at `corners` on black: inside (more than `margin` in) not the fill, or
    /// outside (more than `margin` out) not black, as "(x, y) inside: r,g,b"; and how many
    /// pixels lay inside.
    public static func mismatches(rgb pixels: [UInt8], width: Int, height: Int, quad corners: [Point],
                                  fill: (Int, Int, Int), margin: Double = 1.5, tolerance: Int = 5) -> (wrong: [String], inside: Int) {
        var wrong: [String] = []
        var inside = 0
        for y in 0..<height {
            for x in 0..<width {
                let d = depth(Point(x: Double(x) + 0.5, y: Double(y) + 0.5), in: corners)
                let o = (y * width + x) * 3
                let (r, g, b) = (Int(pixels[o]), Int(pixels[o + 1]), Int(pixels[o + 2]))
                if d > margin {
                    inside += 1
                    if abs(r - fill.0) > tolerance || abs(g - fill.1) > tolerance || abs(b - fill.2) > tolerance {
                        wrong.append("(\(x), \(y)) inside: \(r),\(g),\(b)")
                    }
                } else if d < -margin, r > tolerance || g > tolerance || b > tolerance {
                    wrong.append("(\(x), \(y)) outside: \(r),\(g),\(b)")
                }
            }
        }
        return (wrong, inside)
    }
}
