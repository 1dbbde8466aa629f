import Testing
import ViewfinderCore
@testable import StudioKit

/// The frosted backdrop under the HUD: a crop shrunk by half the radius, blurred by three box
/// passes, tinted. Read back pixel by pixel (premultiplied ARGB32, native byte order).
@Suite("StudioKit: blurred crops")
@MainActor
struct BlurTests {
    /// The picture's pixels as (red, green, blue, alpha) bytes, premultiplied.
    static func pixels(_ image: CairoImage) -> [[UInt8]] {
        var out: [[UInt8]] = []
        image.withPixels { data, stride in
            for y in 0..<image.height {
                for x in 0..<image.width {
                    let word = UnsafeRawPointer(data + y * stride + x * 4).loadUnaligned(as: UInt32.self)
                    out.append([UInt8(word >> 16 & 0xFF), UInt8(word >> 8 & 0xFF), UInt8(word & 0xFF), UInt8(word >> 24)])
                }
            }
        }
        return out
    }

    /// A picture whose left half is `left` and right half `right`.
    static func halves(width: Int, height: Int, left: RGB, right: RGB) throws -> CairoImage {
        var bytes: [UInt8] = []
        for _ in 0..<height {
            for x in 0..<width {
                let c = x < width / 2 ? left : right
                bytes += [c.r, c.g, c.b]
            }
        }
        let picture = try #require(PixelBuffer(width: width, height: height, bytes: bytes))
        return try #require(CairoImage(picture))
    }

    @Test("one colour stays that colour, at the shrunk size (radius 8: a quarter each way, rounded up)")
    func uniform() throws {
        let image = try Self.halves(width: 101, height: 60, left: RGB(200, 40, 90), right: RGB(200, 40, 90))
        let blurred = try #require(image.blurredCrop(Rect(x: 0, y: 0, width: 101, height: 60), radius: 8))
        #expect(blurred.width == 26 && blurred.height == 15)
        #expect(Self.pixels(blurred).allSatisfy { $0 == [200, 40, 90, 255] })
    }

    @Test("an edge becomes a ramp: rows alike, every value between the two sides, never going back")
    func edge() throws {
        let image = try Self.halves(width: 128, height: 32, left: RGB(0, 0, 0), right: RGB(255, 255, 255))
        let blurred = try #require(image.blurredCrop(Rect(x: 0, y: 0, width: 128, height: 32), radius: 8))
        let pixels = Self.pixels(blurred)
        let row = (0..<blurred.width).map { pixels[$0][0] }
        for y in 1..<blurred.height {
            #expect((0..<blurred.width).map { pixels[y * blurred.width + $0][0] } == row)
        }
        #expect(zip(row, row.dropFirst()).allSatisfy { $0 <= $1 }, "\(row)")
        #expect(row.first == 0 && row.last == 255, "the far ends keep their colour: \(row)")
        #expect(row.contains { $0 > 20 && $0 < 235 }, "the middle is blurred: \(row)")
    }

    @Test("the crop is clamped to the picture; a crop outside it is nil; a tint lies over the blur")
    func clampAndTint() throws {
        let image = try Self.halves(width: 40, height: 40, left: RGB(255, 0, 0), right: RGB(0, 0, 255))
        #expect(image.blurredCrop(Rect(x: 50, y: 0, width: 10, height: 10), radius: 4) == nil)
        let right = try #require(image.blurredCrop(Rect(x: 20, y: -10, width: 40, height: 30), radius: 4))
        #expect(right.width == 10 && right.height == 10, "20…40 × 0…20, halved")
        #expect(Self.pixels(right).allSatisfy { $0 == [0, 0, 255, 255] })
        let tinted = try #require(image.blurredCrop(Rect(x: 20, y: 0, width: 20, height: 20), radius: 4,
                                                    tint: RGBA(red: 1, green: 1, blue: 1, alpha: 0.5)))
        // Half white over blue: (0 + 255) / 2 for red and green, blue stays full.
        #expect(Self.pixels(tinted).allSatisfy { abs(Int($0[0]) - 128) <= 1 && abs(Int($0[1]) - 128) <= 1 && $0[2] == 255 && $0[3] == 255 })
    }
}
