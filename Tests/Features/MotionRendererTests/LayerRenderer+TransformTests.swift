import Foundation
import Imaging
import Motion
import Testing
import ViewfinderCore

@testable import MotionRenderer

@Suite("Layer renderer: transforms")
struct LayerRendererTransformTests {
    static func state(_ change: (inout LayerState) -> Void = { _ in }) -> LayerState {
        var state = LayerState(position: Point(x: 160, y: 120), bounds: Rect(x: 0, y: 0, width: 100, height: 100))
        change(&state)
        return state
    }

    func expectPoint(_ p: Point, _ x: Double, _ y: Double, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(abs(p.x - x) < 1e-9 && abs(p.y - y) < 1e-9, "\(p) instead of (\(x), \(y))", sourceLocation: sourceLocation)
    }

    @Test("position, anchor point and bounds origin place the layer")
    func placement() {
        let plain = LayerRenderer.affineTransform(for: Self.state())
        expectPoint(plain.apply(to: Point(x: 0, y: 0)), 110, 70)
        expectPoint(plain.apply(to: Point(x: 100, y: 100)), 210, 170)
        let corner = LayerRenderer.affineTransform(for: Self.state { $0.anchorPoint = .zero })
        expectPoint(corner.apply(to: Point(x: 0, y: 0)), 160, 120)
        let shifted = LayerRenderer.affineTransform(for: Self.state { $0.bounds.origin = Point(x: 20, y: -10) })
        expectPoint(shifted.apply(to: Point(x: 20, y: -10)), 110, 70)
    }

    @Test("rotation z turns clockwise about the anchor; scale and translation follow Core Animation's order")
    func rotateScaleTranslate() {
        let turned = LayerRenderer.affineTransform(for: Self.state { $0.transform.rotation.z = .pi / 2 })
        expectPoint(turned.apply(to: Point(x: 100, y: 50)), 160, 170)
        let all = LayerRenderer.affineTransform(for: Self.state {
            $0.transform.rotation.z = .pi / 2
            $0.transform.scale = Vector3(x: 2, y: 3, z: 1)
            $0.transform.translation = Vector3(x: 5, y: 7, z: 100)
        })
        // Scale (50 → 100 right of the anchor), turn (→ 100 below), then translate in the superlayer.
        expectPoint(all.apply(to: Point(x: 100, y: 50)), 165, 227)
        expectPoint(all.apply(to: Point(x: 50, y: 100)), 160 + 5 - 150, 127)
    }

    @Test("x and y rotations foreshorten as an orthographic view of the 3D transform; perspective is ignored")
    func orthographic() {
        let aboutY = LayerRenderer.affineTransform(for: Self.state { $0.transform.rotation.y = .pi / 3 })
        expectPoint(aboutY.apply(to: Point(x: 0, y: 50)), 135, 120)
        expectPoint(aboutY.apply(to: Point(x: 50, y: 0)), 160, 70)
        let aboutX = LayerRenderer.affineTransform(for: Self.state { $0.transform.rotation.x = .pi / 3 })
        expectPoint(aboutX.apply(to: Point(x: 50, y: 0)), 160, 95)

        // Both at once, against a 3D rotation multiplied out here and projected by dropping z.
        let (rx, ry, rz) = (0.7, -0.4, 1.1)
        func multiply(_ m: [[Double]], _ v: [Double]) -> [Double] { m.map { row in zip(row, v).map(*).reduce(0, +) } }
        let mx = [[1, 0, 0], [0, cos(rx), -sin(rx)], [0, sin(rx), cos(rx)]]
        let my = [[cos(ry), 0, sin(ry)], [0, 1, 0], [-sin(ry), 0, cos(ry)]]
        let mz = [[cos(rz), -sin(rz), 0], [sin(rz), cos(rz), 0], [0, 0, 1]]
        let state = Self.state {
            $0.transform.rotation = Vector3(x: rx, y: ry, z: rz)
            $0.transform.scale = Vector3(x: 1.5, y: 0.5, z: 1)
            $0.transform.perspective = 500
        }
        let transform = LayerRenderer.affineTransform(for: state)
        for point in [Point(x: 0, y: 0), Point(x: 100, y: 30), Point(x: 20, y: 90)] {
            let local = [(point.x - 50) * 1.5, (point.y - 50) * 0.5, 0]
            let projected = multiply(mz, multiply(my, multiply(mx, local)))
            expectPoint(transform.apply(to: point), 160 + projected[0], 120 + projected[1])
        }
    }

    @Test("a layer turned about y is drawn cos θ as wide")
    func foreshortenedFrame() throws {
        let box = PresentedLayer(name: "box", state: Self.state {
            $0.backgroundColor = .red
            $0.transform.rotation.y = .pi / 3
        })
        let frame = try LayerRenderer().render(tree(box), size: frameSize)
        let expected = ExpectedBox(center: Point(x: 160, y: 120), size: Size(width: 50, height: 100))
        let wrong = mismatches(in: frame, box: expected, inside: RGB(255, 0, 0), outside: RGB(0, 0, 0))
        #expect(wrong.isEmpty, "\(wrong)")
    }
}
