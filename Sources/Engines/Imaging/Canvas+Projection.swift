internal import CCairo
import Foundation
import ViewfinderCore

extension Homography {
    /// The affine transform as a homography.
    public init(_ t: Canvas.Transform) {
        self.init([t.a, t.c, t.tx, t.b, t.d, t.ty, 0, 0, 1])
    }
}

extension Canvas {
    /// Draws `source`'s pixels through `mapping`, which takes a point in `source`'s pixels to a
    /// point in this canvas's pixels (device space: the current transform is not applied, the
    /// clip and any open group are). Each pixel covered is sampled bilinearly from `source`
    /// through the inverse mapping, premultiplied, then painted with `alpha`. Nothing is drawn
    /// when a corner of `source` maps behind the viewer (w ≤ 0).
    public func drawProjected(_ source: Canvas, mapping: Homography, alpha: Double = 1) {
        guard alpha > 0, let inverse = mapping.inverted else { return }
        let (sw, sh) = (Double(source.size.width), Double(source.size.height))
        func corners(_ e: Double) -> [(point: Point, w: Double)] {
            [Point(x: -e, y: -e), Point(x: sw + e, y: -e), Point(x: sw + e, y: sh + e), Point(x: -e, y: sh + e)].map { mapping.apply(to: $0) }
        }
        func inFront(_ corners: [(point: Point, w: Double)]) -> Bool { corners.allSatisfy { $0.w > 0 && $0.point.isFinite } }
        guard inFront(corners(0)) else { return }
        // Bilinear samples reach half a picture pixel beyond its edge (the antialiased rim): the
        // pixels touched are those the picture grown by that half pixel covers.
        let rim = corners(0.5)
        let corners = inFront(rim) ? rim : corners(0)
        let x0 = max(0, Int(corners.map(\.point.x).min()!.rounded(.down)))
        let y0 = max(0, Int(corners.map(\.point.y).min()!.rounded(.down)))
        let x1 = min(size.width, Int(corners.map(\.point.x).max()!.rounded(.up)))
        let y1 = min(size.height, Int(corners.map(\.point.y).max()!.rounded(.up)))
        guard x1 > x0, y1 > y0, let scratch = projectionScratch(fitting: x1 - x0, y1 - y0) else { return }
        let target = scratch.surface
        cairo_surface_flush(source.surface)
        cairo_surface_flush(target)
        guard let input = cairo_image_surface_get_data(source.surface), let output = cairo_image_surface_get_data(target) else { return }
        let inStride = Int(cairo_image_surface_get_stride(source.surface)) / 4
        let outStride = Int(cairo_image_surface_get_stride(target)) / 4
        for y in 0..<(y1 - y0) {
            (output + y * outStride * 4).initialize(repeating: 0, count: (x1 - x0) * 4)
        }
        let pixels = UnsafeRawPointer(input).assumingMemoryBound(to: UInt32.self)
        let out = UnsafeMutableRawPointer(output).assumingMemoryBound(to: UInt32.self)
        let (width, height) = (source.size.width, source.size.height)
        let h = inverse.m
        precondition(h.count == 9)
        let (h0, h3, h6) = (h[0], h[3], h[6])
        let (fw, fh) = (Double(width), Double(height))
        for y in y0..<y1 {
            let py = Double(y) + 0.5
            let row = out + (y - y0) * outStride
            // Along a row the mapping's numerators and denominator are linear in the pixel
            // centre X: nu = cu + h0·X, nv = cv + h3·X, nw = cw + h6·X.
            let cu = h[1] * py + h[2], cv = h[4] * py + h[5], cw = h[7] * py + h[8]
            // Each pixel's values are computed afresh (not stepped), so no rounding builds up
            // along a row: (h0·X + h1·Y) + h2, the plain formula's own order.
            let (au, av, aw) = (h[1] * py, h[4] * py, h[7] * py)
            let (bu, bv, bw) = (h[2], h[5], h[8])
            // Every test below is linear in X once multiplied by nw > 0, so the pixels that
            // sample the picture at all, and those whose four taps all lie inside it, are two
            // intervals found without visiting the others. They are widened (and the inner one
            // narrowed) by a pixel against rounding; the per-pixel tests stay where they decide.
            var outer = (low: -Double.infinity, high: Double.infinity)
            Self.keep(cw, h6, in: &outer)
            Self.keep(cu + 0.5 * cw, h0 + 0.5 * h6, in: &outer)
            Self.keep((fw + 0.5) * cw - cu, (fw + 0.5) * h6 - h0, in: &outer)
            Self.keep(cv + 0.5 * cw, h3 + 0.5 * h6, in: &outer)
            Self.keep((fh + 0.5) * cw - cv, (fh + 0.5) * h6 - h3, in: &outer)
            var inner = outer
            Self.keep(cu - 0.5 * cw, h0 - 0.5 * h6, in: &inner)
            Self.keep((fw - 0.5) * cw - cu, (fw - 0.5) * h6 - h0, in: &inner)
            Self.keep(cv - 0.5 * cw, h3 - 0.5 * h6, in: &inner)
            Self.keep((fh - 0.5) * cw - cv, (fh - 0.5) * h6 - h3, in: &inner)
            let first = Self.pixel(atLeast: outer.low, within: x0, x1, margin: -1)
            let end = Self.pixel(atLeast: outer.high, within: x0, x1, margin: 1)
            guard first < end else { continue }
            let innerFirst = min(max(Self.pixel(atLeast: inner.low, within: x0, x1, margin: 1), first), end)
            let innerEnd = max(min(Self.pixel(atLeast: inner.high, within: x0, x1, margin: -1), end), innerFirst)
            var x = first
            while x < end {
                let interior = x >= innerFirst && x < innerEnd
                let stop = interior ? innerEnd : (x < innerFirst ? innerFirst : end)
                if interior {
                    // Inside the span every tap lies in the picture (the bounds tests above),
                    // so the index arithmetic cannot overflow: it wraps rather than checks.
                    for i in x..<stop {
                        let cx = Double(i) + 0.5
                        let nu = h0 * cx + au + bu, nv = h3 * cx + av + bv, nw = h6 * cx + aw + bw
                        let u = nu / nw + 0.5, v = nv / nw + 0.5
                        // u and v are positive here, and scaling by 256 is exact: the whole part
                        // of 256u is 256·⌊u⌋ plus the weight ⌊256·(u − ⌊u⌋)⌋, one conversion each.
                        let fu = Int(u * 256), fv = Int(v * 256)
                        let tu = fu >> 8, tv = fv >> 8
                        let wu = UInt32(truncatingIfNeeded: fu & 255), wv = UInt32(truncatingIfNeeded: fv & 255)
                        let top = pixels + ((tv &- 1) &* inStride &+ (tu &- 1))
                        row[i &- x0] = Self.blend(top[0], top[1], top[inStride], top[inStride &+ 1], wu, wv)
                    }
                } else {
                    for i in x..<stop {
                        let cx = Double(i) + 0.5
                        let nu = h0 * cx + au + bu, nv = h3 * cx + av + bv, nw = h6 * cx + aw + bw
                        guard nw > 0 else { continue }
                        // Source pixel centres are at +0.5: shift so that (0, 0) is the first
                        // centre, then +1 so that the floor of a value above −1 is a truncation.
                        let u = nu / nw + 0.5, v = nv / nw + 0.5
                        guard u > 0, v > 0, u < fw + 1, v < fh + 1 else { continue }
                        let iu = Int(u) - 1, iv = Int(v) - 1
                        // Outside the picture counts as transparent, so the edges are antialiased.
                        let wu = UInt32((u - Double(iu + 1)) * 256), wv = UInt32((v - Double(iv + 1)) * 256)
                        let inU0 = iu >= 0, inU1 = iu + 1 < width, inV0 = iv >= 0, inV1 = iv + 1 < height
                        let p00 = inU0 && inV0 ? pixels[iv * inStride + iu] : 0
                        let p10 = inU1 && inV0 ? pixels[iv * inStride + iu + 1] : 0
                        let p01 = inU0 && inV1 ? pixels[(iv + 1) * inStride + iu] : 0
                        let p11 = inU1 && inV1 ? pixels[(iv + 1) * inStride + iu + 1] : 0
                        row[i - x0] = Self.blend(p00, p10, p01, p11, wu, wv)
                    }
                }
                x = stop
            }
        }
        cairo_surface_mark_dirty(target)
        cairo_save(context)
        cairo_identity_matrix(context)
        cairo_rectangle(context, Double(x0), Double(y0), Double(x1 - x0), Double(y1 - y0))
        cairo_clip(context)
        cairo_set_source_surface(context, target, Double(x0), Double(y0))
        cairo_paint_with_alpha(context, Self.unit(alpha))
        cairo_restore(context)
    }

