import Foundation
import Motion
import Testing
import ViewfinderCore
import ViewfinderTestSupport

@testable import MotionRenderer

/// Perspective drawn for real: the corners of a turned layer land where a 4×4 perspective
/// transform, multiplied out here, projects them.
@Suite("Perspective")
struct LayerRendererPerspectiveTests {
    typealias Matrix = [[Double]]

    static func multiply(_ a: Matrix, _ b: Matrix) -> Matrix {
        (0..<4).map { i in (0..<4).map { j in (0..<4).reduce(0) { $0 + a[i][$1] * b[$1][j] } } }
    }

    /// Where the scene's layer puts bounds point (x, y): translate by −anchor, scale, Rx, Ry,
    /// Rz, translate, then the perspective row (w = 1 − z/d), divide, and add the position.
    static func project(_ x: Double, _ y: Double, rotation: (Double, Double, Double), perspective d: Double,
                        anchor: (Double, Double), position: (Double, Double), translation: (Double, Double, Double) = (0, 0, 0)) -> Point {
        let (a, b, c) = rotation
        let rx: Matrix = [[1, 0, 0, 0], [0, cos(a), -sin(a), 0], [0, sin(a), cos(a), 0], [0, 0, 0, 1]]
        let ry: Matrix = [[cos(b), 0, sin(b), 0], [0, 1, 0, 0], [-sin(b), 0, cos(b), 0], [0, 0, 0, 1]]
        let rz: Matrix = [[cos(c), -sin(c), 0, 0], [sin(c), cos(c), 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]
        let move: Matrix = [[1, 0, 0, translation.0], [0, 1, 0, translation.1], [0, 0, 1, translation.2], [0, 0, 0, 1]]
        let view: Matrix = [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, -1 / d, 1]]
        let m = multiply(view, multiply(move, multiply(rz, multiply(ry, rx))))
        let v = [x - anchor.0, y - anchor.1, 0, 1]
        let out = m.map { row in zip(row, v).map(*).reduce(0, +) }
        return Point(x: position.0 + out[0] / out[3], y: position.1 + out[1] / out[3])
    }

    /// How far inside the convex quad `corners` (in order) the point lies (negative: outside).
    static func depth(_ p: Point, in corners: [Point]) -> Double {
        let signed = (0..<4).map { i -> Double in
            let a = corners[i], b = corners[(i + 1) % 4]
            let length = ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
            return ((b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)) / length
        }
        // The corners run clockwise on a y-down screen, so inside is where every cross product is positive.
        return signed.min() ?? 0
    }

    @Test("a layer turned about y and x in perspective: its PNG matches the homography computed here")
    func turnedLayer() throws {
        let json = ##"""
        {"size": [320, 240], "background": "#000000", "layers": [{"name": "card", "position": [160, 120],
          "bounds": [0, 0, 120, 80], "backgroundColor": "#ff0000", "rotation": [0.3, 0.8, 0.1], "perspective": 300}]}
        """##
        let out = TestPaths.scratchFolder("perspective-png").appendingPathComponent("card.png")
        try SceneExport(scene: try Scene.parse(Data(json.utf8)), imageDirectory: TestPaths.repository, format: .png,
                        duration: 0).writeFrame(at: 0, to: out)
        let raw = try Subprocess.run("ffmpeg", ["-v", "error", "-i", out.path, "-f", "rawvideo", "-pix_fmt", "rgb24", "-"])
        let pixels = [UInt8](raw.stdoutData)
        try #require(pixels.count == 320 * 240 * 3)
        let corners = [(0.0, 0.0), (120.0, 0.0), (120.0, 80.0), (0.0, 80.0)].map {
            Self.project($0.0, $0.1, rotation: (0.3, 0.8, 0.1), perspective: 300, anchor: (60, 40), position: (160, 120))
        }
        // Really a perspective: the right edge (turned away) is shorter than the left.
        func length(_ a: Point, _ b: Point) -> Double { ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot() }
        #expect(length(corners[1], corners[2]) < 0.85 * length(corners[0], corners[3]))
        var wrong: [String] = []
        var inside = 0
        for y in 0..<240 {
            for x in 0..<320 {
                let d = Self.depth(Point(x: Double(x) + 0.5, y: Double(y) + 0.5), in: corners)
                let o = (y * 320 + x) * 3
                let (r, g, b) = (Int(pixels[o]), Int(pixels[o + 1]), Int(pixels[o + 2]))
                if d > 1.5 {
                    inside += 1
                    if r < 250 || g > 5 || b > 5 { wrong.append("(\(x), \(y)) inside: \(r),\(g),\(b)") }
                } else if d < -1.5, r > 5 || g > 5 || b > 5 {
                    wrong.append("(\(x), \(y)) outside: \(r),\(g),\(b)")
                }
            }
        }
        #expect(inside > 3000)
        #expect(wrong.isEmpty, "\(wrong.prefix(8))")
    }

    @Test("the renderer's homography agrees with the 4×4 transform at the corners, with translation and anchor")
    func homography() throws {
        var state = LayerState(position: Point(x: 100, y: 50), bounds: Rect(x: 10, y: 20, width: 60, height: 40))
        state.anchorPoint = Point(x: 0.25, y: 0.75)
        state.transform.rotation = Vector3(x: -0.5, y: 0.4, z: 0.2)
        state.transform.translation = Vector3(x: 5, y: -3, z: 20)
        state.transform.perspective = 250
        let mapping = try #require(LayerRenderer.homography(for: state))
        for (x, y) in [(10.0, 20.0), (70.0, 20.0), (70.0, 60.0), (10.0, 60.0), (40.0, 33.0)] {
            let want = Self.project(x - 10, y - 20, rotation: (-0.5, 0.4, 0.2), perspective: 250, anchor: (15, 30),
                                    position: (100, 50), translation: (5, -3, 20))
            let got = mapping.apply(to: Point(x: x, y: y)).point
            #expect(abs(got.x - want.x) < 1e-9 && abs(got.y - want.y) < 1e-9, "(\(x), \(y)): \(got) vs \(want)")
        }
        // No perspective, or a layer that stays in its plane: the affine transform is exact.
        state.transform.perspective = 0
        #expect(LayerRenderer.homography(for: state) == nil)
        #expect(LayerRenderer.homography(for: LayerState(position: .zero, bounds: Rect(x: 0, y: 0, width: 5, height: 5))) == nil)
    }
}
