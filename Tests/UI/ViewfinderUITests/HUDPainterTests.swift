import HUD
import Testing
import ViewfinderCore
@testable import StudioKit
@testable import ViewfinderUI

/// The HUD component's painter, off screen: a `ProgressHUD` drawn into a 200 × 200 picture and
/// read back where the box, each indicator's done and remaining parts, and the dimmed view must
/// be. Colours are chosen so each part is told apart exactly.
@Suite("HUD painter")
@MainActor
struct HUDPainterTests {
    static let side = 200
    static let grey = RGBA(red: 0.2, green: 0.2, blue: 0.2)
    static let red = RGBA(red: 1, green: 0, blue: 0)
    static let blue = RGBA(red: 0, green: 0, blue: 1)

    static func bytes(_ colour: RGBA?) -> [Int]? {
        colour.map { c in [c.red, c.green, c.blue, c.alpha].map { Int(($0 * 255).rounded()) } }
    }

    /// A HUD of `mode` at `progress` in a grey box, red for what is done, blue for what is not,
    /// white content.
    static func hud(_ mode: HUDMode, progress: Double = 0, dimming: RGBA? = nil) -> ProgressHUD {
        let hud = ProgressHUD(mode: mode)
        hud.background = HUDBackground(style: .solidColor(grey), view: dimming.map { .solidColor($0) })
        hud.indicatorColors = HUDIndicatorColors(progressTint: red, backgroundTint: blue, lineColor: red)
        hud.contentColor = RGBA(red: 1, green: 1, blue: 1)
        hud.progress = progress
        return hud
    }

    static func paint(_ hud: ProgressHUD, opacity: Double = 1) throws -> CairoImage {
        try #require(CairoImage.drawn(width: side, height: side) { context in
            _ = HUDPainter().draw(hud, in: &context, size: Size(width: Double(side), height: Double(side)), opacity: opacity, scale: 1,
                                  time: 0, around: .init(backdrop: { _, _ in nil }, picture: { _ in nil }, customWidget: nil))
        })
    }

    @Test("the pie: the slice done from twelve o'clock clockwise in the progress tint, the rest of the disc in the background tint, in the box")
    func pie() throws {
        // A quarter: twelve to three o'clock. The 37-point indicator is centred at (99.5, 99.5).
        let image = try Self.paint(Self.hud(.determinate, progress: 0.25))
        #expect(Self.bytes(image.pixel(x: 105, y: 93)) == [255, 0, 0, 255], "upper right: done")
        #expect(Self.bytes(image.pixel(x: 93, y: 105)) == [0, 0, 255, 255], "lower left: still to do")
        #expect(Self.bytes(image.pixel(x: 105, y: 105)) == [0, 0, 255, 255], "lower right: still to do")
        #expect(Self.bytes(image.pixel(x: 66, y: 100)) == [51, 51, 51, 255], "the box around the indicator")
        #expect(Self.bytes(image.pixel(x: 30, y: 30)) == [0, 0, 0, 0], "no view dimming asked for: untouched")
    }

    @Test("the pie follows the progress: at three quarters the lower right is done too, the upper left not")
    func pieFollows() throws {
        let image = try Self.paint(Self.hud(.determinate, progress: 0.75))
        #expect(Self.bytes(image.pixel(x: 105, y: 105)) == [255, 0, 0, 255])
        #expect(Self.bytes(image.pixel(x: 93, y: 105)) == [255, 0, 0, 255])
        #expect(Self.bytes(image.pixel(x: 93, y: 93)) == [0, 0, 255, 255])
    }

    @Test("the ring: its arc done in the progress tint, its track in the background tint, its middle the box")
    func ring() throws {
        let image = try Self.paint(Self.hud(.annularDeterminate, progress: 0.25))
        #expect(Self.bytes(image.pixel(x: 111, y: 87)) == [255, 0, 0, 255], "on the ring, upper right")
        #expect(Self.bytes(image.pixel(x: 87, y: 111)) == [0, 0, 255, 255], "on the ring, lower left")
        #expect(Self.bytes(image.pixel(x: 99, y: 99)) == [51, 51, 51, 255], "inside the ring")
    }

    @Test("the bar: filled from the left as far as the progress, empty after")
    func bar() throws {
        // The 120 × 10 bar in a 160 × 50 box: (40, 95)…(160, 105), its inside 42…158.
        let image = try Self.paint(Self.hud(.determinateHorizontalBar, progress: 0.5))
        #expect(Self.bytes(image.pixel(x: 60, y: 100)) == [255, 0, 0, 255])
        #expect(Self.bytes(image.pixel(x: 140, y: 100)) == [0, 0, 255, 255])
        #expect(Self.bytes(image.pixel(x: 30, y: 100)) == [51, 51, 51, 255], "the box beside the bar")
    }

    @Test("a checkmark is stroked in the content colour")
    func checkmark() throws {
        let image = try Self.paint(Self.hud(.customView(.checkmark)))
        // On the first stroke, from (15 %, 55 %) to (40 %, 80 %) of the 37-point square at (81, 81).
        #expect(Self.bytes(image.pixel(x: 91, y: 106)) == [255, 255, 255, 255])
        #expect(Self.bytes(image.pixel(x: 110, y: 112)) == [51, 51, 51, 255], "off the strokes: the box")
    }

    @Test("a dimmed view is laid over everything outside the box; the box and the dimming fade together at the opacity")
    func dimmingAndOpacity() throws {
        let shown = try Self.paint(Self.hud(.determinate, dimming: RGBA(red: 0, green: 0, blue: 0, alpha: 0.5)))
        #expect(Self.bytes(shown.pixel(x: 30, y: 30)) == [0, 0, 0, 128])
        let fading = try Self.paint(Self.hud(.determinate, dimming: RGBA(red: 0, green: 0, blue: 0, alpha: 0.5)), opacity: 0.5)
        #expect(Self.bytes(fading.pixel(x: 30, y: 30)) == [0, 0, 0, 64])
        // Half the grey box over the quarter-black view: straight colour 0.2·0.5 / 0.625, alpha 0.625.
        let box = try #require(fading.pixel(x: 66, y: 100))
        #expect(abs(box.alpha - 0.625) < 0.01, "\(box)")
        #expect(abs(box.red - 0.16) < 0.01 && box.red == box.green && box.green == box.blue, "\(box)")
    }
}