    /// The kept projection surface, grown when it is smaller than `width` × `height`.
    private func projectionScratch(fitting width: Int, _ height: Int) -> ProjectionScratch? {
        if let kept = projectionScratch, kept.width >= width, kept.height >= height { return kept }
        let made = ProjectionScratch(width: max(width, projectionScratch?.width ?? 0),
                                     height: max(height, projectionScratch?.height ?? 0))
        projectionScratch = made
        return made
    }

    /// Narrows `interval` (of pixel centres X) to where f0 + f1·X > 0.
    @inline(__always)
    private static func keep(_ f0: Double, _ f1: Double, in interval: inout (low: Double, high: Double)) {
        if f1 > 0 {
            interval.low = max(interval.low, -f0 / f1)
        } else if f1 < 0 {
            interval.high = min(interval.high, -f0 / f1)
        } else if !(f0 > 0) {
            interval.high = -.infinity
        }
    }

    /// The first pixel whose centre lies at or after `bound`, moved by `margin` pixels and kept
    /// within `low...high`.
    @inline(__always)
    private static func pixel(atLeast bound: Double, within low: Int, _ high: Int, margin: Int) -> Int {
        guard bound.isFinite else { return bound < 0 ? low : high }
        let clamped = min(max(bound - 0.5, Double(low - 2)), Double(high + 2))
        return min(max(Int(clamped.rounded(.up)) + margin, low), high)
    }

