internal import CCairo
import Foundation
import ViewfinderCore

extension Canvas {
    /// Draws the blurred shadow of `rect` with rounded corners, displaced by `offset`, in
    /// `color` (whose alpha carries the shadow's opacity).
    ///
    /// `offset`, `rect` and `blurRadius` are in current coordinates, so the shadow turns and
    /// scales with the transform, as a Core Animation layer's shadow does. The blur is close to a
    /// Gaussian of standard deviation `blurRadius` (the usual reading of `shadowRadius`): the
    /// shape's coverage is drawn into an alpha-only surface and box-blurred three times with a
    /// box of radius r where r(r + 1) = σ² (three boxes of width 2r + 1 have that variance).
    /// Wide blurs (σ ≥ 4 device pixels) are computed at half or quarter resolution and
    /// stretched back bilinearly: nothing that fine survives such a blur, and it is 4–16 times
    /// less work.
    ///
    /// A blur wider than `maxBlurRadius` device pixels is drawn that wide and faded so that its
    /// centre is as strong as the wider blur's: the scratch memory follows the limit, not the
    /// radius (a radius of 5000 on a 100-pixel canvas would take a gigabyte).
    public func drawShadow(of rect: Rect, cornerRadius: Double = 0, offset: Point, blurRadius: Double, color: Color,
                           maxBlurRadius: Double = .infinity) {
        guard color.alpha > 0, rect.width > 0, rect.height > 0 else { return }
        let m = currentTransform
        guard !m.isDegenerate else { return }
        var sigma = max(0, blurRadius.isFinite ? blurRadius : 0) * abs(m.a * m.d - m.b * m.c).squareRoot()
        let shape = Rect(x: rect.minX + offset.x, y: rect.minY + offset.y, width: rect.width, height: rect.height)
        let p0 = m.apply(to: Point(x: shape.minX, y: shape.minY)), p1 = m.apply(to: Point(x: shape.maxX, y: shape.minY))
        let p2 = m.apply(to: Point(x: shape.minX, y: shape.maxY)), p3 = m.apply(to: Point(x: shape.maxX, y: shape.maxY))
        // Corners beyond what a Double holds cannot be turned into pixel indices.
        guard sigma.isFinite, [p0, p1, p2, p3].allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else { return }
        var color = color
        if sigma > maxBlurRadius, maxBlurRadius >= 0 {
            // The centre of a blurred w × h box is erf(w / 2√2σ) · erf(h / 2√2σ) of its colour.
            let width = max(p0.x, p1.x, p2.x, p3.x) - min(p0.x, p1.x, p2.x, p3.x)
            let height = max(p0.y, p1.y, p2.y, p3.y) - min(p0.y, p1.y, p2.y, p3.y)
            func centre(_ s: Double) -> Double { erf(width / (2 * 2.0.squareRoot() * s)) * erf(height / (2 * 2.0.squareRoot() * s)) }
            let limited = centre(maxBlurRadius)
            guard limited > 0 else { return }
            color = color.fading(by: min(1, centre(sigma) / limited))
            sigma = maxBlurRadius
            guard color.alpha > 0 else { return }
        }
        let reduction = sigma >= 16 ? 4 : sigma >= 4 ? 2 : 1
        let q = Double(reduction)
        let reducedSigma = sigma / q
        let box = Int((((1 + 4 * reducedSigma * reducedSigma).squareRoot() - 1) / 2).rounded())
        let pad = 3 * box + 2

        // In reduced pixels, only what can reach a visible pixel through the blur: at most
        // `pad` beyond the canvas.
        let (reducedWidth, reducedHeight) = ((size.width + reduction - 1) / reduction, (size.height + reduction - 1) / reduction)
        let x0 = Int(max(min(p0.x, p1.x, p2.x, p3.x) / q - Double(pad), Double(-pad)).rounded(.down))
        let y0 = Int(max(min(p0.y, p1.y, p2.y, p3.y) / q - Double(pad), Double(-pad)).rounded(.down))
        let x1 = Int(min(max(p0.x, p1.x, p2.x, p3.x) / q + Double(pad), Double(reducedWidth + pad)).rounded(.up))
        let y1 = Int(min(max(p0.y, p1.y, p2.y, p3.y) / q + Double(pad), Double(reducedHeight + pad)).rounded(.up))
        guard x0 < x1, y0 < y1 else { return }

        let scratch = shadowScratch(reduction: reduction, padding: pad)
        let margin = Double(scratch.padding)
        let region = (x: x0 + scratch.padding, y: y0 + scratch.padding, width: x1 - x0, height: y1 - y0)
        scratch.drawCoverage(region: region) { cr in
            var matrix = cairo_matrix_t(xx: m.a / q, yx: m.b / q, xy: m.c / q, yy: m.d / q,
                                        x0: m.tx / q + margin, y0: m.ty / q + margin)
            cairo_set_matrix(cr, &matrix)
            addRoundedRect(shape, radius: cornerRadius, to: cr)
            cairo_fill(cr)
        }
        if box > 0 {
            for _ in 0..<3 { scratch.boxBlur(region: region, radius: box) }
        }
        scratch.markDirty(region)
        // Cairo masks fast only with an unscaled A8 surface: bring a reduced blur back to full
        // resolution here (bilinear) rather than have Cairo scale it pixel by pixel.
        var mask = (scratch: scratch, region: region)
        var visible = (x0: x0 * reduction, y0: y0 * reduction, x1: x1 * reduction, y1: y1 * reduction)
        if reduction > 1 {
            // Only what lands on the canvas is enlarged: the full-resolution mask is the size of
            // the canvas, however far the blur reaches beyond it.
            visible = (max(visible.x0, 0), max(visible.y0, 0), min(visible.x1, size.width), min(visible.y1, size.height))
            guard visible.x0 < visible.x1, visible.y0 < visible.y1 else { return }
            let full = shadowScratch(reduction: 1, padding: 0)
            let fullRegion = (x: visible.x0 + full.padding, y: visible.y0 + full.padding,
                              width: visible.x1 - visible.x0, height: visible.y1 - visible.y0)
            full.enlarge(region, of: scratch, by: reduction, into: fullRegion,
                         skipping: (x: visible.x0 - x0 * reduction, y: visible.y0 - y0 * reduction))
            full.markDirty(fullRegion)
            mask = (full, fullRegion)
        }

        cairo_save(context)
        cairo_identity_matrix(context)
        cairo_rectangle(context, Double(visible.x0), Double(visible.y0), Double(visible.x1 - visible.x0), Double(visible.y1 - visible.y0))
        cairo_clip(context)
        setSource(color)
        cairo_mask_surface(context, mask.scratch.surface, Double(-mask.scratch.padding), Double(-mask.scratch.padding))
        cairo_restore(context)
    }

