import Foundation

/// An 8-bit RGB picture in memory, rows top to bottom, no padding.
///
/// This is the hand-off type between the engines: `MediaIO` decodes into it and `Imaging`
/// encodes from it, so neither needs to know the other.
public struct PixelBuffer: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// `width * height * 3` bytes, R G B.
    public private(set) var bytes: [UInt8]

    /// A picture filled with one colour.
    public init(width: Int, height: Int, fill: RGB = RGB(0, 0, 0)) {
        self.width = max(0, width)
        self.height = max(0, height)
        var bytes = [UInt8](repeating: 0, count: self.width * self.height * 3)
        if fill != RGB(0, 0, 0) {
            for i in stride(from: 0, to: bytes.count, by: 3) {
                bytes[i] = fill.r; bytes[i + 1] = fill.g; bytes[i + 2] = fill.b
            }
        }
        self.bytes = bytes
    }

    /// Wraps existing bytes; nil when the count does not match the size.
    public init?(width: Int, height: Int, bytes: [UInt8]) {
        guard width >= 0, height >= 0, bytes.count == width * height * 3 else { return nil }
        self.width = width
        self.height = height
        self.bytes = bytes
    }

    public var size: PixelSize { PixelSize(width: width, height: height) }

    /// Mean luma (0…255) over a 16×16 grid of samples: cheap enough for every preview frame.
    public var sampledLuma: Int {
        guard width > 0, height > 0 else { return 0 }
        var total = 0
        for row in 0..<16 {
            for column in 0..<16 {
                total += self[(column * 2 + 1) * width / 32, (row * 2 + 1) * height / 32].luma
            }
        }
        return total / 256
    }

    /// The picture averaged down by `factor` in each direction (each output pixel the mean of a
    /// factor × factor block; a partial block at the right or bottom edge is dropped). A factor
    /// of 1 or less, or one larger than the picture, returns it as it is.
    public func averaged(by factor: Int) -> PixelBuffer {
        guard factor > 1, width >= factor, height >= factor else { return self }
        let (w, h) = (width / factor, height / factor)
        var out = [UInt8](repeating: 0, count: w * h * 3)
        let area = factor * factor
        bytes.withUnsafeBufferPointer { src in
            for y in 0..<h {
                for x in 0..<w {
                    var sum = (0, 0, 0)
                    for dy in 0..<factor {
                        var p = ((y * factor + dy) * width + x * factor) * 3
                        for _ in 0..<factor {
                            sum.0 += Int(src[p]); sum.1 += Int(src[p + 1]); sum.2 += Int(src[p + 2])
                            p += 3
                        }
                    }
                    let o = (y * w + x) * 3
                    out[o] = UInt8((sum.0 + area / 2) / area)
                    out[o + 1] = UInt8((sum.1 + area / 2) / area)
                    out[o + 2] = UInt8((sum.2 + area / 2) / area)
                }
            }
        }
        return PixelBuffer(width: w, height: h, bytes: out) ?? self
    }

    /// The colour at (x, y); the caller keeps coordinates in range.
    public subscript(x: Int, y: Int) -> RGB {
        get {
            let i = (y * width + x) * 3
            return RGB(bytes[i], bytes[i + 1], bytes[i + 2])
        }
        set {
            let i = (y * width + x) * 3
            bytes[i] = newValue.r; bytes[i + 1] = newValue.g; bytes[i + 2] = newValue.b
        }
    }

    /// Fills a rectangle, clipped to the picture.
    public mutating func fill(x: Int, y: Int, width w: Int, height h: Int, with colour: RGB) {
        let x0 = max(0, x), y0 = max(0, y)
        let x1 = min(width, x + w), y1 = min(height, y + h)
        guard x0 < x1, y0 < y1 else { return }
        bytes.withUnsafeMutableBufferPointer { p in
            for row in y0..<y1 {
                var i = (row * width + x0) * 3
                for _ in x0..<x1 {
                    p[i] = colour.r; p[i + 1] = colour.g; p[i + 2] = colour.b
                    i += 3
                }
            }
        }
    }

    /// The picture turned clockwise by a quarter-turn multiple.
    public func rotated(_ rotation: Rotation) -> PixelBuffer {
        guard rotation != .none, width > 0, height > 0 else { return self }
        let outSize = rotation.apply(to: size)
        var out = [UInt8](repeating: 0, count: bytes.count)
        let (w, h, ow) = (width, height, outSize.width)
        bytes.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<h {
                    for x in 0..<w {
                        let (dx, dy): (Int, Int)
                        switch rotation {
                        case .clockwise90: (dx, dy) = (h - 1 - y, x)
                        case .upsideDown: (dx, dy) = (w - 1 - x, h - 1 - y)
                        case .clockwise270: (dx, dy) = (y, w - 1 - x)
                        case .none: (dx, dy) = (x, y)
                        }
                        let s = (y * w + x) * 3, d = (dy * ow + dx) * 3
                        dst[d] = src[s]; dst[d + 1] = src[s + 1]; dst[d + 2] = src[s + 2]
                    }
                }
            }
        }
        return PixelBuffer(width: outSize.width, height: outSize.height, bytes: out) ?? self
    }

    /// Direct access to the bytes for writers that fill whole pictures (decoders, generators).
    public mutating func withMutableBytes<T>(_ body: (inout UnsafeMutableBufferPointer<UInt8>) throws -> T) rethrows -> T {
        try bytes.withUnsafeMutableBufferPointer { try body(&$0) }
    }

    /// Copies `other` into this picture with its top-left corner at (x, y), clipped.
    public mutating func draw(_ other: PixelBuffer, atX x: Int, y: Int) {
        let x0 = max(0, x), x1 = min(width, x + other.width)
        guard x0 < x1 else { return }
        for row in max(0, y)..<min(height, y + other.height) {
            let src = ((row - y) * other.width + (x0 - x)) * 3
            let dst = (row * width + x0) * 3
            let count = (x1 - x0) * 3
            bytes.replaceSubrange(dst..<(dst + count), with: other.bytes[src..<(src + count)])
        }
    }
}

/// An 8-bit RGB colour.
public struct RGB: Sendable, Hashable {
    public var r: UInt8
    public var g: UInt8
    public var b: UInt8

    public init(_ r: UInt8, _ g: UInt8, _ b: UInt8) {
        self.r = r; self.g = g; self.b = b
    }

    /// Rec. 601 luma, 0...255.
    public var luma: Int { (299 * Int(r) + 587 * Int(g) + 114 * Int(b)) / 1000 }
}