    /// Four premultiplied pixels blended with bilinear weights in 1/256ths: the weights sum to
    /// exactly 256, so an opaque inside stays opaque; two channels at a time (bytes 0 and 2,
    /// then 1 and 3), each sum below 2^16. With `wu` and `wv` below 256 no weight can fall
    /// below 0 (w11 ≤ wu, wv, and w00 ≥ 0), so the arithmetic wraps rather than checks.
    @inline(__always)
    private static func blend(_ p00: UInt32, _ p10: UInt32, _ p01: UInt32, _ p11: UInt32, _ wu: UInt32, _ wv: UInt32) -> UInt32 {
        let w11 = (wu &* wv) >> 8, w10 = wu &- w11, w01 = wv &- w11, w00 = 256 &+ w11 &- wu &- wv
        let even = ((p00 & 0x00FF00FF) &* w00 &+ (p10 & 0x00FF00FF) &* w10
            &+ (p01 & 0x00FF00FF) &* w01 &+ (p11 & 0x00FF00FF) &* w11) >> 8
        let odd = ((p00 >> 8 & 0x00FF00FF) &* w00 &+ (p10 >> 8 & 0x00FF00FF) &* w10
            &+ (p01 >> 8 & 0x00FF00FF) &* w01 &+ (p11 >> 8 & 0x00FF00FF) &* w11) >> 8
        return (even & 0x00FF00FF) | ((odd & 0x00FF00FF) << 8)
    }
}

/// An ARGB surface owned by one canvas, destroyed with it.
final class ProjectionScratch {
    let surface: OpaquePointer
    let width: Int
    let height: Int

    init?(width: Int, height: Int) {
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)) else { return nil }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            return nil
        }
        self.surface = surface
        self.width = width
        self.height = height
    }

    deinit {
        cairo_surface_destroy(surface)
    }
}
