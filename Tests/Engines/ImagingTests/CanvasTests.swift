import Foundation
import Testing
import ViewfinderCore

@testable import Imaging

@Suite("Canvas")
struct CanvasTests {
    static let red = Canvas.Color(red: 1, green: 0, blue: 0)
    static let green = Canvas.Color(red: 0, green: 1, blue: 0)
    static let blue = Canvas.Color(red: 0, green: 0, blue: 1)

    /// Whether every channel of `pixel` is within `tolerance` of `expected`.
    func close(_ pixel: RGB, _ expected: RGB, _ tolerance: Int = 2) -> Bool {
        abs(Int(pixel.r) - Int(expected.r)) <= tolerance && abs(Int(pixel.g) - Int(expected.g)) <= tolerance
            && abs(Int(pixel.b) - Int(expected.b)) <= tolerance
    }

    @Test("a filled rectangle colours exactly the pixels it covers; the rest shows the background")
    func fillRectangle() throws {
        let canvas = try Canvas(size: PixelSize(width: 20, height: 10))
        canvas.fill(Rect(x: 2, y: 3, width: 10, height: 5), color: Self.red)
        let picture = canvas.pixelBuffer(over: Self.blue)
        for y in 0..<10 {
            for x in 0..<20 {
                let inside = (2..<12).contains(x) && (3..<8).contains(y)
                #expect(picture[x, y] == (inside ? RGB(255, 0, 0) : RGB(0, 0, 255)), "(\(x), \(y))")
            }
        }
    }

    @Test("rounded corners leave the corner pixels empty and keep the edges' middles")
    func roundedRectangle() throws {
        let canvas = try Canvas(size: PixelSize(width: 40, height: 40))
        canvas.fill(Rect(x: 0, y: 0, width: 40, height: 40), cornerRadius: 10, color: Self.red)
        let picture = canvas.pixelBuffer(over: .black)
        for (x, y) in [(0, 0), (39, 0), (0, 39), (39, 39), (1, 1), (2, 1)] {
            #expect(picture[x, y] == RGB(0, 0, 0), "corner (\(x), \(y))")
        }
        for (x, y) in [(20, 0), (0, 20), (39, 20), (20, 39), (20, 20), (4, 4)] {
            #expect(picture[x, y] == RGB(255, 0, 0), "(\(x), \(y))")
        }
    }

