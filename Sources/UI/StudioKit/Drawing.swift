internal import CCairo
internal import CGtk
import Imaging
import ViewfinderCore

/// A widget the app draws itself with Cairo (previews, the strip and slider, the crop mask, the HUD).
@MainActor
public final class DrawingArea: Widget {
    /// Paints the area: the context, then the width and height in points.
    public typealias Draw = @MainActor (inout CairoContext, Double, Double) -> Void

    /// Makes the area; `draw` paints it at the given width and height whenever GTK asks.
    public init(draw: @escaping Draw) {
        super.init(owning: raw(gtk_drawing_area_new()))
        setDraw(draw)
    }

    /// Replaces the drawing function.
    public func setDraw(_ draw: @escaping Draw) {
        let callback: @convention(c) (UnsafeMutablePointer<GtkDrawingArea>?, OpaquePointer?, Int32, Int32, UnsafeMutableRawPointer?) -> Void = { _, cairo, width, height, data in
            guard let cairo else { return }
            MainActor.assumeIsolated {
                guard let draw = CallbackBox.from(data, as: Draw.self) else { return }
                var context = CairoContext(cairo: cairo)
                draw(&context, Double(width), Double(height))
            }
        }
        let box = CallbackBox(draw)
        gtk_drawing_area_set_draw_func(vf_drawing_area(pointer), callback, box.retainedPointer, CallbackBox.destroyNotify)
    }

    /// Tells `handler` the area's new width and height in points each time GTK gives it
    /// another size (the first allocation too), before it is drawn at that size.
    public func onResize(_ handler: @escaping @MainActor (Int, Int) -> Void) {
        typealias SizeHandler = @MainActor (Int, Int) -> Void
        let callback: @convention(c) (UnsafeMutableRawPointer?, Int32, Int32, UnsafeMutableRawPointer?) -> Void = { _, width, height, data in
            MainActor.assumeIsolated { CallbackBox.from(data, as: SizeHandler.self)?(Int(width), Int(height)) }
        }
        _ = connect("resize", unsafeBitCast(callback, to: GCallback.self), CallbackBox(handler as SizeHandler))
    }

    /// Lets the area take keyboard focus (for arrow-key nudges).
    public func setFocusable(_ on: Bool) {
        gtk_widget_set_focusable(widget, on ? 1 : 0)
    }
}

/// A picture in Cairo's own pixel format, made once and drawn many times.
@MainActor
public final class CairoImage {
    let surface: OpaquePointer
    /// Size in pixels.
    public let width: Int
    public let height: Int

    init(surface: OpaquePointer, width: Int, height: Int) {
        self.surface = surface
        self.width = width
        self.height = height
    }

    /// Converts an RGB or RGBA (straight alpha) raster into a premultiplied Cairo surface.
    public init?(_ image: RasterImage) {
        guard image.width > 0, image.height > 0, [3, 4].contains(image.channels),
              let made = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(image.width), Int32(image.height)),
              cairo_surface_status(made) == CAIRO_STATUS_SUCCESS, let data = cairo_image_surface_get_data(made) else {
            return nil
        }
        surface = made
        width = image.width
        height = image.height
        cairo_surface_flush(made)
        image.writePremultipliedARGB32(to: data, rowBytes: Int(cairo_image_surface_get_stride(made)))
        cairo_surface_mark_dirty(made)
    }

    /// An RGB picture (decoded video frame).
    public convenience init?(_ picture: PixelBuffer) {
        self.init(RasterImage(picture))
    }

    isolated deinit {
        cairo_surface_destroy(surface)
    }
}

/// The Cairo context of one draw call: paths, colours, pictures and text.
@MainActor
public struct CairoContext {
    let cairo: OpaquePointer

    /// Saves the drawing state (colour, transform, clip); `restore()` brings it back.
    public func save() { cairo_save(cairo) }
    /// Brings back the state of the matching `save()`.
    public func restore() { cairo_restore(cairo) }
    /// Moves the origin.
    public func translate(_ x: Double, _ y: Double) { cairo_translate(cairo, x, y) }
    /// Turns what is drawn next by `degrees`, clockwise on screen, about the origin.
    public func rotate(degrees: Double) { cairo_rotate(cairo, degrees * .pi / 180) }
    /// Scales what is drawn next.
    public func scale(_ x: Double, _ y: Double) { cairo_scale(cairo, x, y) }

    /// Sets the paint colour.
    public func setColor(_ color: RGBA) {
        cairo_set_source_rgba(cairo, color.red, color.green, color.blue, color.alpha)
    }

    /// Adds a rectangle to the path.
    public func rectangle(_ rect: Rect) {
        cairo_rectangle(cairo, rect.minX, rect.minY, rect.width, rect.height)
    }

    /// A rectangle with corners of `radius`.
    public func roundedRectangle(_ rect: Rect, radius: Double) {
        vf_cairo_rounded_rectangle(cairo, rect.minX, rect.minY, rect.width, rect.height, radius)
    }

