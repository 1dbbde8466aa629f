import Foundation
import Motion
import Testing
import ViewfinderCore

@testable import MotionRenderer

@Suite("Layer renderer")
struct LayerRendererTests {
    @Test("a red box at (160, 120) fills its bounds, turned by its z rotation", arguments: [0, Double.pi / 6, Double.pi / 4, 1.0])
    func rotatedBox(_ angle: Double) throws {
        let frame = try LayerRenderer().render(tree(redBox { $0.transform.rotation.z = angle }), size: frameSize)
        let box = ExpectedBox(center: Point(x: 160, y: 120), size: Size(width: 100, height: 100), rotation: angle)
        let wrong = mismatches(in: frame, box: box, inside: RGB(255, 0, 0), outside: RGB(0, 0, 0))
        #expect(wrong.isEmpty, "\(wrong)")
        // The unturned square's corner is outside the turned one, and the diamond's tip beyond it.
        if angle == .pi / 4 {
            #expect(frame[112, 72] == RGB(0, 0, 0))
            #expect(frame[225, 120] == RGB(255, 0, 0))
        } else if angle == 0 {
            #expect(frame[112, 72] == RGB(255, 0, 0))
            #expect(frame[225, 120] == RGB(0, 0, 0))
        }
    }

    @Test("opacity 0.5 draws at half intensity")
    func halfOpacity() throws {
        let frame = try LayerRenderer().render(tree(redBox { $0.opacity = 0.5 }), size: frameSize)
        let box = ExpectedBox(center: Point(x: 160, y: 120), size: Size(width: 100, height: 100))
        #expect(mismatches(in: frame, box: box, inside: RGB(128, 0, 0), outside: RGB(0, 0, 0), tolerance: 1).isEmpty)
    }

    @Test("opacity applies to a layer and its sublayers as one group")
    func groupOpacity() throws {
        var parent = redBox { $0.opacity = 0.5 }
        var child = LayerState(position: Point(x: 75, y: 50), bounds: Rect(x: 0, y: 0, width: 50, height: 100))
        child.backgroundColor = .green
        parent.sublayers = [PresentedLayer(name: "child", state: child)]
        let frame = try LayerRenderer().render(tree(parent), size: frameSize)
        #expect(frame[130, 120] == RGB(128, 0, 0))
        // Not (64, 128, 0): the red beneath does not show through the green.
        #expect(frame[190, 120] == RGB(0, 128, 0), "\(frame[190, 120])")
    }

    @Test("sublayers sit in their superlayer's bounds coordinates and draw in zPosition order")
    func sublayerOrder() throws {
        func square(_ name: String, x: Double, color: RGBA, z: Double) -> PresentedLayer {
            var state = LayerState(position: Point(x: x, y: 50), bounds: Rect(x: 0, y: 0, width: 40, height: 40))
            state.backgroundColor = color
            state.zPosition = z
            return PresentedLayer(name: name, state: state)
        }
        var container = PresentedLayer(name: "c", state: LayerState(position: Point(x: 160, y: 120),
                                                                    bounds: Rect(x: 10, y: 0, width: 100, height: 100)))
        // The container's bounds start at x = 10, so its sublayers sit 10 further left.
        // The container's frame starts at x = 110 and its bounds at x = 10, so a sublayer spanning
        // 20…60 of the bounds covers x 120…160 on screen: a 120…160, b 150…190, c 180…220.
        container.sublayers = [square("a", x: 40, color: .red, z: 1), square("b", x: 70, color: .green, z: 0),
                               square("c", x: 100, color: .blue, z: 0)]
        let frame = try LayerRenderer().render(tree(container), size: frameSize)
        #expect(frame[118, 120] == RGB(0, 0, 0))
        #expect(frame[122, 120] == RGB(255, 0, 0), "the bounds origin shifts the sublayers")
        #expect(frame[155, 120] == RGB(255, 0, 0), "a is over b: higher zPosition, though added first")
        #expect(frame[165, 120] == RGB(0, 255, 0))
        #expect(frame[185, 120] == RGB(0, 0, 255), "c is over b: same zPosition, added later")
        #expect(frame[218, 120] == RGB(0, 0, 255))
        #expect(frame[222, 120] == RGB(0, 0, 0))
    }

    @Test("rounded corners leave the corner pixel background and keep the arc filled")
    func roundedCorners() throws {
        let frame = try LayerRenderer().render(tree(redBox { $0.cornerRadius = 20 }), size: frameSize)
        #expect(frame[110, 70] == RGB(0, 0, 0))
        #expect(frame[209, 169] == RGB(0, 0, 0))
        #expect(frame[113, 73] == RGB(0, 0, 0), "√2·20 − 20 ≈ 8.3 px of the diagonal is outside the arc")
        #expect(frame[160, 70] == RGB(255, 0, 0))
        #expect(frame[110, 120] == RGB(255, 0, 0))
        #expect(frame[120, 80] == RGB(255, 0, 0), "inside the arc about (130, 90)")
    }

