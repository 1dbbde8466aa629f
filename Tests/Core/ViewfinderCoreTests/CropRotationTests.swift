import Foundation
import Testing
import ViewfinderCore
import ViewfinderTestSupport

@Suite("Crop geometry: turning the photo")
struct CropRotationTests {
    /// A 1800×1200 photo in a 400×300 viewport with a 280-point crop frame.
    static func geometry(round: Bool) -> CropGeometry {
        CropGeometry(imageSize: Size(width: 1800, height: 1200), viewportSize: Size(width: 400, height: 300),
                     cropSize: Size(width: 280, height: 280), round: round)
    }

    /// Whether every corner of `spec`'s crop, turned back into the photo, lies inside it.
    static func covered(_ spec: CropSpec, tolerance: Double = 1e-6) -> Bool {
        spec.corners.allSatisfy {
            $0.x >= -tolerance && $0.y >= -tolerance
                && $0.x <= Double(spec.imageSize.width) + tolerance && $0.y <= Double(spec.imageSize.height) + tolerance
        }
    }

    @Test("the minimum zoom of a square grows by |cos θ| + |sin θ| on the short side; a circle's does not change",
          arguments: [0.0, 17, 45, 90, -30, 135, 200])
    func minimumZoom(_ degrees: Double) {
        let square = Self.geometry(round: false), circle = Self.geometry(round: true)
        let r = degrees * .pi / 180
        let grow = abs(cos(r)) + abs(sin(r))
        // The turned crop's box is 280·grow square; the photo's short side (1200) limits it.
        #expect(abs(square.minimumZoom(at: degrees) - 280 * grow / 1200) < 1e-12)
        #expect(circle.minimumZoom(at: degrees) == 280.0 / 1200)
        // A rectangle twice as wide as high, turned by 90°, is limited by its width on the short side.
        let wide = CropGeometry(imageSize: Size(width: 1800, height: 1200), viewportSize: Size(width: 400, height: 300),
                                cropSize: Size(width: 300, height: 150))
        let box = (w: 300 * abs(cos(r)) + 150 * abs(sin(r)), h: 300 * abs(sin(r)) + 150 * abs(cos(r)))
        #expect(abs(wide.minimumZoom(at: degrees) - max(box.w / 1800, box.h / 1200)) < 1e-12)
    }

    @Test("at the minimum zoom the turned square touches the photo's edge: any less and a corner leaves it",
          arguments: [17.0, 45, 90])
    func tight(_ degrees: Double) throws {
        let spec = CropSpec.centred(imageSize: PixelSize(width: 1800, height: 1200), shape: .square, outputSide: 256,
                                    rotation: degrees)
        #expect(try spec.validated() == spec)
        #expect(Self.covered(spec))
        var larger = spec
        larger.rect = Rect(center: spec.rect.center, size: Size(width: spec.rect.width * 1.01, height: spec.rect.height * 1.01))
        #expect(!Self.covered(larger))
        #expect(throws: CropSpecError.self) { try larger.validated() }
    }

    @Test("turning, panning and zooming at random never uncover the crop")
    func randomWalk() {
        var random = SplitMix64(seed: 17)
        for round in [false, true] {
            let geometry = Self.geometry(round: round)
            var state = geometry.initialState
            for step in 0..<500 {
                switch Int.random(in: 0..<3, using: &random) {
                case 0: state = geometry.rotated(state, by: Double.random(in: -50...50, using: &random))
                case 1: state = geometry.panned(state, by: Point(x: Double.random(in: -300...300, using: &random),
                                                                y: Double.random(in: -300...300, using: &random)))
                default: state = geometry.zoomed(state, by: Double.random(in: 0.3...3, using: &random),
                                                 at: Point(x: Double.random(in: 0...400, using: &random), y: Double.random(in: 0...300, using: &random)))
                }
                let spec = CropSpec(imageSize: PixelSize(width: 1800, height: 1200), rect: geometry.cropRect(state),
                                    shape: round ? .circle : .square, outputSize: PixelSize(width: 64, height: 64),
                                    rotation: state.rotation)
                let ok = round ? Rect(x: 0, y: 0, width: 1800, height: 1200).contains(spec.rect, tolerance: 1e-6) : Self.covered(spec)
                #expect(ok, "step \(step): \(state)")
                if !ok { return }
            }
        }
    }

    @Test("a drag moves the photo with the finger on screen whatever the turn")
    func panTurned() {
        let geometry = Self.geometry(round: true)
        let start = geometry.clamped(CropState(zoom: 1, center: Point(x: 900, y: 600), rotation: 90))
        // Turned a quarter clockwise, the photo's "up" points right on screen: dragging right by
        // 10 points moves the view 10 photo pixels towards the photo's top.
        let moved = geometry.panned(start, by: Point(x: 10, y: 0))
        #expect(abs(moved.center.x - 900) < 1e-9 && abs(moved.center.y - 610) < 1e-9, "\(moved.center)")
        // The pixel under a viewport point is where a turned drawing puts it.
        let point = geometry.imagePoint(atViewportPoint: Point(x: 250, y: 150), in: start)
        #expect(abs(point.x - 900) < 1e-9 && abs(point.y - 550) < 1e-9, "\(point)")
    }

    @Test("a turned spec round-trips through JSON; an unturned one prints as before, without \"rotation\"")
    func json() throws {
        let turned = CropSpec.centred(imageSize: PixelSize(width: 1800, height: 1200), shape: .square, outputSide: 256, rotation: 17)
        #expect(turned.json().contains("\"rotation\" : 17"))
        #expect(try CropSpec.parse(Data(turned.json().utf8)) == turned)
        let plain = CropSpec.centred(imageSize: PixelSize(width: 1800, height: 1200), shape: .square, outputSide: 256)
        #expect(!plain.json().contains("rotation"))
        for bad in ["nan", "361", "\"x\""] {
            let text = plain.json().replacingOccurrences(of: "\"shape\"", with: "\"rotation\" : \(bad),\n  \"shape\"")
            #expect(throws: CropSpecError.self, "\(bad)") { try CropSpec.parse(Data(text.utf8)) }
        }
    }
}
