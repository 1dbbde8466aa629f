internal import CCairo
import Foundation
import ViewfinderCore

extension Canvas {
    /// A projective mapping of the plane, (x, y) → ((m0·x + m1·y + m2) / w, (m3·x + m4·y + m5) / w)
    /// with w = m6·x + m7·y + m8: what a flat layer seen in perspective becomes on screen.
    public struct Homography: Sendable, Hashable {
        /// The 3×3 matrix, row by row.
        public var m: [Double]

        /// A mapping from its nine entries, row by row.
        public init(_ m: [Double]) {
            precondition(m.count == 9, "a homography has nine entries")
            self.m = m
        }

        /// The affine transform as a homography.
        public init(_ t: Transform) {
            self.init([t.a, t.c, t.tx, t.b, t.d, t.ty, 0, 0, 1])
        }

        /// This mapping after `first`: the point goes through `first`, then through this.
        public func concatenating(_ first: Homography) -> Homography {
            var r = [Double](repeating: 0, count: 9)
            for row in 0..<3 {
                for column in 0..<3 {
                    r[row * 3 + column] = (0..<3).reduce(0) { $0 + m[row * 3 + $1] * first.m[$1 * 3 + column] }
                }
            }
            return Homography(r)
        }

        /// The mapped point and its w (a point with w ≤ 0 is behind the viewer).
        public func apply(to p: Point) -> (point: Point, w: Double) {
            let w = m[6] * p.x + m[7] * p.y + m[8]
            return (Point(x: (m[0] * p.x + m[1] * p.y + m[2]) / w, y: (m[3] * p.x + m[4] * p.y + m[5]) / w), w)
        }

        /// The inverse mapping, or nil when it has none.
        public var inverted: Homography? {
            let a = m
            let c0 = a[4] * a[8] - a[5] * a[7], c1 = a[5] * a[6] - a[3] * a[8], c2 = a[3] * a[7] - a[4] * a[6]
            let det = a[0] * c0 + a[1] * c1 + a[2] * c2
            guard det.isFinite, abs(det) > 1e-12 else { return nil }
            let inv = [c0, a[2] * a[7] - a[1] * a[8], a[1] * a[5] - a[2] * a[4],
                       c1, a[0] * a[8] - a[2] * a[6], a[2] * a[3] - a[0] * a[5],
                       c2, a[1] * a[6] - a[0] * a[7], a[0] * a[4] - a[1] * a[3]]
            return Homography(inv.map { $0 / det })
        }
    }

