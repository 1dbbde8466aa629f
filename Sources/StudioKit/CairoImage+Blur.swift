internal import CGtk
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
    public func blurredCrop(_ rect: Rect, radius: Int) -> CairoImage? {
        let x0 = max(0, Int(rect.minX.rounded(.down))), y0 = max(0, Int(rect.minY.rounded(.down)))
        let x1 = min(width, Int(rect.maxX.rounded(.up))), y1 = min(height, Int(rect.maxY.rounded(.up)))
        guard x1 > x0, y1 > y0, let data = cairo_image_surface_get_data(surface) else { return nil }
        let (w, h) = (x1 - x0, y1 - y0)
        let stride = Int(cairo_image_surface_get_stride(surface))
        cairo_surface_flush(surface)
        // Four planes of premultiplied channels; blurring premultiplied values keeps edges clean.
        var planes = [[UInt8]](repeating: [UInt8](repeating: 0, count: w * h), count: 4)
        for y in 0..<h {
            let row = data.advanced(by: (y0 + y) * stride + x0 * 4)
            for x in 0..<w {
                for c in 0..<4 { planes[c][y * w + x] = row[x * 4 + c] }
            }
        }
        var blur = BoxBlur()
        for c in 0..<4 {
            planes[c].withUnsafeMutableBufferPointer { plane in
                guard let base = plane.baseAddress else { return }
                for _ in 0..<3 { blur.pass(base, width: w, height: h, rowBytes: w, radius: max(1, radius), edges: .extended) }
            }
        }
        guard let result = CairoImage(width: w, height: h) else { return nil }
        result.withPixels { pixels, outStride in
            for y in 0..<h {
                for x in 0..<w {
                    for c in 0..<4 { pixels[y * outStride + x * 4 + c] = planes[c][y * w + x] }
                }
            }
        }
        return result
    }
}