    /// The scratch surface for `reduction`, remade only when a wider blur than before needs a
    /// wider margin.
    private func shadowScratch(reduction: Int, padding: Int) -> ShadowScratch {
        if let scratch = shadowScratches[reduction], scratch.padding >= padding { return scratch }
        // Round the margin up so that slowly growing blurs do not remake it every frame.
        let scratch = ShadowScratch(canvas: size, reduction: reduction, padding: max(32, (padding + 31) / 32 * 32))
        shadowScratches[reduction] = scratch
        return scratch
    }
}

/// An alpha-only (A8) surface covering the canvas (at full, half or quarter resolution) plus a
/// margin on every side, where shadow
/// shapes are drawn and blurred, with the buffers the blur needs — all kept between frames.
final class ShadowScratch {
    let padding: Int
    let width: Int
    let height: Int
    let surface: OpaquePointer
    let context: OpaquePointer
    let stride: Int
    /// The blur and its scratch memory, kept between frames.
    private var blur = BoxBlur()
    /// Per output column of `enlarge`: the source column on the left and its weight (0…256).
    private var columns: [(index: Int, weight: UInt32)] = []
    /// Two source rows of `enlarge` interpolated along x (kept, grown when needed).
    private var interpolated: [UInt32] = []

    init(canvas: PixelSize, reduction: Int, padding: Int) {
        self.padding = padding
        width = (canvas.width + reduction - 1) / reduction + 2 * padding
        height = (canvas.height + reduction - 1) / reduction + 2 * padding
        // Cairo returns an "error surface" rather than nil on failure; drawing into one is a no-op.
        surface = cairo_image_surface_create(CAIRO_FORMAT_A8, Int32(width), Int32(height))
        context = cairo_create(surface)
        stride = Int(cairo_image_surface_get_stride(surface))
    }

    deinit {
        cairo_destroy(context)
        cairo_surface_destroy(surface)
    }

    /// Clears `region` and lets `draw` fill shapes (opaque) clipped to it, in device pixels.
    func drawCoverage(region: (x: Int, y: Int, width: Int, height: Int), _ draw: (OpaquePointer) -> Void) {
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else { return }
        cairo_save(context)
        cairo_set_operator(context, CAIRO_OPERATOR_SOURCE)
        cairo_rectangle(context, Double(region.x), Double(region.y), Double(region.width), Double(region.height))
        cairo_clip(context)
        cairo_set_source_rgba(context, 0, 0, 0, 0)
        cairo_paint(context)
        cairo_set_operator(context, CAIRO_OPERATOR_OVER)
        cairo_set_source_rgba(context, 0, 0, 0, 1)
        draw(context)
        cairo_restore(context)
        cairo_surface_flush(surface)
    }

