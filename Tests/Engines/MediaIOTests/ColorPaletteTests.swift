import Foundation
import Testing
import ViewfinderCore
import ViewfinderTestSupport

@testable import MediaIO

/// The GIF palette: made from pictures (`ColorPalette(quantizing:)`) and applied to them
/// (`PaletteMapper`), on inputs small enough to know every answer.
@Suite("Color palette")
struct ColorPaletteTests {
    /// A picture of `colors` in runs of different lengths (1, 2, 3, ... pixels), so that a
    /// rare colour is one pixel among many.
    static func picture(of colors: [RGB], width: Int = 64) throws -> PixelBuffer {
        var bytes: [UInt8] = []
        for (i, c) in colors.enumerated() {
            for _ in 0...(i % 7) { bytes += [c.r, c.g, c.b] }
        }
        while bytes.count % (width * 3) != 0 { bytes += [colors[0].r, colors[0].g, colors[0].b] }
        return try #require(PixelBuffer(width: width, height: bytes.count / (width * 3), bytes: bytes))
    }

    /// `count` distinct colours, some of them one step apart.
    static func distinctColors(_ count: Int) -> [RGB] {
        (0..<count).map { (i: Int) -> RGB in
            let blue: UInt8 = i < 128 ? 10 : 11
            return RGB(UInt8(i % 256), UInt8((i * 37) % 256), blue)
        }
    }

    static func mapped(_ picture: PixelBuffer, onto palette: ColorPalette) throws -> [RGB] {
        let mapper = try #require(PaletteMapper(palette: palette))
        let indices = try #require(mapper.indices(for: picture))
        return indices.map { mapper.colors[Int($0)] }
    }

    static func pixels(_ picture: PixelBuffer) -> [RGB] {
        (0..<picture.height).flatMap { y in (0..<picture.width).map { x in picture[x, y] } }
    }

    @Test("at most 256 colours: the palette is exactly those colours and every pixel maps to its own",
          arguments: [1, 2, 17, 255, 256])
    func lossless(_ count: Int) throws {
        let colors = Self.distinctColors(count)
        let picture = try Self.picture(of: colors)
        let palette = try ColorPalette(quantizing: [picture])
        #expect(Set(palette.colors) == Set(colors))
        #expect(palette.colors.count == count)
        #expect(try Self.mapped(picture, onto: palette) == Self.pixels(picture))
    }

    @Test("colours spread over several pictures are all kept")
    func acrossPictures() throws {
        let colors = Self.distinctColors(200)
        let pictures = try stride(from: 0, to: 200, by: 50).map { try Self.picture(of: Array(colors[$0..<($0 + 50)])) }
        #expect(Set(try ColorPalette(quantizing: pictures).colors) == Set(colors))
    }

    @Test("more colours than allowed: exactly `count` colours, each pixel close to the original", arguments: [2, 16, 256])
    func reduced(_ count: Int) throws {
        // 160 × 90 different colours in smooth ramps.
        var picture = PixelBuffer(width: 160, height: 90)
        for y in 0..<90 {
            for x in 0..<160 { picture.fill(x: x, y: y, width: 1, height: 1, with: RGB(UInt8(x), UInt8(y * 2), UInt8((x + y) / 2))) }
        }
        let palette = try ColorPalette(quantizing: [picture], count: count)
        #expect(palette.colors.count == count)
        if count == 256 {
            let mapped = try Self.mapped(picture, onto: palette)
            var total = 0
            for (a, b) in zip(mapped, Self.pixels(picture)) {
                total += abs(Int(a.r) - Int(b.r))
                total += abs(Int(a.g) - Int(b.g))
                total += abs(Int(a.b) - Int(b.b))
            }
            // A plane of 14 400 colours in 256: steps of about 10 per channel, so the mean error
            // is about a quarter step when every pixel gets its nearest colour.
            #expect(Double(total) / Double(3 * mapped.count) < 3, "mean error per channel")
        }
    }

    @Test("nearest colour, hand-computed: each pixel goes to the palette colour closest to it")
    func nearest() throws {
        let palette = ColorPalette(colors: [RGB(0, 0, 0), RGB(255, 255, 255), RGB(255, 0, 0), RGB(0, 0, 255), RGB(128, 128, 128)])
        let cases: [(RGB, RGB)] = [
            (RGB(10, 12, 8), RGB(0, 0, 0)), (RGB(240, 250, 245), RGB(255, 255, 255)), (RGB(200, 30, 20), RGB(255, 0, 0)),
            (RGB(20, 10, 210), RGB(0, 0, 255)), (RGB(120, 135, 125), RGB(128, 128, 128)), (RGB(140, 128, 118), RGB(128, 128, 128)),
            (RGB(255, 0, 0), RGB(255, 0, 0)), (RGB(128, 128, 128), RGB(128, 128, 128)),
        ]
        let picture = try #require(PixelBuffer(width: cases.count, height: 1, bytes: cases.flatMap { [$0.0.r, $0.0.g, $0.0.b] }))
        #expect(try Self.mapped(picture, onto: palette) == cases.map(\.1))
        let mapper = try #require(PaletteMapper(palette: palette))
        #expect(Set(mapper.colors) == Set(palette.colors), "the mapper keeps exactly the palette's colours")
    }

    @Test("the same colour maps to the same entry wherever it is (no dither, no shimmer)")
    func stable() throws {
        let palette = ColorPalette(colors: [RGB(0, 0, 0), RGB(100, 100, 100), RGB(200, 200, 200)])
        let flat = PixelBuffer(width: 32, height: 8, fill: RGB(150, 150, 150))
        let mapper = try #require(PaletteMapper(palette: palette))
        let indices = try #require(mapper.indices(for: flat))
        #expect(Set(indices).count == 1)
    }

    @Test("the core type keeps at most 256 colours, in order")
    func core() {
        let colors = Self.distinctColors(300)
        #expect(ColorPalette(colors: colors).colors == Array(colors.prefix(256)))
        #expect(ColorPalette(colors: []).colors == [])
    }
}
