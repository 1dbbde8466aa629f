import Foundation
import Testing
import ViewfinderTestSupport

@testable import Imaging

@Suite("Shadow enlargement")
struct ShadowEnlargeTests {
    /// The enlargement as its definition says it, tap by tap: output pixel k samples the source
    /// at (k + ½)/q − ½ (clamped to the region), with weights in 1/256ths rounded, the last
    /// column and row repeated; rounded to the nearest byte.
    static func reference(_ source: [UInt8], width: Int, height: Int, factor: Int, outWidth: Int, outHeight: Int,
                          skipping: (x: Int, y: Int)) -> [UInt8] {
        func position(_ k: Int, limit: Int) -> (Int, UInt32) {
            let u = min(max((Double(k) + 0.5) / Double(factor) - 0.5, 0), Double(limit - 1))
            let index = min(Int(u), max(0, limit - 2))
            return (index, UInt32(((u - Double(index)) * 256).rounded()))
        }
        var out = [UInt8](repeating: 0, count: outWidth * outHeight)
        for y in 0..<outHeight {
            let (r, g) = position(y + skipping.y, limit: height)
            let r2 = min(r + 1, height - 1)
            for x in 0..<outWidth {
                let (i, f) = position(x + skipping.x, limit: width)
                let j = min(i + 1, width - 1)
                let top = UInt32(source[r * width + i]) * (256 - f) + UInt32(source[r * width + j]) * f
                let bottom = UInt32(source[r2 * width + i]) * (256 - f) + UInt32(source[r2 * width + j]) * f
                out[y * outWidth + x] = UInt8((top * (256 - g) + bottom * g + 32768) >> 16)
            }
        }
        return out
    }

    @Test("interpolating each source row once gives the bytes of four taps per pixel",
          arguments: [(2, 0, 0), (4, 0, 0), (2, 3, 5), (4, 7, 2), (3, 1, 1)])
    func matchesDefinition(_ factor: Int, _ skipX: Int, _ skipY: Int) {
        var random = SplitMix64(seed: UInt64(factor * 100 + skipX * 10 + skipY))
        for (width, height) in [(23, 17), (1, 5), (6, 1), (2, 2)] {
            let source = (0..<(width * height)).map { _ in UInt8.random(in: 0...255, using: &random) }
            let outWidth = max(1, width * factor - skipX), outHeight = max(1, height * factor - skipY)
            // The source region and the target sit inside larger buffers, at offsets, as in a scratch surface.
            let (inStride, outStride) = (width + 5, outWidth + 3)
            var input = [UInt8](repeating: 0xAA, count: inStride * (height + 4))
            for y in 0..<height { for x in 0..<width { input[(y + 2) * inStride + x + 3] = source[y * width + x] } }
            var output = [UInt8](repeating: 0x55, count: outStride * (outHeight + 2))
            var columns: [(index: Int, weight: UInt32)] = [], rows: [UInt32] = []
            input.withUnsafeBufferPointer { input in
                output.withUnsafeMutableBufferPointer { output in
                    guard let inBase = input.baseAddress, let outBase = output.baseAddress else { return }
                    ShadowScratch.enlarge((x: 3, y: 2, width: width, height: height), of: inBase, stride: inStride, by: factor,
                                          into: (x: 1, y: 1, width: outWidth, height: outHeight), of: outBase, stride: outStride,
                                          skipping: (x: skipX, y: skipY), columns: &columns, rows: &rows)
                }
            }
            let expected = Self.reference(source, width: width, height: height, factor: factor, outWidth: outWidth,
                                          outHeight: outHeight, skipping: (x: skipX, y: skipY))
            var wrong = 0
            for y in 0..<(outHeight + 2) {
                for x in 0..<outStride {
                    let inside = (1...outHeight).contains(y) && (1...outWidth).contains(x)
                    let want = inside ? expected[(y - 1) * outWidth + x - 1] : 0x55
                    if output[y * outStride + x] != want { wrong += 1 }
                }
            }
            #expect(wrong == 0, "\(width)×\(height) ×\(factor), skipping (\(skipX), \(skipY)): \(wrong) bytes differ")
        }
    }
}