    /// Tells Cairo that `region` was written directly.
    func markDirty(_ region: (x: Int, y: Int, width: Int, height: Int)) {
        cairo_surface_mark_dirty_rectangle(surface, Int32(region.x), Int32(region.y), Int32(region.width), Int32(region.height))
    }

    /// Fills `target` (in this surface) with `region` of `source` enlarged `factor` times,
    /// bilinearly, pixel centres aligned; beyond the region counts as its edge. `skipping`
    /// is where the target starts in the whole enlargement (when only part of it is needed).
    func enlarge(_ region: (x: Int, y: Int, width: Int, height: Int), of source: ShadowScratch, by factor: Int,
                 into target: (x: Int, y: Int, width: Int, height: Int), skipping: (x: Int, y: Int) = (0, 0)) {
        guard let input = cairo_image_surface_get_data(source.surface),
              let output = cairo_image_surface_get_data(surface) else { return }
        cairo_surface_flush(surface)
        Self.enlarge(region, of: input, stride: source.stride, by: factor, into: target, of: output, stride: stride,
                     skipping: skipping, columns: &columns, rows: &interpolated)
    }

    /// `enlarge(_:of:by:into:skipping:)` on raw A8 pixels (rows `stride` bytes apart), with the
    /// scratch arrays it keeps.
    static func enlarge(_ region: (x: Int, y: Int, width: Int, height: Int), of input: UnsafePointer<UInt8>, stride inStride: Int,
                        by factor: Int, into target: (x: Int, y: Int, width: Int, height: Int),
                        of output: UnsafeMutablePointer<UInt8>, stride outStride: Int, skipping: (x: Int, y: Int),
                        columns: inout [(index: Int, weight: UInt32)], rows interpolated: inout [UInt32]) {
        let q = Double(factor)
        // Output pixel k of the region samples the source at (k + ½)/q − ½, in 1/256ths.
        func position(_ k: Int, limit: Int) -> (index: Int, weight: UInt32) {
            let u = min(max((Double(k) + 0.5) / q - 0.5, 0), Double(limit - 1))
            let index = min(Int(u), max(0, limit - 2))
            return (index, UInt32(((u - Double(index)) * 256).rounded()))
        }
        columns.removeAll(keepingCapacity: true)
        for k in 0..<target.width { columns.append(position(k + skipping.x, limit: region.width)) }
        // Each source row is interpolated along x once, into one of two kept rows (an output
        // row blends two of them along y), rather than four taps per output pixel: the same
        // sums in the same order, so the same bytes.
        if interpolated.count < 2 * target.width { interpolated = [UInt32](repeating: 0, count: 2 * target.width) }
        let last = region.width - 1
        columns.withUnsafeBufferPointer { columns in
            interpolated.withUnsafeMutableBufferPointer { rows in
                guard let base = rows.baseAddress else { return }
                // Which source row each half of `rows` holds (−1: none yet).
                var held = (-1, -1)
                func row(_ r: Int) -> UnsafeMutablePointer<UInt32> {
                    if held.0 == r { return base }
                    if held.1 == r { return base + target.width }
                    // Rows are asked for in order, r then r or r + 1: fetching r + 1 keeps r's half,
                    // and fetching r drops whichever half is older.
                    let slot = held.0 == r - 1 ? 1 : 0
                    let into = base + slot * target.width
                    let line = input + (region.y + r) * inStride + region.x
                    for x in 0..<target.width {
                        let (i, f) = columns[x]
                        let j = Swift.min(i &+ 1, last)
                        into[x] = UInt32(line[i]) &* (256 &- f) &+ UInt32(line[j]) &* f
                    }
                    if slot == 0 { held.0 = r } else { held.1 = r }
                    return into
                }
                for k in 0..<target.height {
                    let (r, g) = position(k + skipping.y, limit: region.height)
                    let top = row(r), bottom = row(Swift.min(r + 1, region.height - 1))
                    let out = output + (target.y + k) * outStride + target.x
                    for x in 0..<target.width {
                        out[x] = UInt8(truncatingIfNeeded: (top[x] &* (256 &- g) &+ bottom[x] &* g &+ 32768) >> 16)
                    }
                }
            }
        }
    }

    /// One horizontal and one vertical box pass of `radius` over `region`; outside the region
    /// counts as transparent (the region has a margin wider than three passes reach).
    func boxBlur(region: (x: Int, y: Int, width: Int, height: Int), radius: Int) {
        guard let data = cairo_image_surface_get_data(surface) else { return }
        blur.pass(data + region.y * stride + region.x, width: region.width, height: region.height,
                  rowBytes: stride, radius: radius, edges: .transparent)
    }
}