    @Test("a border lies inside the rectangle, follows its rounded corners, and leaves the middle alone")
    func border() throws {
        let canvas = try Canvas(size: PixelSize(width: 40, height: 40))
        canvas.fill(Rect(x: 10, y: 10, width: 20, height: 20), color: Self.red)
        canvas.strokeBorder(of: Rect(x: 10, y: 10, width: 20, height: 20), width: 4, color: Self.blue)
        let picture = canvas.pixelBuffer(over: .black)
        for x in 10..<14 { #expect(picture[x, 20] == RGB(0, 0, 255), "left edge \(x)") }
        for x in 26..<30 { #expect(picture[x, 20] == RGB(0, 0, 255), "right edge \(x)") }
        #expect(picture[9, 20] == RGB(0, 0, 0))
        #expect(picture[30, 20] == RGB(0, 0, 0))
        #expect(picture[14, 20] == RGB(255, 0, 0))
        #expect(picture[20, 20] == RGB(255, 0, 0))

        let rounded = try Canvas(size: PixelSize(width: 40, height: 40))
        rounded.strokeBorder(of: Rect(x: 0, y: 0, width: 40, height: 40), cornerRadius: 12, width: 2, color: Self.blue)
        let ring = rounded.pixelBuffer(over: .black)
        #expect(ring[0, 0] == RGB(0, 0, 0), "outside the rounded corner")
        #expect(ring[20, 0] == RGB(0, 0, 255))
        // On the corner's diagonal, the arc of radius 12 about (12, 12) passes 12·(1 − 1/√2) ≈ 3.5 in.
        #expect(ring[4, 4].b > 128, "the border bends round the corner")
        #expect(ring[1, 1].b == 0)
    }

    @Test("a group's alpha applies to the composite: overlapping parts do not show through each other")
    func groupAlpha() throws {
        let canvas = try Canvas(size: PixelSize(width: 30, height: 10))
        canvas.drawGroup(alpha: 0.5) {
            canvas.fill(Rect(x: 0, y: 0, width: 20, height: 10), color: Self.red)
            canvas.fill(Rect(x: 10, y: 0, width: 20, height: 10), color: Self.green)
        }
        let picture = canvas.pixelBuffer(over: .black)
        #expect(close(picture[5, 5], RGB(128, 0, 0)))
        #expect(close(picture[15, 5], RGB(0, 128, 0)), "\(picture[15, 5]) — without a group it would be (64, 128, 0)")
        #expect(close(picture[25, 5], RGB(0, 128, 0)))
    }

    @Test("concatenated transforms act in the current coordinates, and restore undoes them")
    func transforms() throws {
        let canvas = try Canvas(size: PixelSize(width: 40, height: 40))
        canvas.save()
        // Turn a quarter clockwise about (20, 20): the strip right of the centre goes below it.
        canvas.concatenate(.translation(x: 20, y: 20))
        canvas.concatenate(.rotation(.pi / 2))
        canvas.concatenate(.translation(x: -20, y: -20))
        canvas.fill(Rect(x: 22, y: 18, width: 10, height: 4), color: Self.red)
        canvas.restore()
        canvas.fill(Rect(x: 0, y: 0, width: 2, height: 2), color: Self.green)
        let picture = canvas.pixelBuffer(over: .black)
        #expect(picture[20, 26] == RGB(255, 0, 0))
        #expect(picture[26, 20] == RGB(0, 0, 0))
        #expect(picture[1, 1] == RGB(0, 255, 0), "restore brought back the identity")
        let t = Canvas.Transform.translation(x: 5, y: 0).concatenating(.scale(x: 2, y: 3))
        #expect(t.apply(to: Point(x: 1, y: 1)) == Point(x: 7, y: 3))
    }

    @Test("a clip limits drawing to a rounded rectangle until restored")
    func clip() throws {
        let canvas = try Canvas(size: PixelSize(width: 40, height: 40))
        canvas.save()
        canvas.clip(to: Rect(x: 10, y: 10, width: 20, height: 20), cornerRadius: 10)
        canvas.fill(Rect(x: 0, y: 0, width: 40, height: 40), color: Self.red)
        canvas.restore()
        let picture = canvas.pixelBuffer(over: .black)
        #expect(picture[20, 20] == RGB(255, 0, 0))
        #expect(picture[5, 20] == RGB(0, 0, 0))
        #expect(picture[10, 10] == RGB(0, 0, 0), "the clip's rounded corner")
    }

    /// A 2×2 picture: red, green / blue, white.
    static let quadrants: PixelBuffer = {
        var p = PixelBuffer(width: 2, height: 2)
        p[0, 0] = RGB(255, 0, 0); p[1, 0] = RGB(0, 255, 0); p[0, 1] = RGB(0, 0, 255); p[1, 1] = RGB(255, 255, 255)
        return p
    }()

    @Test("a picture is stretched into a rectangle, or a part of it chosen in unit coordinates")
    func pictures() throws {
        let canvas = try Canvas(size: PixelSize(width: 60, height: 60))
        try canvas.draw(Self.quadrants, in: Rect(x: 10, y: 10, width: 40, height: 40))
        var picture = canvas.pixelBuffer(over: .black)
        #expect(close(picture[15, 15], RGB(255, 0, 0)))
        #expect(close(picture[45, 15], RGB(0, 255, 0)))
        #expect(close(picture[15, 45], RGB(0, 0, 255)))
        #expect(close(picture[45, 45], RGB(255, 255, 255)))
        // Half-way is an even mix (bilinear when enlarging).
        #expect(close(picture[29, 15], RGB(128, 128, 0), 40), "\(picture[29, 15])")
        #expect(picture[5, 30] == RGB(0, 0, 0), "nothing outside the rectangle")
        #expect(picture[50, 30] == RGB(0, 0, 0))

        canvas.clear(to: .clear)
        try canvas.draw(Self.quadrants, in: Rect(x: 10, y: 10, width: 40, height: 40), from: Rect(x: 0.5, y: 0, width: 0.5, height: 0.5))
        picture = canvas.pixelBuffer(over: .black)
        for (x, y) in [(10, 10), (30, 30), (49, 49), (10, 49)] {
            #expect(close(picture[x, y], RGB(0, 255, 0)), "(\(x), \(y)) \(picture[x, y])")
        }
    }

    @Test("shrinking a fine pattern averages it instead of picking pixels")
    func shrinkFiltering() throws {
        var stripes = PixelBuffer(width: 64, height: 64)
        for y in 0..<64 { for x in stride(from: 0, to: 64, by: 2) { stripes[x, y] = RGB(255, 255, 255) } }
        let canvas = try Canvas(size: PixelSize(width: 8, height: 8))
        try canvas.draw(stripes, in: Rect(x: 0, y: 0, width: 8, height: 8))
        let picture = canvas.pixelBuffer(over: .black)
        for x in 1..<7 { #expect(abs(Int(picture[x, 4].r) - 128) < 24, "\(picture[x, 4])") }

        // Odd sizes halve without pulling in anything dark at their edges.
        let flat = PixelBuffer(width: 33, height: 17, fill: RGB(200, 150, 100))
        canvas.clear(to: .clear)
        try canvas.draw(flat, in: Rect(x: 0, y: 0, width: 4, height: 2))
        let small = canvas.pixelBuffer(over: .black)
        for x in 0..<4 { for y in 0..<2 { #expect(close(small[x, y], RGB(200, 150, 100)), "(\(x), \(y)) \(small[x, y])") } }
    }

    @Test("RGBA pictures keep their alpha, and RGBA export is un-premultiplied")
    func alphaRoundTrip() throws {
        let half = try #require(RasterImage(width: 1, height: 1, channels: 4, bytes: [200, 100, 50, 128]))
        let canvas = try Canvas(size: PixelSize(width: 4, height: 4))
        try canvas.draw(half, in: Rect(x: 0, y: 0, width: 4, height: 4))
        let rgba = canvas.rasterImage()
        #expect(rgba.channels == 4)
        let pixel = Array(rgba[2, 2])
        #expect(abs(Int(pixel[3]) - 128) <= 1)
        #expect(abs(Int(pixel[0]) - 200) <= 2 && abs(Int(pixel[1]) - 100) <= 2 && abs(Int(pixel[2]) - 50) <= 2, "\(pixel)")
        // Over white: c·a + 255·(1 − a).
        let over = canvas.pixelBuffer(over: .white)[2, 2]
        #expect(close(over, RGB(227, 177, 152), 2), "\(over)")
    }

    @Test("the plus blend sums two half-faded pictures into an opaque dissolve")
    func plusBlend() throws {
        let canvas = try Canvas(size: PixelSize(width: 4, height: 4))
        let redImage = try Canvas.Image(PixelBuffer(width: 1, height: 1, fill: RGB(255, 0, 0)))
        let blueImage = try Canvas.Image(PixelBuffer(width: 1, height: 1, fill: RGB(0, 0, 255)))
        let rect = Rect(x: 0, y: 0, width: 4, height: 4)
        canvas.drawGroup(alpha: 1) {
            canvas.draw(redImage, in: rect, alpha: 0.75)
            canvas.draw(blueImage, in: rect, alpha: 0.25, blend: .plus)
        }
        let pixel = Array(canvas.rasterImage()[1, 1])
        #expect(pixel[3] == 255, "a dissolve of opaque pictures is opaque: \(pixel)")
        #expect(abs(Int(pixel[0]) - 191) <= 2 && abs(Int(pixel[2]) - 64) <= 2, "\(pixel)")
    }

    @Test("a shadow is blurred like a Gaussian of the radius: half at the edge, fading with distance",
          arguments: [1.5, 4.0, 20.0])
    func shadow(_ sigma: Double) throws {
        let canvas = try Canvas(size: PixelSize(width: 300, height: 300))
        canvas.drawShadow(of: Rect(x: 90, y: 90, width: 100, height: 100), offset: Point(x: 10, y: 10), blurRadius: sigma,
                          color: Canvas.Color(red: 0, green: 0, blue: 0, alpha: 1))
        let alpha = canvas.rasterImage()
        func coverage(_ x: Int, _ y: Int) -> Double { Double(alpha[x, y].last!) / 255 }
        // A Gaussian blur of a rectangle is a product of two 1D profiles; the offset moved the
        // shadow to 100…200 both ways.
        func profile(_ t: Int) -> Double {
            let centre = Double(t) + 0.5, scale = sigma * 2.0.squareRoot()
            return 0.5 * (erfc((100 - centre) / scale) - erfc((200 - centre) / scale))
        }
        let reach = Int(3 * sigma) + 2
        for (x, y) in (100 - reach...200 + reach).map({ ($0, 150) }) + (100 - reach...200 + reach).map({ (150, $0) }) {
            let expected = profile(x) * profile(y)
            #expect(abs(coverage(x, y) - expected) < 0.07, "(\(x), \(y)): \(coverage(x, y)) vs \(expected)")
        }
        for x in 150..<(200 + reach) { #expect(coverage(x, 150) >= coverage(x + 1, 150), "falls off monotonically at \(x)") }
        #expect(coverage(min(299, 200 + 2 * reach), 150) == 0)
        #expect(coverage(150, 95) < 0.5 && coverage(150, 195) > 0.5, "the offset moved it down")
    }

    @Test("a shadow turns with the transform, offset included")
    func rotatedShadow() throws {
        let canvas = try Canvas(size: PixelSize(width: 100, height: 100))
        canvas.concatenate(.translation(x: 50, y: 50))
        canvas.concatenate(.rotation(.pi / 2))
        // Offset 20 along x in the turned coordinates is 20 down on the canvas.
        canvas.drawShadow(of: Rect(x: -10, y: -10, width: 20, height: 20), offset: Point(x: 20, y: 0), blurRadius: 1,
                          color: Canvas.Color(red: 0, green: 0, blue: 0, alpha: 1))
        let alpha = canvas.rasterImage()
        #expect(alpha[50, 70].last! > 240)
        #expect(alpha[70, 50].last! < 10)
    }

    @Test("empty and huge sizes are refused with a readable error")
    func invalidSizes() {
        #expect(throws: Canvas.Error.invalidSize(PixelSize(width: 0, height: 10))) {
            try Canvas(size: PixelSize(width: 0, height: 10))
        }
        #expect(throws: Canvas.Error.invalidSize(PixelSize(width: 40_000, height: 10))) {
            try Canvas(size: PixelSize(width: 40_000, height: 10))
        }
        #expect(Canvas.Error.invalidSize(PixelSize(width: 0, height: 10)).description.contains("between 1 and 32767"))
    }
}
