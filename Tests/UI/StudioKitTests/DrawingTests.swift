import Testing
import ViewfinderCore
@testable import StudioKit

/// StudioKit's drawing, off screen: shapes, clips, groups and pictures drawn with a
/// `CairoContext` into a `CairoImage`, read back pixel by pixel.
@Suite("StudioKit: drawing")
@MainActor
struct DrawingTests {
    /// A colour as 8-bit channels, for exact comparison.
    static func bytes(_ colour: RGBA?) -> [Int]? {
        colour.map { c in [c.red, c.green, c.blue, c.alpha].map { Int(($0 * 255).rounded()) } }
    }

    static let red = RGBA(red: 1, green: 0, blue: 0)
    static let blue = RGBA(red: 0, green: 0, blue: 1)
    static let clear = [0, 0, 0, 0]

    @Test("a filled rounded rectangle covers its inside, leaves its rounded corners and the outside clear")
    func roundedRectangle() throws {
        let image = try #require(CairoImage.drawn(width: 40, height: 30) { context in
            context.roundedRectangle(Rect(x: 5, y: 5, width: 30, height: 20), radius: 8)
            context.setColor(Self.red)
            context.fill()
        })
        #expect(image.width == 40 && image.height == 30)
        #expect(Self.bytes(image.pixel(x: 20, y: 15)) == [255, 0, 0, 255])
        #expect(Self.bytes(image.pixel(x: 6, y: 15)) == [255, 0, 0, 255], "the straight left edge is inside")
        #expect(Self.bytes(image.pixel(x: 5, y: 5)) == Self.clear, "the corner is rounded off")
        #expect(Self.bytes(image.pixel(x: 2, y: 2)) == Self.clear)
        #expect(Self.bytes(image.pixel(x: 36, y: 26)) == Self.clear)
        #expect(image.pixel(x: 40, y: 0) == nil && image.pixel(x: -1, y: 0) == nil)
    }

    @Test("an ellipse fills its rect's middle, not its corners")
    func ellipse() throws {
        let image = try #require(CairoImage.drawn(width: 20, height: 20) { context in
            context.ellipse(in: Rect(x: 0, y: 0, width: 20, height: 20))
            context.setColor(Self.blue)
            context.fill()
        })
        #expect(Self.bytes(image.pixel(x: 10, y: 10)) == [0, 0, 255, 255])
        #expect(Self.bytes(image.pixel(x: 10, y: 1)) == [0, 0, 255, 255])
        #expect(Self.bytes(image.pixel(x: 0, y: 0)) == Self.clear)
        #expect(Self.bytes(image.pixel(x: 19, y: 19)) == Self.clear)
    }

    @Test("a clip limits paint to its path; restore lifts it")
    func clip() throws {
        let image = try #require(CairoImage.drawn(width: 20, height: 10) { context in
            context.save()
            context.rectangle(Rect(x: 0, y: 0, width: 10, height: 10))
            context.clip()
            context.paint(Self.red)
            context.restore()
            context.rectangle(Rect(x: 15, y: 0, width: 5, height: 10))
            context.setColor(Self.blue)
            context.fill()
        })
        #expect(Self.bytes(image.pixel(x: 4, y: 5)) == [255, 0, 0, 255])
        #expect(Self.bytes(image.pixel(x: 12, y: 5)) == Self.clear, "outside the clip")
        #expect(Self.bytes(image.pixel(x: 17, y: 5)) == [0, 0, 255, 255], "after restore, drawn unclipped")
    }

    @Test("a group is composited once at its opacity: overlapping shapes inside it do not add up")
    func group() throws {
        let image = try #require(CairoImage.drawn(width: 10, height: 10) { context in
            context.beginGroup()
            context.paint(Self.red)
            context.paint(Self.red)
            context.endGroup(opacity: 0.5)
        })
        #expect(Self.bytes(image.pixel(x: 5, y: 5)) == [255, 0, 0, 128])
    }

    @Test("a picture drawn into a rect is scaled to it, nothing outside it is touched")
    func picture() throws {
        let source = try #require(CairoImage.drawn(width: 2, height: 2) { $0.paint(Self.blue) })
        let image = try #require(CairoImage.drawn(width: 12, height: 12) { context in
            context.draw(source, in: Rect(x: 2, y: 2, width: 8, height: 8))
        })
        #expect(Self.bytes(image.pixel(x: 6, y: 6)) == [0, 0, 255, 255])
        #expect(Self.bytes(image.pixel(x: 3, y: 8)) == [0, 0, 255, 255])
        #expect(Self.bytes(image.pixel(x: 1, y: 6)) == Self.clear)
        #expect(Self.bytes(image.pixel(x: 10, y: 6)) == Self.clear)
    }

    @Test("a transform moves and turns what is drawn next")
    func transform() throws {
        let image = try #require(CairoImage.drawn(width: 20, height: 20) { context in
            context.translate(10, 10)
            context.rotate(degrees: 90)
            // Before the turn this bar runs right of the origin; turned clockwise it runs down.
            context.rectangle(Rect(x: 0, y: -1, width: 10, height: 2))
            context.setColor(Self.red)
            context.fill()
        })
        #expect(Self.bytes(image.pixel(x: 10, y: 15)) == [255, 0, 0, 255])
        #expect(Self.bytes(image.pixel(x: 15, y: 10)) == Self.clear)
    }

    @Test("an empty size makes no picture")
    func empty() {
        #expect(CairoImage.drawn(width: 0, height: 10) { _ in } == nil)
    }
}
