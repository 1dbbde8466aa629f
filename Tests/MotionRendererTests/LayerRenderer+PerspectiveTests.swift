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
}
