import Foundation

/// Frames that carry their own index, readable by eye and by machine.
///
/// The top fifth of the picture is a bar of 16 cells: cell 0 is white and cell 1 black (the
/// reference levels), cells 2...15 hold the index in binary, most significant bit first, white
/// for 1. Below it the index is drawn in large seven-segment digits over a moving gradient.
/// The bar survives lossy coding and scaling, so tests can check which frame a decoder returned,
/// and the sample clip shows a visible counter.
public enum FrameIndexPattern {
    /// The largest index the bar can hold.
    public static let maximumIndex = (1 << 14) - 1

    static let cellCount = 16

    /// Draws frame `index` at `size`.
    public static func render(index: Int, size: PixelSize) -> PixelBuffer {
        let (w, h) = (max(size.width, 16), max(size.height, 10))
        var picture = PixelBuffer(width: w, height: h)
        drawBackground(&picture, index: index)
        let band = bandHeight(h)
        for cell in 0..<cellCount {
            let on: Bool
            switch cell {
            case 0: on = true
            case 1: on = false
            default: on = (index >> (cellCount - 1 - cell)) & 1 == 1
            }
            let x0 = cell * w / cellCount, x1 = (cell + 1) * w / cellCount
            picture.fill(x: x0, y: 0, width: x1 - x0, height: band,
                         with: on ? RGB(255, 255, 255) : RGB(0, 0, 0))
        }
        drawCounter(&picture, index: index, top: band)
        return picture
    }

    /// Reads the index back, or nil when the bar is not where it should be (wrong orientation,
    /// not a pattern frame, or too damaged).
    public static func readIndex(from picture: PixelBuffer) -> Int? {
        let (w, h) = (picture.width, picture.height)
        guard w >= cellCount, h >= 10 else { return nil }
        let band = bandHeight(h)
        var levels: [Int] = []
        for cell in 0..<cellCount {
            let x0 = cell * w / cellCount, x1 = (cell + 1) * w / cellCount
            let cw = x1 - x0
            let sx0 = x0 + cw / 4, sx1 = max(sx0 + 1, x1 - cw / 4)
            let sy0 = band / 4, sy1 = max(sy0 + 1, band - band / 4)
            var sum = 0, count = 0
            for y in sy0..<sy1 {
                for x in sx0..<sx1 {
                    sum += picture[x, y].luma
                    count += 1
                }
            }
            levels.append(sum / max(count, 1))
        }
        let white = levels[0], black = levels[1]
        guard white - black >= 96 else { return nil }
        let threshold = (white + black) / 2
        var index = 0
        for cell in 2..<cellCount {
            index = (index << 1) | (levels[cell] >= threshold ? 1 : 0)
        }
        return index
    }

    static func bandHeight(_ height: Int) -> Int { max(4, height / 5) }

    private static func drawBackground(_ picture: inout PixelBuffer, index: Int) {
        let (w, h) = (picture.width, picture.height)
        let shift = index * 4
        picture.withRows { row, y in
            for x in 0..<w {
                let d = (x + y + shift) % (2 * (w + h))
                let ramp = d < (w + h) ? d : 2 * (w + h) - d
                let v = 40 + 120 * ramp / max(w + h, 1)
                row[x * 3] = UInt8(v)
                row[x * 3 + 1] = UInt8(60 + (v / 2))
                row[x * 3 + 2] = UInt8(150 - v / 2)
            }
        }
    }

    // Segments a b c d e f g as (x, y, horizontal) on a 1×2 cell grid.
    private static let digitSegments: [[Int]] = [
        [0, 1, 2, 3, 4, 5], [1, 2], [0, 1, 3, 4, 6], [0, 1, 2, 3, 6], [1, 2, 5, 6],
        [0, 2, 3, 5, 6], [0, 2, 3, 4, 5, 6], [0, 1, 2], [0, 1, 2, 3, 4, 5, 6], [0, 1, 2, 3, 5, 6],
    ]

    private static func drawCounter(_ picture: inout PixelBuffer, index: Int, top: Int) {
        let digits = String(max(0, index)).compactMap { $0.wholeNumberValue }
        let available = picture.height - top
        let dh = available * 3 / 5
        let dw = dh / 2
        let t = max(1, dh / 10)
        let gap = max(1, dw / 3)
        guard dh >= 10 else { return }
        let totalWidth = digits.count * dw + (digits.count - 1) * gap
        var x = (picture.width - totalWidth) / 2
        let y = top + (available - dh) / 2
        picture.fill(x: x - gap, y: y - gap, width: totalWidth + 2 * gap, height: dh + 2 * gap,
                     with: RGB(16, 16, 16))
        for digit in digits {
            for segment in digitSegments[digit] {
                let half = dh / 2
                switch segment {
                case 0: picture.fill(x: x, y: y, width: dw, height: t, with: RGB(255, 220, 0))
                case 1: picture.fill(x: x + dw - t, y: y, width: t, height: half, with: RGB(255, 220, 0))
                case 2: picture.fill(x: x + dw - t, y: y + half, width: t, height: dh - half, with: RGB(255, 220, 0))
                case 3: picture.fill(x: x, y: y + dh - t, width: dw, height: t, with: RGB(255, 220, 0))
                case 4: picture.fill(x: x, y: y + half, width: t, height: dh - half, with: RGB(255, 220, 0))
                case 5: picture.fill(x: x, y: y, width: t, height: half, with: RGB(255, 220, 0))
                default: picture.fill(x: x, y: y + half - t / 2, width: dw, height: t, with: RGB(255, 220, 0))
                }
            }
            x += dw + gap
        }
    }
}

extension PixelBuffer {
    /// Calls `body` with each row's bytes and its y, for fast whole-picture writes.
    mutating func withRows(_ body: (UnsafeMutableBufferPointer<UInt8>, Int) -> Void) {
        let (w, h) = (width, height)
        withMutableBytes { all in
            for y in 0..<h {
                body(UnsafeMutableBufferPointer(rebasing: all[(y * w * 3)..<((y + 1) * w * 3)]), y)
            }
        }
    }
}
