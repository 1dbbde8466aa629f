internal import CGtk
import Imaging
import ViewfinderCore

extension CairoImage {
    /// A transparent picture of `width` × `height` pixels.
    public convenience init?(width: Int, height: Int) {
        guard width > 0, height > 0,
              let made = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)),
              cairo_surface_status(made) == CAIRO_STATUS_SUCCESS else { return nil }
        self.init(surface: made, width: width, height: height)
    }

    /// Lends the pixels (premultiplied ARGB32 words, rows `stride` bytes apart) for writing.
    func withPixels(_ body: (UnsafeMutablePointer<UInt8>, Int) -> Void) {
        guard let data = cairo_image_surface_get_data(surface) else { return }
        cairo_surface_flush(surface)
        body(data, Int(cairo_image_surface_get_stride(surface)))
        cairo_surface_mark_dirty(surface)
    }

    /// The part of the picture under `rect` (pixels, clamped to the picture), blurred by three
    /// box passes each way — close to a Gaussian of σ ≈ radius — for a frosted backdrop.
    ///
    /// A blur that wide keeps no detail finer than a few pixels, so the crop is first shrunk by
    /// `radius / 2` (a quarter for σ = 8) and blurred there with the radius shrunk alike: a
    /// sixteenth of the work, which keeps a blurred whole window within a frame. The result is
    /// that small picture, with `tint` laid over it; drawing it into `rect` scales it back up
    /// smoothly, in one paint.
    public func blurredCrop(_ rect: Rect, radius: Int, tint: RGBA? = nil) -> CairoImage? {
        let x0 = max(0, Int(rect.minX.rounded(.down))), y0 = max(0, Int(rect.minY.rounded(.down)))
        let x1 = min(width, Int(rect.maxX.rounded(.up))), y1 = min(height, Int(rect.maxY.rounded(.up)))
        guard x1 > x0, y1 > y0 else { return nil }
        let factor = max(1, radius / 2)
        let (w, h) = (max(1, (x1 - x0 + factor - 1) / factor), max(1, (y1 - y0 + factor - 1) / factor))
        guard let result = CairoImage(width: w, height: h), let cairo = cairo_create(result.surface) else { return nil }
        // Cairo's good filter averages the source pixels under each one when shrinking.
        cairo_scale(cairo, 1 / Double(factor), 1 / Double(factor))
        cairo_set_source_surface(cairo, surface, -Double(x0), -Double(y0))
        if let pattern = cairo_get_source(cairo) {
            cairo_pattern_set_filter(pattern, CAIRO_FILTER_GOOD)
            cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
        }
        cairo_paint(cairo)
        cairo_destroy(cairo)
        let shrunk = max(1, radius / factor)
        result.withPixels { pixels, stride in
            // Four planes of premultiplied channels; blurring premultiplied values keeps edges clean.
            var planes = [UInt8](repeating: 0, count: 4 * w * h)
            for y in 0..<h {
                for x in 0..<w {
                    for c in 0..<4 { planes[c * w * h + y * w + x] = pixels[y * stride + x * 4 + c] }
                }
            }
            var blur = BoxBlur()
            planes.withUnsafeMutableBufferPointer { all in
                guard let base = all.baseAddress else { return }
                for c in 0..<4 {
                    for _ in 0..<3 { blur.pass(base + c * w * h, width: w, height: h, rowBytes: w, radius: shrunk, edges: .extended) }
                }
            }
            for y in 0..<h {
                for x in 0..<w {
                    for c in 0..<4 { pixels[y * stride + x * 4 + c] = planes[c * w * h + y * w + x] }
                }
            }
        }
        if let tint { result.draw { $0.paint(tint) } }
        return result
    }
}

extension CairoImage {
    /// A transparent picture `width` × `height` that `draw` paints once, off screen (a picture
    /// cached to be drawn many times, or a drawing read back pixel by pixel); nil for an empty
    /// size or when Cairo cannot make it.
    public static func drawn(width: Int, height: Int, _ draw: (inout CairoContext) -> Void) -> CairoImage? {
        guard let image = CairoImage(width: width, height: height) else { return nil }
        image.draw(draw)
        return image
    }

    /// Paints over the picture with `body` (what `drawn` and a blur's tint draw with).
    func draw(_ body: (inout CairoContext) -> Void) {
        guard let cairo = cairo_create(surface) else { return }
        var context = CairoContext(cairo: cairo)
        body(&context)
        cairo_destroy(cairo)
        cairo_surface_flush(surface)
    }

    /// The pixel at (`x`, `y`) as straight (not premultiplied) colour, nil outside the picture
    /// (for tests that read a drawing back).
    func pixel(x: Int, y: Int) -> RGBA? {
        guard (0..<width).contains(x), (0..<height).contains(y), let data = cairo_image_surface_get_data(surface) else { return nil }
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        let word = UnsafeRawPointer(data + y * stride + x * 4).loadUnaligned(as: UInt32.self)
        let alpha = Double(word >> 24) / 255
        func channel(_ shift: UInt32) -> Double {
            alpha == 0 ? 0 : min(1, Double(word >> shift & 0xFF) / 255 / alpha)
        }
        return RGBA(red: channel(16), green: channel(8), blue: channel(0), alpha: alpha)
    }
}