    /// An ellipse filling `rect`.
    public func ellipse(in rect: Rect) {
        cairo_save(cairo)
        cairo_translate(cairo, rect.midX, rect.midY)
        cairo_scale(cairo, rect.width / 2, rect.height / 2)
        cairo_new_sub_path(cairo)
        cairo_arc(cairo, 0, 0, 1, 0, 2 * .pi)
        cairo_close_path(cairo)
        cairo_restore(cairo)
    }

    /// An arc of a circle (angles in radians, clockwise from three o'clock).
    public func arc(center: Point, radius: Double, from start: Double, to end: Double) {
        cairo_arc(cairo, center.x, center.y, radius, start, end)
    }

    /// Starts a new piece of path at `point`.
    public func move(to point: Point) { cairo_move_to(cairo, point.x, point.y) }
    /// Adds a straight line to `point`.
    public func line(to point: Point) { cairo_line_to(cairo, point.x, point.y) }
    /// Closes the current piece of path.
    public func closePath() { cairo_close_path(cairo) }
    /// Forgets the path.
    public func newPath() { cairo_new_path(cairo) }

    /// Fills the path; `evenOdd` punches holes where paths overlap (the crop mask).
    public func fill(evenOdd: Bool = false) {
        cairo_set_fill_rule(cairo, evenOdd ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING)
        cairo_fill(cairo)
    }

    /// Strokes the path.
    public func stroke(width: Double) {
        cairo_set_line_width(cairo, width)
        cairo_stroke(cairo)
    }

    /// Limits drawing to the current path.
    public func clip() { cairo_clip(cairo) }

    /// Paints the whole clip with the colour.
    public func paint(_ color: RGBA) {
        setColor(color)
        cairo_paint(cairo)
    }

    /// Starts drawing into a group that `endGroup(opacity:)` composites at once.
    public func beginGroup() { cairo_push_group(cairo) }

    /// Composites what was drawn since `beginGroup()` at `opacity`.
    public func endGroup(opacity: Double) {
        cairo_pop_group_to_source(cairo)
        cairo_paint_with_alpha(cairo, max(0, min(1, opacity)))
    }

    /// Draws `image` scaled into `rect` (bilinear filtering). With `clipped` false it paints the
    /// whole current clip, the picture's edges stretched beyond `rect`, so a clip already set
    /// (a rounded box) keeps its own smooth edge rather than gaining a second one.
    public func draw(_ image: CairoImage, in rect: Rect, opacity: Double = 1, clipped: Bool = true) {
        guard rect.width > 0, rect.height > 0 else { return }
        cairo_save(cairo)
        if clipped {
            cairo_rectangle(cairo, rect.minX, rect.minY, rect.width, rect.height)
            cairo_clip(cairo)
        }
        cairo_translate(cairo, rect.minX, rect.minY)
        cairo_scale(cairo, rect.width / Double(image.width), rect.height / Double(image.height))
        cairo_set_source_surface(cairo, image.surface, 0, 0)
        if let pattern = cairo_get_source(cairo) {
            cairo_pattern_set_filter(pattern, CAIRO_FILTER_GOOD)
            cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
        }
        cairo_paint_with_alpha(cairo, opacity)
        cairo_restore(cairo)
    }

    /// Draws `image` scaled to cover `rect`, cropping what overflows (strip cells).
    public func draw(_ image: CairoImage, filling rect: Rect, opacity: Double = 1) {
        guard rect.width > 0, rect.height > 0 else { return }
        let scale = max(rect.width / Double(image.width), rect.height / Double(image.height))
        let drawn = Rect(center: rect.center, size: Size(width: Double(image.width) * scale, height: Double(image.height) * scale))
        cairo_save(cairo)
        cairo_rectangle(cairo, rect.minX, rect.minY, rect.width, rect.height)
        cairo_clip(cairo)
        draw(image, in: drawn, opacity: opacity)
        cairo_restore(cairo)
    }

    /// The size `text` takes in the given font (Pango description, e.g. "Sans Bold 14").
    public func measure(_ text: String, font: String, width: Double? = nil) -> Size {
        withLayout(text, font: font, width: width) { layout in
            var w: Int32 = 0, h: Int32 = 0
            pango_layout_get_pixel_size(layout, &w, &h)
            return Size(width: Double(w), height: Double(h))
        }
    }

    /// Draws `text` with its top-left at `origin`; `width` wraps and centres it.
    public func text(_ text: String, at origin: Point, font: String, color: RGBA, width: Double? = nil) {
        withLayout(text, font: font, width: width) { layout in
            setColor(color)
            cairo_move_to(cairo, origin.x, origin.y)
            pango_cairo_show_layout(cairo, layout)
        }
    }

    private func withLayout<T>(_ text: String, font: String, width: Double?, _ body: (OpaquePointer) -> T) -> T {
        guard let layout = pango_cairo_create_layout(cairo) else {
            preconditionFailure("pango_cairo_create_layout returned NULL")
        }
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        let description = pango_font_description_from_string(font)
        defer { pango_font_description_free(description) }
        pango_layout_set_font_description(layout, description)
        if let width {
            pango_layout_set_width(layout, Int32(width * Double(PANGO_SCALE)))
            pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
            pango_layout_set_alignment(layout, PANGO_ALIGN_CENTER)
        }
        pango_layout_set_text(layout, text, -1)
        return body(layout)
    }
}
