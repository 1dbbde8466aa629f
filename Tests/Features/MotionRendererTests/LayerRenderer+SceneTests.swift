import Foundation
import Motion
import Testing
import ViewfinderCore
import ViewfinderTestSupport

@testable import MotionRenderer

@Suite("Layer renderer: the issue's scene")
struct LayerRendererSceneTests {
    static let json = exampleScene

    /// The part of `presentationJSON` the check needs.
    struct Presentation: Decodable {
        struct Values: Decodable {
            var position: [Double]
            var bounds: [Double]
            var opacity: Double
            var scale: [Double]
            var rotation: [Double]
            var translation: [Double]
        }
        var layers: [String: Values]
    }

    @Test("the box is drawn where presentationJSON says it is", arguments: [0, 0.25, 0.5, 1.0])
    func frames(_ t: Double) throws {
        let scene = try Scene.parse(Data(Self.json.utf8))
        let values = try #require(try JSONDecoder().decode(Presentation.self, from: Data(scene.presentationJSON(at: t).utf8))
            .layers["box"])
        let box = ExpectedBox(center: Point(x: values.position[0] + values.translation[0], y: values.position[1] + values.translation[1]),
                              size: Size(width: values.bounds[2], height: values.bounds[3]),
                              scaleX: values.scale[0], scaleY: values.scale[1], rotation: values.rotation[2])
        let red = RGB(byte(values.opacity), 0, 0)

        let size = PixelSize(width: Int(scene.size.width), height: Int(scene.size.height))
        let frame = try LayerRenderer().render(scene.makeLayerTree(), at: t, size: size, background: scene.background)
        let wrong = mismatches(in: frame, box: box, inside: red, outside: RGB(0, 0, 0))
        #expect(wrong.isEmpty, "t = \(t), \(values): \(wrong)")
        // The snapshot path draws the same frame.
        let snapshot = try LayerRenderer().render(scene.presentation(at: t), size: size, background: scene.background)
        #expect(snapshot == frame)
        // Something of the box is in view at every one of these times.
        #expect(frame.bytes.contains { $0 > 0 })
    }

    @Test("one tree rendered frame after frame matches fresh snapshots")
    func sequence() throws {
        let scene = try Scene.parse(Data(Self.json.utf8))
        let root = scene.makeLayerTree()
        let renderer = LayerRenderer()
        for t in stride(from: 0.0, through: 2.0, by: 0.2) {
            let live = try renderer.render(root, at: t, size: frameSize)
            let fresh = try LayerRenderer().render(scene.presentation(at: t), size: frameSize)
            #expect(live == fresh, "t = \(t)")
        }
    }
}