    @Test("a border of width 4 colours the edge pixels inside the bounds, over the sublayers")
    func border() throws {
        var box = redBox {
            $0.borderWidth = 4
            $0.borderColor = .blue
        }
        var child = LayerState(position: Point(x: 0, y: 50), bounds: Rect(x: 0, y: 0, width: 20, height: 20))
        child.backgroundColor = .green
        box.sublayers = [PresentedLayer(name: "child", state: child)]
        let frame = try LayerRenderer().render(tree(box), size: frameSize)
        for x in 110..<114 { #expect(frame[x, 150] == RGB(0, 0, 255), "left edge at \(x)") }
        for x in 206..<210 { #expect(frame[x, 120] == RGB(0, 0, 255), "right edge at \(x)") }
        for y in 70..<74 { #expect(frame[160, y] == RGB(0, 0, 255), "top edge at \(y)") }
        #expect(frame[114, 150] == RGB(255, 0, 0))
        #expect(frame[109, 150] == RGB(0, 0, 0))
        #expect(frame[111, 120] == RGB(0, 0, 255), "the border covers the sublayer")
        #expect(frame[116, 120] == RGB(0, 255, 0))
        #expect(frame[105, 120] == RGB(0, 255, 0), "sublayers are not clipped to the bounds")
    }

    @Test("a shadow darkens the pixels beside the box with a falloff, on the side of its offset")
    func shadow() throws {
        let box = redBox {
            $0.shadowOpacity = 1
            $0.shadowRadius = 5
            $0.shadowOffset = Point(x: 10, y: 10)
        }
        let frame = try LayerRenderer().render(tree(box), size: frameSize, background: .white)
        // Right of the box the shadow's edge is at x = 220; row 140 is well inside its rows 80…180.
        let row = (211...240).map { Int(frame[$0, 140].g) }
        for (a, b) in zip(row, row.dropFirst()) { #expect(a <= b, "falls off: \(row)") }
        #expect(row.first! < 20, "dark next to the box: \(row)")
        #expect(row.last! == 255, "gone 20 px past the edge: \(row)")
        // Half-dark at the shadow's edge; d px inside it, a Gaussian of σ = 5 leaves ½·erfc(d / σ√2) light.
        #expect(abs(Int(frame[220, 140].g) - 128) < 20, "\(frame[220, 140])")
        let light = 255 * 0.5 * erfc(5.5 / (5 * 2.0.squareRoot()))
        #expect(abs(Double(frame[214, 140].g) - light) < 20, "\(frame[214, 140]) vs \(light)")
        #expect(frame[160, 120] == RGB(255, 0, 0), "the box is drawn over its shadow")
        #expect(frame[160, 66].g > frame[160, 174].g, "less shadow above than below")
    }

    @Test("the RGBA variant keeps transparency and un-premultiplies the colour")
    func rgba() throws {
        let image = try LayerRenderer().renderRGBA(tree(redBox { $0.opacity = 0.5 }), size: frameSize)
        #expect(image.channels == 4)
        #expect(Array(image[10, 10]) == [0, 0, 0, 0])
        let inside = Array(image[160, 120])
        #expect(inside[0] >= 253 && inside[1] == 0 && abs(Int(inside[3]) - 128) <= 1, "\(inside)")
    }

    @Test("the canvas is reused between frames and nothing of the last frame remains")
    func reuse() throws {
        let renderer = LayerRenderer()
        let first = try renderer.render(tree(redBox()), size: frameSize)
        let empty = try renderer.render(tree(), size: frameSize, background: .blue)
        #expect(empty == PixelBuffer(width: 320, height: 240, fill: RGB(0, 0, 255)))
        let again = try renderer.render(tree(redBox()), size: frameSize)
        #expect(again == first)
        let small = try renderer.render(tree(redBox()), size: PixelSize(width: 200, height: 100))
        #expect(small.size == PixelSize(width: 200, height: 100))
        #expect(small[150, 80] == RGB(255, 0, 0))
    }

    @Test("the scene's size in points is stretched over the frame's pixels")
    func sceneSize() throws {
        let frame = try LayerRenderer().render(tree(redBox()), sceneSize: Size(width: 320, height: 240),
                                               size: PixelSize(width: 640, height: 360))
        let box = ExpectedBox(center: Point(x: 320, y: 180), size: Size(width: 100, height: 100), scaleX: 2, scaleY: 1.5)
        let wrong = mismatches(in: frame, box: box, inside: RGB(255, 0, 0), outside: RGB(0, 0, 0))
        #expect(wrong.isEmpty, "\(wrong)")
    }

    @Test("fully transparent layers and collapsed transforms draw nothing")
    func invisible() throws {
        let renderer = LayerRenderer()
        let black = PixelBuffer(width: 320, height: 240)
        #expect(try renderer.render(tree(redBox { $0.opacity = 0 }), size: frameSize) == black)
        #expect(try renderer.render(tree(redBox { $0.transform.scale.x = 0 }), size: frameSize) == black)
        #expect(try renderer.render(tree(redBox { $0.transform.rotation.y = .pi / 2 }), size: frameSize) == black)
    }

    @Test("an empty or huge frame size is refused with a readable error")
    func invalidSize() {
        #expect(throws: MotionRendererError.invalidSize(PixelSize(width: 0, height: 240))) {
            try LayerRenderer().render(tree(), size: PixelSize(width: 0, height: 240))
        }
        #expect(MotionRendererError.invalidSize(PixelSize(width: 0, height: 240)).description.contains("0×240"))
    }
}
