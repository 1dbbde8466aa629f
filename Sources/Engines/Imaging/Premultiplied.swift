import Foundation
import ViewfinderCore

/// Straight alpha to premultiplied, as Cairo (and GTK's textures) keep pixels.
public enum Premultiplied {
    /// `value · alpha / 255`, rounded to the nearest byte.
    @inlinable @inline(__always)
    public static func scale(_ value: UInt32, by alpha: UInt32) -> UInt32 {
        let t = value &* alpha &+ 128
        return (t &+ (t >> 8)) >> 8
    }
}

extension RasterImage {
    /// Writes the picture as Cairo's ARGB32 — native-endian 32-bit words, alpha premultiplied —
    /// into `data`, rows `rowBytes` apart. Grey, grey with alpha, RGB and RGBA are read.
    public func writePremultipliedARGB32(to data: UnsafeMutableRawPointer, rowBytes: Int) {
        let (width, height, channels) = (self.width, self.height, self.channels)
        bytes.withUnsafeBufferPointer { source in
            for y in 0..<height {
                let row = (data + y * rowBytes).assumingMemoryBound(to: UInt32.self)
                var s = y * width * channels
                for x in 0..<width {
                    let r, g, b, a: UInt32
                    switch channels {
                    case 1: (r, g, b, a) = (UInt32(source[s]), UInt32(source[s]), UInt32(source[s]), 255)
                    case 2: (r, g, b, a) = (UInt32(source[s]), UInt32(source[s]), UInt32(source[s]), UInt32(source[s + 1]))
                    case 3: (r, g, b, a) = (UInt32(source[s]), UInt32(source[s + 1]), UInt32(source[s + 2]), 255)
                    default: (r, g, b, a) = (UInt32(source[s]), UInt32(source[s + 1]), UInt32(source[s + 2]), UInt32(source[s + 3]))
                    }
                    s += channels
                    row[x] = a << 24 | Premultiplied.scale(r, by: a) << 16 | Premultiplied.scale(g, by: a) << 8 | Premultiplied.scale(b, by: a)
                }
            }
        }
    }
}
