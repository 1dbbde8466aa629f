import Foundation
import Testing
import ViewfinderCore

@testable import Imaging

@Suite("Box blur")
struct BoxBlurTests {
    /// One pass computed the slow way: every window summed from scratch.
    static func reference(_ plane: [UInt8], width: Int, height: Int, radius: Int, edges: BoxBlur.Edges) -> [UInt8] {
        let n = UInt32(2 * radius + 1)
        let reciprocal = (65536 + n / 2) / n
        func average(_ sum: UInt32) -> UInt8 { UInt8(truncatingIfNeeded: (sum * reciprocal + 32768) >> 16) }
        func sample(_ values: [UInt8], _ i: Int, _ count: Int) -> UInt32 {
            if i >= 0 && i < count { return UInt32(values[i]) }
            return edges == .extended ? UInt32(values[min(max(i, 0), count - 1)]) : 0
        }
        var horizontal = plane
        for y in 0..<height {
            let row = Array(plane[y * width..<(y + 1) * width])
            for x in 0..<width {
                horizontal[y * width + x] = average((-radius...radius).reduce(0) { $0 + sample(row, x + $1, width) })
            }
        }
        var out = horizontal
        for x in 0..<width {
            let column = (0..<height).map { horizontal[$0 * width + x] }
            for y in 0..<height {
                out[y * width + x] = average((-radius...radius).reduce(0) { $0 + sample(column, y + $1, height) })
            }
        }
        return out
    }

    @Test("one bright pixel spreads into a box; nothing beyond it", arguments: [BoxBlur.Edges.transparent, .extended])
    func spread(_ edges: BoxBlur.Edges) {
        var plane = [UInt8](repeating: 0, count: 81)
        plane[40] = 255
        var blur = BoxBlur()
        plane.withUnsafeMutableBufferPointer { blur.pass($0.baseAddress!, width: 9, height: 9, rowBytes: 9, radius: 1, edges: edges) }
        for y in 0..<9 {
            for x in 0..<9 {
                #expect(plane[y * 9 + x] == ((3...5).contains(x) && (3...5).contains(y) ? 28 : 0), "(\(x), \(y))")
            }
        }
    }

    @Test("a constant picture stays constant with extended edges, and darkens at transparent ones")
    func edges() {
        var extended = [UInt8](repeating: 100, count: 40), transparent = extended
        var blur = BoxBlur()
        for _ in 0..<3 {
            extended.withUnsafeMutableBufferPointer { blur.pass($0.baseAddress!, width: 8, height: 5, rowBytes: 8, radius: 2, edges: .extended) }
            transparent.withUnsafeMutableBufferPointer { blur.pass($0.baseAddress!, width: 8, height: 5, rowBytes: 8, radius: 2, edges: .transparent) }
        }
        #expect(extended.allSatisfy { $0 == 100 })
        #expect(transparent[0] < 60 && transparent[0] > 0)
    }

    @Test("the running sums equal windows summed one by one, on random planes and radii larger than the plane",
          arguments: [(13, 7, 1), (13, 7, 3), (5, 9, 6), (1, 1, 2), (32, 3, 4)])
    func matchesReference(_ width: Int, _ height: Int, _ radius: Int) {
        var state: UInt64 = 0x9E3779B97F4A7C15 &* UInt64(width * 31 + height * 7 + radius)
        let plane = (0..<(width * height)).map { _ -> UInt8 in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
        for edges in [BoxBlur.Edges.transparent, .extended] {
            // Blur a copy that sits inside wider rows (rowBytes > width), as regions of a surface do.
            let rowBytes = width + 3
            var surface = [UInt8](repeating: 7, count: rowBytes * height)
            for y in 0..<height { for x in 0..<width { surface[y * rowBytes + x] = plane[y * width + x] } }
            var blur = BoxBlur()
            surface.withUnsafeMutableBufferPointer { blur.pass($0.baseAddress!, width: width, height: height, rowBytes: rowBytes, radius: radius, edges: edges) }
            let blurred = (0..<height).flatMap { y in surface[y * rowBytes..<y * rowBytes + width] }
            #expect(blurred == Self.reference(plane, width: width, height: height, radius: radius, edges: edges), "\(edges)")
            #expect((0..<height).allSatisfy { y in surface[y * rowBytes + width..<(y + 1) * rowBytes].allSatisfy { $0 == 7 } }, "outside the region untouched")
        }
    }

    @Test("premultiplied ARGB32 words from grey+alpha and RGBA, rounded")
    func premultiplied() throws {
        #expect(Premultiplied.scale(255, by: 128) == 128)
        #expect(Premultiplied.scale(100, by: 0) == 0)
        #expect(Premultiplied.scale(200, by: 255) == 200)
        #expect(Premultiplied.scale(101, by: 127) == 50)   // 50.3
        let rgba = try #require(RasterImage(width: 2, height: 1, channels: 4, bytes: [255, 128, 0, 128, 10, 20, 30, 255]))
        var words = [UInt32](repeating: 0, count: 2)
        words.withUnsafeMutableBytes { rgba.writePremultipliedARGB32(to: $0.baseAddress!, rowBytes: 8) }
        #expect(words == [0x8080_4000, 0xFF0A_141E])
        let grey = try #require(RasterImage(width: 1, height: 1, channels: 2, bytes: [200, 64]))
        var word: [UInt32] = [0]
        word.withUnsafeMutableBytes { grey.writePremultipliedARGB32(to: $0.baseAddress!, rowBytes: 4) }
        #expect(word == [0x4032_3232])
    }
}
