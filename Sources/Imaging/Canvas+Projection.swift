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
        for y in y0..<y1 {
            let py = Double(y) + 0.5
            var row = out + (y - y0) * outStride
            for x in x0..<x1 {
                defer { row += 1 }
                let px = Double(x) + 0.5
                let w = h[6] * px + h[7] * py + h[8]
                guard w > 0 else { row.pointee = 0; continue }
                // Source pixel centres are at +0.5: shift so that (0, 0) is the first centre.
                let u = (h[0] * px + h[1] * py + h[2]) / w - 0.5
                let v = (h[3] * px + h[4] * py + h[5]) / w - 0.5
                guard u > -1, v > -1, u < Double(width), v < Double(height) else { row.pointee = 0; continue }
                let fu = u.rounded(.down), fv = v.rounded(.down)
                let (iu, iv) = (Int(fu), Int(fv))
                let (tu, tv) = (u - fu, v - fv)
                // Outside the picture counts as transparent, so the edges are antialiased.
                func texel(_ i: Int, _ j: Int) -> UInt32 {
                    i >= 0 && j >= 0 && i < width && j < height ? pixels[j * inStride + i] : 0
                }
                let p00 = texel(iu, iv), p10 = texel(iu + 1, iv), p01 = texel(iu, iv + 1), p11 = texel(iu + 1, iv + 1)
                let w00 = (1 - tu) * (1 - tv), w10 = tu * (1 - tv), w01 = (1 - tu) * tv, w11 = tu * tv
                var result: UInt32 = 0
                for shift in stride(from: 0 as UInt32, through: 24, by: 8) {
                    let value = Double(p00 >> shift & 0xFF) * w00 + Double(p10 >> shift & 0xFF) * w10
                        + Double(p01 >> shift & 0xFF) * w01 + Double(p11 >> shift & 0xFF) * w11
                    result |= UInt32(min(255, value.rounded())) << shift
                }
                row.pointee = result
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