    /// Draws `source`'s pixels through `mapping`, which takes a point in `source`'s pixels to a
    /// point in this canvas's pixels (device space: the current transform is not applied, the
    /// clip and any open group are). Each pixel covered is sampled bilinearly from `source`
    /// through the inverse mapping, premultiplied, then painted with `alpha`. Nothing is drawn
    /// when a corner of `source` maps behind the viewer (w ≤ 0).
    public func drawProjected(_ source: Canvas, mapping: Homography, alpha: Double = 1) {
        guard alpha > 0, let inverse = mapping.inverted else { return }
        let (sw, sh) = (Double(source.size.width), Double(source.size.height))
        let corners = [Point(x: 0, y: 0), Point(x: sw, y: 0), Point(x: sw, y: sh), Point(x: 0, y: sh)].map { mapping.apply(to: $0) }
        guard corners.allSatisfy({ $0.w > 0 && $0.point.isFinite }) else { return }
        let x0 = max(0, Int(corners.map(\.point.x).min()!.rounded(.down)))
        let y0 = max(0, Int(corners.map(\.point.y).min()!.rounded(.down)))
        let x1 = min(size.width, Int(corners.map(\.point.x).max()!.rounded(.up)))
        let y1 = min(size.height, Int(corners.map(\.point.y).max()!.rounded(.up)))
        guard x1 > x0, y1 > y0,
              let target = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(x1 - x0), Int32(y1 - y0)) else { return }
        defer { cairo_surface_destroy(target) }
        guard cairo_surface_status(target) == CAIRO_STATUS_SUCCESS else { return }
        cairo_surface_flush(source.surface)
        cairo_surface_flush(target)
        guard let input = cairo_image_surface_get_data(source.surface), let output = cairo_image_surface_get_data(target) else { return }
        let inStride = Int(cairo_image_surface_get_stride(source.surface)) / 4
        let outStride = Int(cairo_image_surface_get_stride(target)) / 4
        let pixels = UnsafeRawPointer(input).assumingMemoryBound(to: UInt32.self)
        let out = UnsafeMutableRawPointer(output).assumingMemoryBound(to: UInt32.self)
        let (width, height) = (source.size.width, source.size.height)
        let h = inverse.m
        precondition(h.count == 9)
        for y in y0..<y1 {
            let py = Double(y) + 0.5
            let row = out + (y - y0) * outStride
            // The mapping's numerators and denominator are linear along a row: step them.
            var nu = h[0] * (Double(x0) + 0.5) + h[1] * py + h[2]
            var nv = h[3] * (Double(x0) + 0.5) + h[4] * py + h[5]
            var nw = h[6] * (Double(x0) + 0.5) + h[7] * py + h[8]
            for x in 0..<(x1 - x0) {
                defer { nu += h[0]; nv += h[3]; nw += h[6] }
                guard nw > 0 else { row[x] = 0; continue }
                // Source pixel centres are at +0.5: shift so that (0, 0) is the first centre,
                // then +1 so that the floor of a value above −1 is a truncation.
                let u = nu / nw + 0.5, v = nv / nw + 0.5
                guard u > 0, v > 0, u < Double(width + 1), v < Double(height + 1) else { row[x] = 0; continue }
                let iu = Int(u) - 1, iv = Int(v) - 1
                // Bilinear weights in 1/256ths; outside the picture counts as transparent, so the
                // edges are antialiased.
                let wu = UInt32((u - Double(iu + 1)) * 256), wv = UInt32((v - Double(iv + 1)) * 256)
                let inU0 = iu >= 0, inU1 = iu + 1 < width, inV0 = iv >= 0, inV1 = iv + 1 < height
                let p00 = inU0 && inV0 ? pixels[iv * inStride + iu] : 0
                let p10 = inU1 && inV0 ? pixels[iv * inStride + iu + 1] : 0
                let p01 = inU0 && inV1 ? pixels[(iv + 1) * inStride + iu] : 0
                let p11 = inU1 && inV1 ? pixels[(iv + 1) * inStride + iu + 1] : 0
                // Four weights summing to exactly 256, so an opaque inside stays opaque.
                let w11 = (wu * wv) >> 8, w10 = wu - w11, w01 = wv - w11, w00 = 256 + w11 - wu - wv
                // Two channels at a time (bytes 0 and 2, then 1 and 3): each sum stays below 2^16.
                let even = ((p00 & 0x00FF00FF) &* w00 &+ (p10 & 0x00FF00FF) &* w10
                    &+ (p01 & 0x00FF00FF) &* w01 &+ (p11 & 0x00FF00FF) &* w11) >> 8
                let odd = ((p00 >> 8 & 0x00FF00FF) &* w00 &+ (p10 >> 8 & 0x00FF00FF) &* w10
                    &+ (p01 >> 8 & 0x00FF00FF) &* w01 &+ (p11 >> 8 & 0x00FF00FF) &* w11) >> 8
                row[x] = (even & 0x00FF00FF) | ((odd & 0x00FF00FF) << 8)
            }
        }
        cairo_surface_mark_dirty(target)
        cairo_save(context)
        cairo_identity_matrix(context)
        cairo_set_source_surface(context, target, Double(x0), Double(y0))
        cairo_paint_with_alpha(context, Self.unit(alpha))
        cairo_restore(context)
    }
}
