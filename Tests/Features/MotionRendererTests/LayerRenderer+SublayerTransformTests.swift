import Foundation
import Motion
import Testing
import ViewfinderCore
import ViewfinderTestSupport

@testable import MotionRenderer

@Suite("Layer renderer: sublayer transform")
struct LayerRendererSublayerTransformTests {
    static func parent(_ change: (inout LayerState) -> Void, child: LayerState) -> PresentedLayer {
        var state = LayerState(position: Point(x: 160, y: 120), bounds: Rect(x: 0, y: 0, width: 200, height: 200))
        change(&state)
        return PresentedLayer(name: "parent", state: state, sublayers: [PresentedLayer(name: "child", state: child)])
    }

    static var redChild: LayerState {
        var child = LayerState(position: Point(x: 150, y: 100), bounds: Rect(x: 0, y: 0, width: 20, height: 20))
        child.backgroundColor = .red
        return child
    }

    @Test("the sublayer transform turns the sublayers about the layer's anchor, not the layer itself")
    func turnsSublayers() throws {
        let turned = Self.parent({
            $0.sublayerTransform.rotation.z = .pi / 2
            $0.backgroundColor = RGBA(red: 0, green: 0, blue: 1, alpha: 1)
            $0.bounds = Rect(x: 0, y: 0, width: 200, height: 200)
        }, child: Self.redChild)
        let frame = try LayerRenderer().render(tree(turned), size: frameSize)
        // 50 right of the anchor, turned a quarter clockwise: 50 below it.
        #expect(frame[160, 170] == RGB(255, 0, 0) && frame[210, 120] == RGB(0, 0, 255))
        // The layer's own background is not turned: its corner stays where it was.
        #expect(frame[62, 22] == RGB(0, 0, 255))
    }

    @Test("a sublayer perspective is the viewer of the sublayers, about the layer's anchor, zPosition adding depth")
    func viewer() throws {
        var child = Self.redChild
        child.transform.rotation.y = 0.6
        child.zPosition = 10
        let viewer = LayerRenderer.Viewer(center: Point(x: 100, y: 100), distance: 300)
        let mapping = try #require(LayerRenderer.homography(for: child, viewer: viewer))
        for (x, y) in [(0.0, 0.0), (20.0, 0.0), (20.0, 20.0), (0.0, 20.0)] {
            // Relative to the anchor (10, 10), turned about y, placed at the position and zPosition.
            let (u, v) = (x - 10, y - 10)
            let (X, Y, Z) = (150 + cos(0.6) * u, 100 + v, 10 - sin(0.6) * u)
            let w = 1 - Z / 300
            let want = Point(x: 100 + (X - 100) / w, y: 100 + (Y - 100) / w)
            let got = mapping.apply(to: Point(x: x, y: y)).point
            #expect(abs(got.x - want.x) < 1e-9 && abs(got.y - want.y) < 1e-9, "\(got) vs \(want)")
        }
        // Drawn: a larger child's near (left) edge is taller than its far (right) edge, by what
        // the mapping says.
        var card = child
        card.bounds = Rect(x: 0, y: 0, width: 80, height: 80)
        card.position = Point(x: 100, y: 100)
        card.transform.rotation.y = 0.9
        let frame = try LayerRenderer().render(tree(Self.parent({ $0.sublayerTransform.perspective = 200 }, child: card)), size: frameSize)
        let cardMapping = try #require(LayerRenderer.homography(for: card, viewer: LayerRenderer.Viewer(center: Point(x: 100, y: 100), distance: 200)))
        func redRun(x: Int) -> Int { (0..<240).count { frame[x, $0] == RGB(255, 0, 0) } }
        func height(at u: Double) -> Double { cardMapping.apply(to: Point(x: u, y: 80)).point.y - cardMapping.apply(to: Point(x: u, y: 0)).point.y }
        for u in [4.0, 76.0] {
            let x = Int((cardMapping.apply(to: Point(x: u, y: 40)).point.x + 60).rounded(.down))
            #expect(abs(Double(redRun(x: x)) - height(at: u)) <= 2.5, "at u = \(u): \(redRun(x: x)) vs \(height(at: u))")
        }
        #expect(height(at: 4) > height(at: 76) + 10)
    }

    @Test("scenes and Swift: sublayerScale, sublayerRotation, sublayerTranslation and sublayerPerspective animate")
    func animated() throws {
        let scene = try Scene.parse(Data(#"{"size": [10, 10], "layers": [{"sublayerPerspective": 300, "sprites": [{"kind": "sublayerRotation", "to": [0, 1, 0], "duration": 1}, {"kind": "sublayerScale", "to": [2, 2], "duration": 1}]}]}"#.utf8))
        let json = scene.presentationJSON(at: 0.5)
        #expect(json.contains(#""sublayerRotation": [0, 0.5, 0]"#) && json.contains(#""sublayerScale": [1.5, 1.5, 1]"#)
                && json.contains(#""sublayerPerspective": 300"#), "\(json)")
        let layer = Layer(name: "l")
        layer.clock = VirtualClock(startingAt: 0)
        layer.motion.sublayer.translation.to(Vector3(x: 10, y: 0, z: 0)).duration(1).activate()
        #expect(layer.presentation(at: 0.5).sublayerTransform.translation == Vector3(x: 5, y: 0, z: 0))
    }
}
