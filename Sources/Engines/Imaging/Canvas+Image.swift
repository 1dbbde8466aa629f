internal import CCairo
import Foundation
import ViewfinderCore

extension Canvas {
    /// A picture converted once into the canvas's pixel format, to be drawn many times (every
    /// frame of an animation) without converting it again.
    ///
    /// Not `Sendable`, like `Canvas`: keep it with the canvas that draws it.
    public final class Image {
        /// The picture's size in pixels.
        public let size: PixelSize
        /// Level 0 is the picture; each next one is half as large (rounded up), made the first
        /// time a drawing shrinks the picture enough to need it.
        private var levels: [Level]
        /// The last part drawn (see `pattern(level:pixels:)`), kept because a layer usually
        /// shows the same part frame after frame.
        private var crop: Crop?

        /// Converts a grey, grey + alpha, RGB or RGBA picture (straight alpha).
        public init(_ picture: RasterImage) throws(Canvas.Error) {
            guard (1...32767).contains(picture.width), (1...32767).contains(picture.height) else {
                throw .invalidSize(picture.size)
            }
            size = picture.size
            guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(picture.width), Int32(picture.height)),
                  cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
                throw .surfaceFailed(picture.size, detail: tr("cannot hold the picture"))
            }
            Self.copy(picture, into: surface)
            guard let level = Level(size: picture.size, surface: surface) else {
                throw .surfaceFailed(picture.size, detail: tr("cannot make a pattern"))
            }
            levels = [level]
        }

        /// Converts an RGB picture.
        public convenience init(_ picture: PixelBuffer) throws(Canvas.Error) {
            try self.init(RasterImage(picture))
        }

        /// Level `index`, or the smallest there can be (1×1) if that is larger.
        func level(_ index: Int) -> Level {
            while levels.count <= index {
                let last = levels[levels.count - 1]
                guard last.size.width > 1 || last.size.height > 1, let next = last.halved() else { break }
                levels.append(next)
            }
            return levels[min(index, levels.count - 1)]
        }

        /// A pattern of `level` that samples only the pixels in `pixels` (x, y, width, height of
        /// that level), repeating that part's edge beyond it, so that a part drawn enlarged does
        /// not bleed in its neighbours.
        func pattern(of level: Level, pixels: (x: Int, y: Int, width: Int, height: Int)) -> OpaquePointer {
            if pixels == (0, 0, level.size.width, level.size.height) { return level.pattern }
            if let crop, crop.level === level, crop.pixels == pixels { return crop.part.pattern }
            crop = nil
            guard let surface = cairo_surface_create_for_rectangle(level.surface, Double(pixels.x), Double(pixels.y),
                                                                   Double(pixels.width), Double(pixels.height)),
                  let part = Level(size: PixelSize(width: pixels.width, height: pixels.height), surface: surface) else {
                return level.pattern
            }
            crop = Crop(level: level, pixels: pixels, part: part)
            return part.pattern
        }

        /// One size of the picture: a surface and a pattern to draw it with.
        final class Level {
            let size: PixelSize
            let surface: OpaquePointer
            let pattern: OpaquePointer

            /// Takes ownership of `surface`; nil (and the surface freed) when no pattern can be made.
            init?(size: PixelSize, surface: OpaquePointer) {
                guard let pattern = cairo_pattern_create_for_surface(surface) else {
                    cairo_surface_destroy(surface)
                    return nil
                }
                // PAD rather than NONE: filtering at the picture's edge repeats the edge pixels
                // instead of fading them towards transparent.
                cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
                cairo_pattern_set_filter(pattern, CAIRO_FILTER_GOOD)
                self.size = size
                self.surface = surface
                self.pattern = pattern
            }

            deinit {
                cairo_pattern_destroy(pattern)
                cairo_surface_destroy(surface)
            }

            /// This level at half the size: each pixel the mean of a 2×2 block (premultiplied,
            /// so transparent pixels do not darken their neighbours; odd edges repeat).
            func halved() -> Level? {
                let half = PixelSize(width: (size.width + 1) / 2, height: (size.height + 1) / 2)
                cairo_surface_flush(self.surface)
                guard let source = cairo_image_surface_get_data(self.surface),
                      let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(half.width), Int32(half.height)) else {
                    return nil
                }
                guard let target = cairo_image_surface_get_data(surface) else {
                    cairo_surface_destroy(surface)
                    return nil
                }
                let sourceStride = Int(cairo_image_surface_get_stride(self.surface))
                let targetStride = Int(cairo_image_surface_get_stride(surface))
                for y in 0..<half.height {
                    let top = UnsafeRawPointer(source + 2 * y * sourceStride).assumingMemoryBound(to: UInt32.self)
                    let bottom = UnsafeRawPointer(source + min(2 * y + 1, size.height - 1) * sourceStride)
                        .assumingMemoryBound(to: UInt32.self)
                    let out = UnsafeMutableRawPointer(target + y * targetStride).assumingMemoryBound(to: UInt32.self)
                    for x in 0..<half.width {
                        let (left, right) = (2 * x, min(2 * x + 1, size.width - 1))
                        let (a, b, c, d) = (top[left], top[right], bottom[left], bottom[right])
                        // Two channels at a time: 0x00FF00FF lanes have room for four bytes' sum.
                        let even = ((a & 0x00FF_00FF) + (b & 0x00FF_00FF) + (c & 0x00FF_00FF) + (d & 0x00FF_00FF)
                                    + 0x0002_0002) >> 2 & 0x00FF_00FF
                        let odd = ((a >> 8 & 0x00FF_00FF) + (b >> 8 & 0x00FF_00FF) + (c >> 8 & 0x00FF_00FF)
                                   + (d >> 8 & 0x00FF_00FF) + 0x0002_0002) >> 2 & 0x00FF_00FF
                        out[x] = even | odd << 8
                    }
                }
                cairo_surface_mark_dirty(surface)
                return Level(size: half, surface: surface)
            }
        }

        private struct Crop {
            let level: Level
            let pixels: (x: Int, y: Int, width: Int, height: Int)
            let part: Level
        }

        /// Writes premultiplied native-endian ARGB words, Cairo's ARGB32 layout.
        private static func copy(_ picture: RasterImage, into surface: OpaquePointer) {
            cairo_surface_flush(surface)
            guard let data = cairo_image_surface_get_data(surface) else { return }
            picture.writePremultipliedARGB32(to: data, rowBytes: Int(cairo_image_surface_get_stride(surface)))
            cairo_surface_mark_dirty(surface)
        }
    }

    /// Draws the part `source` of `image` — in unit coordinates, (0, 0, 1, 1) being all of it,
    /// Core Animation's `contentsRect` — stretched into `rect` (current coordinates), with
    /// `alpha` and `blend`.
    ///
    /// Filtering: pictures shrunk to half or less are first taken from a pre-shrunk copy (a
    /// mipmap level, made once) with at most twice the pixels needed, then Cairo's "good"
    /// filter (bilinear when enlarging, an area average when shrinking) does the rest — the
    /// same quality as filtering the full picture, at a fraction of the cost per frame.
    /// Sampling stays inside the whole pixels `source` touches (their edge repeats), so a part
    /// does not bleed in its neighbours; `source` is clamped to the picture. With `shrink:
    /// .nearest` a shrunk picture is sampled at its nearest full-size pixel instead.
    public func draw(_ image: Image, in rect: Rect, from source: Rect = Rect(x: 0, y: 0, width: 1, height: 1),
                     alpha: Double = 1, blend: BlendMode = .normal, shrink filter: ShrinkFilter = .linear) {
        guard rect.width > 0, rect.height > 0, source.width > 0, source.height > 0, alpha > 0,
              rect.isFinite, source.isFinite else { return }
        let m = currentTransform
        let deviceScale = abs(m.a * m.d - m.b * m.c).squareRoot()
        guard deviceScale > 0, deviceScale.isFinite else { return }
        // Picture pixels per device pixel, on average over both axes.
        let shrink = (source.width * Double(image.size.width) / rect.width
                      * source.height * Double(image.size.height) / rect.height).squareRoot() / deviceScale
        let nearest = filter == .nearest && shrink > 1
        let level = image.level(shrink >= 2 && !nearest ? Int(log2(shrink)) : 0)
        let (w, h) = (Double(level.size.width), Double(level.size.height))
        let sx = source.minX * w, sy = source.minY * h
        let sw = source.width * w, sh = source.height * h
        let px0 = min(max(Int(sx.rounded(.down)), 0), level.size.width - 1)
        let py0 = min(max(Int(sy.rounded(.down)), 0), level.size.height - 1)
        let px1 = max(min(Int((sx + sw).rounded(.up)), level.size.width), px0 + 1)
        let py1 = max(min(Int((sy + sh).rounded(.up)), level.size.height), py0 + 1)
        let pattern = image.pattern(of: level, pixels: (px0, py0, px1 - px0, py1 - py0))
        // The pattern's matrix maps user space to the part's pixels: rect's corner to source's.
        let xx = sw / rect.width, yy = sh / rect.height
        var matrix = cairo_matrix_t(xx: xx, yx: 0, xy: 0, yy: yy,
                                    x0: sx - Double(px0) - rect.minX * xx, y0: sy - Double(py0) - rect.minY * yy)
        cairo_pattern_set_matrix(pattern, &matrix)
        cairo_save(context)
        setBlend(blend)
        cairo_rectangle(context, rect.minX, rect.minY, rect.width, rect.height)
        cairo_clip(context)
        if nearest { cairo_pattern_set_filter(pattern, CAIRO_FILTER_NEAREST) }
        cairo_set_source(context, pattern)
        cairo_paint_with_alpha(context, Self.unit(alpha))
        if nearest { cairo_pattern_set_filter(pattern, CAIRO_FILTER_GOOD) }
        cairo_restore(context)
    }

    /// Draws an RGB picture (converted for this one draw; make an `Image` to draw it often).
    public func draw(_ picture: PixelBuffer, in rect: Rect, from source: Rect = Rect(x: 0, y: 0, width: 1, height: 1),
                     alpha: Double = 1) throws(Canvas.Error) {
        draw(try Image(picture), in: rect, from: source, alpha: alpha)
    }

    /// Draws an RGB or RGBA picture (converted for this one draw; make an `Image` to draw it often).
    public func draw(_ picture: RasterImage, in rect: Rect, from source: Rect = Rect(x: 0, y: 0, width: 1, height: 1),
                     alpha: Double = 1) throws(Canvas.Error) {
        draw(try Image(picture), in: rect, from: source, alpha: alpha)
    }
}
