internal import CCairo
import Foundation
import ViewfinderCore

extension Canvas {
    /// The picture as RGB, composited over the opaque colour `background` (its alpha ignored),
    /// ready for a video encoder or a JPEG.
    public func pixelBuffer(over background: Color = .black) -> PixelBuffer {
        var picture = PixelBuffer(width: size.width, height: size.height)
        let over = Self.compositor(over: background)
        let width = size.width
        picture.withMutableBytes { out in
            let out = out.baseAddress!
            forEachRow { y, row in
                var o = out + y * width * 3
                for x in 0..<width {
                    let pixel = over(row[x])
                    o[0] = UInt8(truncatingIfNeeded: pixel >> 16)
                    o[1] = UInt8(truncatingIfNeeded: pixel >> 8)
                    o[2] = UInt8(truncatingIfNeeded: pixel)
                    o += 3
                }
            }
        }
        return picture
    }

    /// The picture composited over the opaque colour `background` and converted to BT.709
    /// video-range 4:2:0 in one pass straight from the canvas's pixels (no copy, no RGB
    /// picture, no scaler): what an H.264 encoder takes, made on the thread that drew it.
    public func planarPicture(over background: Color = .black) -> PlanarPicture {
        let over = Self.compositor(over: background)
        let width = size.width
        cairo_surface_flush(surface)
        guard let data = cairo_image_surface_get_data(surface) else {
            return PlanarPicture(width: width, height: size.height) { _, row in row.update(repeating: over(0), count: width) }
        }
        let stride = Int(cairo_image_surface_get_stride(surface))
        return PlanarPicture(width: width, height: size.height) { y, row in
            let source = UnsafeRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<width { row[x] = over(source[x]) }
        }
    }

    /// Premultiplied ARGB32 over an opaque colour, c + bg·(1 − a), as 0x··RRGGBB.
    fileprivate struct Compositor: Sendable {
        let br, bg, bb: UInt32
        /// What a fully transparent pixel (0) becomes: the background itself, the commonest
        /// pixel of most frames, worked out once.
        private let clear: UInt32

        init(br: UInt32, bg: UInt32, bb: UInt32) {
            (self.br, self.bg, self.bb) = (br, bg, bb)
            clear = Premultiplied.scale(br, by: 255) << 16 | Premultiplied.scale(bg, by: 255) << 8 | Premultiplied.scale(bb, by: 255)
        }

        @inline(__always)
        func callAsFunction(_ pixel: UInt32) -> UInt32 {
            guard pixel != 0 else { return clear }
            let a = pixel >> 24
            guard a != 255 else { return pixel & 0x00FF_FFFF }
            let inverse = 255 - a
            return ((pixel >> 16 & 0xFF) + Premultiplied.scale(br, by: inverse)) << 16
                | ((pixel >> 8 & 0xFF) + Premultiplied.scale(bg, by: inverse)) << 8
                | ((pixel & 0xFF) + Premultiplied.scale(bb, by: inverse))
        }
    }

    fileprivate static func compositor(over background: Color) -> Compositor {
        Compositor(br: byte(background.red), bg: byte(background.green), bb: byte(background.blue))
    }

    /// The picture as RGBA with straight (un-premultiplied) alpha, ready for a PNG.
    public func rasterImage() -> RasterImage {
        var bytes = [UInt8](repeating: 0, count: size.width * size.height * 4)
        forEachRow { y, row in
            bytes.withUnsafeMutableBufferPointer { out in
                var o = y * size.width * 4
                for x in 0..<size.width {
                    let pixel = row[x]
                    let a = pixel >> 24
                    if a == 255 {
                        out[o] = UInt8(pixel >> 16 & 0xFF); out[o + 1] = UInt8(pixel >> 8 & 0xFF); out[o + 2] = UInt8(pixel & 0xFF)
                    } else if a > 0 {
                        out[o] = Self.unpremultiply(pixel >> 16 & 0xFF, a)
                        out[o + 1] = Self.unpremultiply(pixel >> 8 & 0xFF, a)
                        out[o + 2] = Self.unpremultiply(pixel & 0xFF, a)
                    }
                    out[o + 3] = UInt8(a)
                    o += 4
                }
            }
        }
        return RasterImage(width: size.width, height: size.height, channels: 4, bytes: bytes)!
    }

    /// Calls `body` with each row of the surface as native-endian ARGB words (premultiplied).
    private func forEachRow(_ body: (Int, UnsafePointer<UInt32>) -> Void) {
        cairo_surface_flush(surface)
        guard let data = cairo_image_surface_get_data(surface) else { return }
        let stride = Int(cairo_image_surface_get_stride(surface))
        for y in 0..<size.height {
            body(y, UnsafeRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self))
        }
    }

    private static func byte(_ value: Double) -> UInt32 {
        UInt32((unit(value) * 255).rounded())
    }

    static func unpremultiply(_ value: UInt32, _ alpha: UInt32) -> UInt8 {
        UInt8(min(255, (value * 255 + alpha / 2) / alpha))
    }
}
