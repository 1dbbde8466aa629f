import Foundation

/// An indexed-colour palette made by median cut, and the mapping of pictures onto it (for GIF).
public struct ColorPalette: Sendable, Equatable {
    /// Up to 256 colours.
    public let colors: [RGB]

    /// The palette of at most `count` colours that best covers the pixels of `pictures`:
    /// median cut over a sample of their pixels (every `stride`-th pixel).
    public init(for pictures: [PixelBuffer], count: Int = 256, stride step: Int = 7) {
        var samples: [(UInt8, UInt8, UInt8)] = []
        for picture in pictures {
            var i = 0
            let bytes = picture.bytes
            while i + 2 < bytes.count {
                samples.append((bytes[i], bytes[i + 1], bytes[i + 2]))
                i += 3 * max(1, step)
            }
        }
        colors = ColorPalette.medianCut(samples, count: max(1, min(256, count)))
    }

    public init(colors: [RGB]) {
        self.colors = Array(colors.prefix(256))
    }

    private static func medianCut(_ samples: [(UInt8, UInt8, UInt8)], count: Int) -> [RGB] {
        guard !samples.isEmpty else { return [RGB(0, 0, 0)] }
        var boxes: [[(UInt8, UInt8, UInt8)]] = [samples]
        func extent(_ box: [(UInt8, UInt8, UInt8)]) -> (channel: Int, range: Int) {
            var low = [255, 255, 255], high = [0, 0, 0]
            for p in box {
                let v = [Int(p.0), Int(p.1), Int(p.2)]
                for c in 0..<3 { low[c] = min(low[c], v[c]); high[c] = max(high[c], v[c]) }
            }
            let ranges = (0..<3).map { high[$0] - low[$0] }
            let channel = ranges.firstIndex(of: ranges.max() ?? 0) ?? 0
            return (channel, ranges[channel])
        }
        while boxes.count < count {
            // Split the box with the widest colour range (ties: the most populous).
            guard let (index, cut) = boxes.enumerated()
                .map({ ($0.offset, extent($0.element)) })
                .filter({ $0.1.range > 0 && boxes[$0.0].count > 1 })
                .max(by: { ($0.1.range, boxes[$0.0].count) < ($1.1.range, boxes[$1.0].count) }) else { break }
            var box = boxes[index]
            box.sort { a, b in
                switch cut.channel {
                case 0: return a.0 < b.0
                case 1: return a.1 < b.1
                default: return a.2 < b.2
                }
            }
            let middle = box.count / 2
            boxes[index] = Array(box[..<middle])
            boxes.append(Array(box[middle...]))
        }
        return boxes.map { box in
            var sum = (0, 0, 0)
            for p in box { sum.0 += Int(p.0); sum.1 += Int(p.1); sum.2 += Int(p.2) }
            let n = max(1, box.count)
            return RGB(UInt8(sum.0 / n), UInt8(sum.1 / n), UInt8(sum.2 / n))
        }
    }

    /// The palette index of every pixel, with a light 4×4 ordered dither (stable from frame to
    /// frame, unlike error diffusion, so animations do not shimmer).
    public func indices(for picture: PixelBuffer, dither: Bool = true) -> [UInt8] {
        var cache = [Int16](repeating: -1, count: 32 * 32 * 32)
        let bayer: [Int] = [0, 8, 2, 10, 12, 4, 14, 6, 3, 11, 1, 9, 15, 7, 13, 5]
        var out = [UInt8](repeating: 0, count: picture.width * picture.height)
        picture.bytes.withUnsafeBufferPointer { bytes in
            for y in 0..<picture.height {
                for x in 0..<picture.width {
                    let i = (y * picture.width + x) * 3
                    let offset = dither ? (bayer[(y & 3) * 4 + (x & 3)] - 8) / 2 : 0
                    let r = min(255, max(0, Int(bytes[i]) + offset))
                    let g = min(255, max(0, Int(bytes[i + 1]) + offset))
                    let b = min(255, max(0, Int(bytes[i + 2]) + offset))
                    let key = (r >> 3) << 10 | (g >> 3) << 5 | (b >> 3)
                    if cache[key] < 0 { cache[key] = Int16(nearest(r, g, b)) }
                    out[y * picture.width + x] = UInt8(cache[key])
                }
            }
        }
        return out
    }

    private func nearest(_ r: Int, _ g: Int, _ b: Int) -> Int {
        var best = 0, bestDistance = Int.max
        for (i, c) in colors.enumerated() {
            let dr = r - Int(c.r), dg = g - Int(c.g), db = b - Int(c.b)
            let d = 2 * dr * dr + 4 * dg * dg + 3 * db * db
            if d < bestDistance { (best, bestDistance) = (i, d) }
        }
        return best
    }
}
