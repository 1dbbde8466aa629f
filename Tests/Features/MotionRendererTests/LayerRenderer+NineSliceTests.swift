import Foundation
import Imaging
import Motion
import Testing
import ViewfinderCore
import ViewfinderTestSupport

@testable import MotionRenderer

@Suite("Layer renderer: nine-slice, contents scale and minification filter")
struct LayerRendererNineSliceTests {
    /// 30×30: 10×10 red corners, green edges, a blue centre.
    static let frame: PixelBuffer = {
        var picture = PixelBuffer(width: 30, height: 30)
        picture.fill(x: 0, y: 0, width: 30, height: 30, with: RGB(0, 255, 0))
        for (x, y) in [(0, 0), (20, 0), (0, 20), (20, 20)] { picture.fill(x: x, y: y, width: 10, height: 10, with: RGB(255, 0, 0)) }
        picture.fill(x: 10, y: 10, width: 10, height: 10, with: RGB(0, 0, 255))
        return picture
    }()

    func render(_ change: (inout LayerState) -> Void) throws -> PixelBuffer {
        var state = LayerState(position: Point(x: 160, y: 120), bounds: Rect(x: 0, y: 0, width: 90, height: 60))
        state.contents = "frame"
        change(&state)
        let renderer = LayerRenderer()
        try renderer.setImage(RasterImage(Self.frame), for: "frame")
        return try renderer.render(tree(PresentedLayer(name: "panel", state: state)), size: frameSize)
    }

    @Test("contentsCenter keeps the corners at their size and stretches edges one way, the centre both")
    func nineSlice() throws {
        let third = 1.0 / 3
        let frame = try render { $0.contentsCenter = Rect(x: third, y: third, width: third, height: third) }
        // The layer covers x 115…205, y 90…150; corners 10 points, edges and centre stretched.
        let expected: [(Int, Int, RGB)] = [
            (120, 95, RGB(255, 0, 0)), (200, 95, RGB(255, 0, 0)), (120, 145, RGB(255, 0, 0)), (200, 145, RGB(255, 0, 0)),
            (160, 95, RGB(0, 255, 0)), (160, 145, RGB(0, 255, 0)), (120, 120, RGB(0, 255, 0)), (200, 120, RGB(0, 255, 0)),
            (127, 102, RGB(0, 0, 255)), (193, 138, RGB(0, 0, 255)), (160, 120, RGB(0, 0, 255)),
        ]
        for (x, y, colour) in expected { #expect(frame[x, y] == colour, "(\(x), \(y)): \(frame[x, y])") }
        // Stretched whole (the default), the red corner would be 30 × 20 points.
        let whole = try render { _ in }
        #expect(whole[135, 95] == RGB(255, 0, 0) && frame[135, 95] == RGB(0, 255, 0))
    }

    @Test("contentsScale 2: the corners' 10 pixels are 5 points")
    func contentsScale() throws {
        let third = 1.0 / 3
        let frame = try render {
            $0.contentsCenter = Rect(x: third, y: third, width: third, height: third)
            $0.contentsScale = 2
        }
        #expect(frame[117, 92] == RGB(255, 0, 0))
        #expect(frame[123, 92] == RGB(0, 255, 0) && frame[117, 98] == RGB(0, 255, 0))
        #expect(frame[123, 98] == RGB(0, 0, 255))
    }

    @Test("nearest minification keeps a shrunk checkerboard's pixels pure; linear averages them")
    func minification() throws {
        var checker = PixelBuffer(width: 64, height: 64)
        for y in 0..<64 { for x in 0..<64 where (x + y) % 2 == 0 { checker.fill(x: x, y: y, width: 1, height: 1, with: RGB(255, 255, 255)) } }
        func draw(_ filter: MinificationFilter) throws -> RGB {
            var state = LayerState(position: Point(x: 160, y: 120), bounds: Rect(x: 0, y: 0, width: 16, height: 16))
            state.contents = "checker"
            state.minificationFilter = filter
            let renderer = LayerRenderer()
            try renderer.setImage(RasterImage(checker), for: "checker")
            return try renderer.render(tree(PresentedLayer(name: "c", state: state)), size: frameSize)[160, 120]
        }
        let linear = try draw(.linear), nearest = try draw(.nearest)
        #expect((100...155).contains(Int(linear.r)), "\(linear)")
        #expect(nearest.r == 0 || nearest.r == 255, "\(nearest)")
    }

    @Test("scenes: contentsCenter, contentsScale and minificationFilter are layer keys, listed in the JSON")
    func scene() throws {
        let scene = try Scene.parse(Data(#"{"size": [10, 10], "layers": [{"contentsCenter": [0.25, 0.25, 0.5, 0.5], "contentsScale": 2, "minificationFilter": "nearest", "sprites": [{"kind": "contentsScale", "to": 3}]}]}"#.utf8))
        #expect(scene.layers[0].model.contentsCenter == Rect(x: 0.25, y: 0.25, width: 0.5, height: 0.5))
        #expect(scene.layers[0].model.minificationFilter == .nearest)
        let json = scene.presentationJSON(at: 0.125)
        #expect(json.contains(#""contentsScale": 2.5"#) && json.contains(#""minificationFilter": "nearest""#), "\(json)")
        #expect(throws: SceneError.self) { try Scene.parse(Data(#"{"size": [10, 10], "layers": [{"minificationFilter": "blurry"}]}"#.utf8)) }
    }
}
