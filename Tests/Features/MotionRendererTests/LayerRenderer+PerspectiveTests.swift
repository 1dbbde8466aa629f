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
    /// Frame 0 of a 320×240 scene, written as a PNG and read back as RGB by the ffmpeg CLI.
    static func frameZero(of json: String, in folder: String) throws -> [UInt8] {
        let out = TestPaths.scratchFolder(folder).appendingPathComponent("card.png")
        try SceneExport(scene: try Scene.parse(Data(json.utf8)), imageDirectory: TestPaths.repository, format: .png,
                        duration: 0).writeFrame(at: 0, to: out)
        let raw = try Subprocess.run("ffmpeg", ["-v", "error", "-i", out.path, "-f", "rawvideo", "-pix_fmt", "rgb24", "-"])
        let pixels = [UInt8](raw.stdoutData)
        try #require(pixels.count == 320 * 240 * 3)
        return pixels
    }

    @Test("a layer turned about y and x in perspective: its PNG matches the homography computed here")
    func turnedLayer() throws {
        let json = ##"""
        {"size": [320, 240], "background": "#000000", "layers": [{"name": "card", "position": [160, 120],
          "bounds": [0, 0, 120, 80], "backgroundColor": "#ff0000", "rotation": [0.3, 0.8, 0.1], "perspective": 300}]}
        """##
        let pixels = try Self.frameZero(of: json, in: "perspective-png")
        let corners = [(0.0, 0.0), (120.0, 0.0), (120.0, 80.0), (0.0, 80.0)].map {
            PerspectiveOracle.project($0.0, $0.1, rotation: (0.3, 0.8, 0.1), perspective: 300, anchor: (60, 40), position: (160, 120))
        }
        // Really a perspective: the right edge (turned away) is shorter than the left.
        func length(_ a: Point, _ b: Point) -> Double { ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot() }
        #expect(length(corners[1], corners[2]) < 0.85 * length(corners[0], corners[3]))
        let (wrong, inside) = PerspectiveOracle.mismatches(rgb: pixels, width: 320, height: 240, quad: corners, fill: (255, 0, 0))
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
            let want = PerspectiveOracle.project(x - 10, y - 20, rotation: (-0.5, 0.4, 0.2), perspective: 250, anchor: (15, 30),
                                    position: (100, 50), translation: (5, -3, 20))
            let got = mapping.apply(to: Point(x: x, y: y)).point
            #expect(abs(got.x - want.x) < 1e-9 && abs(got.y - want.y) < 1e-9, "(\(x), \(y)): \(got) vs \(want)")
        }
        // No perspective, or a layer that stays in its plane: the affine transform is exact.
        state.transform.perspective = 0
        #expect(LayerRenderer.homography(for: state) == nil)
        #expect(LayerRenderer.homography(for: LayerState(position: .zero, bounds: Rect(x: 0, y: 0, width: 5, height: 5))) == nil)
    }

    @Test("a turned layer's shadow lies in the layer's plane: where the homography puts the offset bounds, blurred only slightly")
    func turnedShadow() throws {
        // A white shadow moved 40 points down, so most of it shows below the red card; the
        // card turned about x and y in perspective. Core Animation draws the shadow as part of
        // the layer, so it turns with it: its corners are the projection of the offset bounds.
        let json = ##"""
        {"size": [320, 240], "background": "#000000", "layers": [{"name": "card", "position": [160, 100],
          "bounds": [0, 0, 120, 80], "backgroundColor": "#ff0000", "rotation": [0.5, 0.6, 0], "perspective": 300,
          "shadowColor": "#ffffff", "shadowOpacity": 1, "shadowRadius": 1, "shadowOffset": [0, 40]}]}
        """##
        let pixels = try Self.frameZero(of: json, in: "perspective-shadow")
        func quad(_ dy: Double) -> [Point] {
            [(0.0, dy), (120.0, dy), (120.0, 80 + dy), (0.0, 80 + dy)].map {
                PerspectiveOracle.project($0.0, $0.1, rotation: (0.5, 0.6, 0), perspective: 300, anchor: (60, 40), position: (160, 100))
            }
        }
        let card = quad(0), shadow = quad(40)
        // The blur (σ = 1 point, a little more where the plane comes nearer) reaches about 4
        // pixels; beyond that margin each pixel is the shadow's white, the card's red or black.
        var white = 0, black = 0, wrong: [String] = []
        for y in 0..<240 {
            for x in 0..<320 {
                let p = Point(x: Double(x) + 0.5, y: Double(y) + 0.5)
                let inCard = PerspectiveOracle.depth(p, in: card), inShadow = PerspectiveOracle.depth(p, in: shadow)
                let o = (y * 320 + x) * 3
                let (r, g, b) = (Int(pixels[o]), Int(pixels[o + 1]), Int(pixels[o + 2]))
                if inCard < -6, inShadow > 6 {
                    white += 1
                    if r < 245 || g < 245 || b < 245 { wrong.append("(\(x), \(y)) in the shadow: \(r),\(g),\(b)") }
                } else if inCard < -6, inShadow < -6 {
                    black += 1
                    if r > 8 || g > 8 || b > 8 { wrong.append("(\(x), \(y)) outside: \(r),\(g),\(b)") }
                }
            }
        }
        #expect(white > 1500, "the shadow shows below the card")
        #expect(black > 30000)
        #expect(wrong.isEmpty, "\(wrong.count) pixels wrong: \(wrong.prefix(6))")
    }
}
