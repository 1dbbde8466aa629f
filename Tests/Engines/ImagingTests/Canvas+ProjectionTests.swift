import Foundation
import Testing
import ViewfinderCore

@testable import Imaging

@Suite("Canvas projection")
struct CanvasProjectionTests {
    /// An opaque picture of small coloured blocks, so every sample position matters.
    static func blocks(_ size: PixelSize) throws -> Canvas {
        let canvas = try Canvas(size: size)
        canvas.fill(Rect(x: 0, y: 0, width: Double(size.width), height: Double(size.height)),
                    color: Canvas.Color(red: 0.1, green: 0.9, blue: 0.3))
        for y in 0..<size.height {
            for x in 0..<size.width where (x / 3 + y / 2) % 2 == 0 || x % 7 == 0 {
                canvas.fill(Rect(x: Double(x), y: Double(y), width: 1, height: 1),
                            color: Canvas.Color(red: Double(x) / Double(size.width), green: Double(y) / Double(size.height), blue: 0.5))
            }
        }
        return canvas
    }

    /// The projection as the plain definition says it, pixel by pixel over the whole canvas:
    /// each pixel centre taken back through the inverse, sampled bilinearly in 1/256ths with
    /// outside pixels transparent. Premultiplied ARGB words.
    static func reference(_ source: RasterImage, on size: PixelSize, mapping: Homography) -> [UInt32] {
        guard let h = mapping.inverted?.m else { return [] }
        func word(_ x: Int, _ y: Int) -> UInt32 {
            guard x >= 0, y >= 0, x < source.width, y < source.height else { return 0 }
            let o = (y * source.width + x) * 4
            // Opaque, so premultiplied equals straight.
            return 0xFF00_0000 | UInt32(source.bytes[o]) << 16 | UInt32(source.bytes[o + 1]) << 8 | UInt32(source.bytes[o + 2])
        }
        var out = [UInt32](repeating: 0, count: size.width * size.height)
        for y in 0..<size.height {
            for x in 0..<size.width {
                let px = Double(x) + 0.5, py = Double(y) + 0.5
                let w = h[6] * px + h[7] * py + h[8]
                guard w > 0 else { continue }
                let u = (h[0] * px + h[1] * py + h[2]) / w + 0.5, v = (h[3] * px + h[4] * py + h[5]) / w + 0.5
                guard u > 0, v > 0, u < Double(source.width + 1), v < Double(source.height + 1) else { continue }
                let iu = Int(u) - 1, iv = Int(v) - 1
                let wu = UInt32((u - Double(iu + 1)) * 256), wv = UInt32((v - Double(iv + 1)) * 256)
                let w11 = (wu * wv) >> 8, w10 = wu - w11, w01 = wv - w11, w00 = 256 + w11 - wu - wv
                let taps = [(word(iu, iv), w00), (word(iu + 1, iv), w10), (word(iu, iv + 1), w01), (word(iu + 1, iv + 1), w11)]
                var result: UInt32 = 0
                for shift in stride(from: 0, to: 32, by: 8) {
                    let sum = taps.reduce(UInt32(0)) { $0 + ($1.0 >> UInt32(shift) & 0xFF) * $1.1 } >> 8
                    result |= (sum & 0xFF) << UInt32(shift)
                }
                out[y * size.width + x] = result
            }
        }
        return out
    }

    static let mappings: [(String, Homography)] = [
        ("turned about y in perspective", Homography([0.8, 0.05, 10, -0.1, 1.1, 6, -0.004, 0.0005, 1])),
        ("strong perspective, partly off the canvas", Homography([1.3, -0.4, -8, 0.3, 0.9, 12, 0.012, -0.006, 1])),
        ("mirrored and enlarged", Homography([-1.7, 0, 70, 0, 1.4, -3, 0, 0, 1])),
        ("enlarged four times, edges inside the canvas", Homography([1.6, 0.2, 5.3, 0, 1.8, 4.7, 0, 0, 1])),
        ("shrunk by half", Homography([0.5, 0.1, 30, -0.05, 0.45, 20, 0.001, 0.002, 1])),
    ]

    @Test("the projection paints exactly the pixels and values of the plain per-pixel definition",
          arguments: 0..<mappings.count)
    func matchesDefinition(_ index: Int) throws {
        let (name, mapping) = Self.mappings[index]
        let source = try Self.blocks(PixelSize(width: 37, height: 23))
        let size = PixelSize(width: 71, height: 53)
        let canvas = try Canvas(size: size)
        canvas.drawProjected(source, mapping: mapping)
        let expected = Self.reference(source.rasterImage(), on: size, mapping: mapping)
        let drawn = canvas.rasterImage()
        var mismatches = 0, covered = 0
        var firstMismatch = ""
        for (i, word) in expected.enumerated() {
            let a = word >> 24
            let rgba: [UInt8] = a == 0 ? [0, 0, 0, 0] : [
                a == 255 ? UInt8(word >> 16 & 0xFF) : Canvas.unpremultiply(word >> 16 & 0xFF, a),
                a == 255 ? UInt8(word >> 8 & 0xFF) : Canvas.unpremultiply(word >> 8 & 0xFF, a),
                a == 255 ? UInt8(word & 0xFF) : Canvas.unpremultiply(word & 0xFF, a), UInt8(a)]
            if a > 0 { covered += 1 }
            if Array(drawn.bytes[i * 4..<i * 4 + 4]) != rgba {
                if mismatches == 0 { firstMismatch = "(\(i % size.width), \(i / size.width)): \(Array(drawn.bytes[i * 4..<i * 4 + 4])) for \(rgba)" }
                mismatches += 1
            }
        }
        #expect(covered > 100, "\(name): the mapping covers part of the canvas")
        #expect(mismatches == 0, "\(name): \(mismatches) pixels differ from the definition, first \(firstMismatch)")
    }

    @Test("a canvas drawing many projections reuses one scratch surface, grown only when needed")
    func scratchIsKept() throws {
        let source = try Self.blocks(PixelSize(width: 20, height: 20))
        let canvas = try Canvas(size: PixelSize(width: 64, height: 64))
        canvas.drawProjected(source, mapping: Homography([1, 0, 2, 0, 1, 2, 0, 0, 1]))
        let first = try #require(canvas.projectionScratch)
        canvas.drawProjected(source, mapping: Homography([0.5, 0, 30, 0, 0.5, 30, 0, 0, 1]))
        #expect(canvas.projectionScratch === first)
        canvas.drawProjected(source, mapping: Homography([2.5, 0, 0, 0, 2.5, 0, 0, 0, 1]))
        #expect(canvas.projectionScratch !== first)
        #expect((canvas.projectionScratch?.width ?? 0) >= 50)
    }
}
