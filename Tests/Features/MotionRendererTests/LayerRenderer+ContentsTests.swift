import Foundation
import Imaging
import Motion
import Testing
import ViewfinderCore
import ViewfinderTestSupport

@testable import MotionRenderer

@Suite("Layer renderer: contents")
struct LayerRendererContentsTests {
    /// 8×8 in four flat quadrants: red, green / blue, white.
    static let quadrants: PixelBuffer = {
        var picture = PixelBuffer(width: 8, height: 8)
        picture.fill(x: 0, y: 0, width: 4, height: 4, with: RGB(255, 0, 0))
        picture.fill(x: 4, y: 0, width: 4, height: 4, with: RGB(0, 255, 0))
        picture.fill(x: 0, y: 4, width: 4, height: 4, with: RGB(0, 0, 255))
        picture.fill(x: 4, y: 4, width: 4, height: 4, with: RGB(255, 255, 255))
        return picture
    }()

    static func writeQuadrants() throws -> URL {
        let url = TestPaths.scratchFolder("contents").appendingPathComponent("quadrants.png")
        try ImageEncoder.write(quadrants, to: url)
        return url
    }

    static func pictureBox(_ change: (inout LayerState) -> Void) -> PresentedLayer {
        var state = LayerState(position: Point(x: 160, y: 120), bounds: Rect(x: 0, y: 0, width: 100, height: 100))
        change(&state)
        return PresentedLayer(name: "picture", state: state)
    }

    @Test("a PNG named by contents is stretched over the bounds")
    func pngContents() throws {
        let url = try Self.writeQuadrants()
        let layer = Self.pictureBox { $0.contents = ImageReference(url.path) }
        let frame = try LayerRenderer().render(tree(layer), size: frameSize)
        let quadrant = { (x: Int, y: Int) -> RGB? in
            let (u, v) = (Double(x) + 0.5 - 110, Double(y) + 0.5 - 70)
            // Away from the edges and from the seams, where filtering mixes neighbours.
            guard u > 1.5, u < 98.5, v > 1.5, v < 98.5, abs(u - 50) > 8, abs(v - 50) > 8 else {
                return u < -1.5 || u > 101.5 || v < -1.5 || v > 101.5 ? RGB(0, 0, 0) : nil
            }
            return Self.quadrants[u < 50 ? 0 : 7, v < 50 ? 0 : 7]
        }
        let wrong = mismatches(in: frame, tolerance: 3, expected: quadrant)
        #expect(wrong.isEmpty, "\(wrong)")
    }

    @Test("relative paths start in the image directory, and contentsRect picks a part")
    func contentsRect() throws {
        let url = try Self.writeQuadrants()
        let renderer = LayerRenderer(imageDirectory: url.deletingLastPathComponent())
        let layer = Self.pictureBox {
            $0.contents = "quadrants.png"
            $0.contentsRect = Rect(x: 0.5, y: 0.5, width: 0.5, height: 0.5)
        }
        let frame = try renderer.render(tree(layer), size: frameSize)
        let box = ExpectedBox(center: Point(x: 160, y: 120), size: Size(width: 100, height: 100))
        #expect(mismatches(in: frame, box: box, inside: RGB(255, 255, 255), outside: RGB(0, 0, 0)).isEmpty)
    }

    @Test("a contents cross-fade dissolves the old picture into the new", arguments: [0.0, 0.25, 0.5, 1.0])
    func crossFade(_ progress: Double) throws {
        let renderer = LayerRenderer()
        try renderer.setImage(RasterImage(PixelBuffer(width: 2, height: 2, fill: RGB(255, 0, 0))), for: "old")
        try renderer.setImage(RasterImage(PixelBuffer(width: 2, height: 2, fill: RGB(0, 0, 255))), for: "new")
        let layer = Self.pictureBox {
            $0.contents = "new"
            $0.contentsCrossFade = ContentsCrossFade(from: "old", progress: progress)
        }
        let image = try renderer.renderRGBA(tree(layer), size: frameSize)
        let pixel = Array(image[160, 120])
        #expect(abs(Int(pixel[0]) - Int(byte(1 - progress))) <= 2, "\(pixel)")
        #expect(abs(Int(pixel[2]) - Int(byte(progress))) <= 2, "\(pixel)")
        #expect(pixel[3] == 255, "a dissolve between opaque pictures stays opaque: \(pixel)")
    }

    @Test("a missing picture is a readable error naming the layer and the path")
    func missingPicture() throws {
        let layer = Self.pictureBox { $0.contents = "/nonexistent/nothing.png" }
        do {
            _ = try LayerRenderer().render(tree(layer), size: frameSize)
            Issue.record("rendered a missing picture")
        } catch {
            guard case .imageUnreadable(let name, let path, _) = error else {
                Issue.record("wrong error \(error)")
                return
            }
            #expect(name == "picture")
            #expect(path == "/nonexistent/nothing.png")
            #expect(error.description.contains("layer \"picture\""))
        }
    }
}
