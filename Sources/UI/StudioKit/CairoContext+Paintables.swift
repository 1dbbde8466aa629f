internal import CGtk
import ViewfinderCore

extension CairoContext {
    /// True when the display's icon theme has an icon called `name`.
    public static func hasIcon(named name: String) -> Bool {
        guard let display = gdk_display_get_default(), let theme = gtk_icon_theme_get_for_display(display) else {
            return false
        }
        return gtk_icon_theme_has_icon(theme, name) != 0
    }

    /// Draws the icon `name` from the display's icon theme into `rect` (a square icon, centred),
    /// a symbolic icon recoloured in `color` as GTK recolours them; false, drawing nothing, when
    /// the theme has no such icon.
    @discardableResult
    public func drawIcon(named name: String, in rect: Rect, color: RGBA) -> Bool {
        guard Self.hasIcon(named: name), let display = gdk_display_get_default(),
              let theme = gtk_icon_theme_get_for_display(display) else { return false }
        let side = min(rect.width, rect.height)
        guard side >= 1, let icon = gtk_icon_theme_lookup_icon(theme, name, nil, Int32(side.rounded()), 1,
                                                               GTK_TEXT_DIR_NONE, GtkIconLookupFlags(0)) else {
            return false
        }
        defer { g_object_unref(UnsafeMutableRawPointer(icon)) }
        guard let snapshot = gtk_snapshot_new() else { return false }
        var colors = [gdkColor(color), gdkColor(.red), gdkColor(RGBA(red: 0.96, green: 0.47, blue: 0)),
                      gdkColor(RGBA(red: 0.2, green: 0.6, blue: 0.2))]
        // GtkIconPaintable is a GtkSymbolicPaintable: non-symbolic icons ignore the colours.
        gtk_symbolic_paintable_snapshot_symbolic(icon, snapshot, side, side, &colors, gsize(colors.count))
        guard let node = gtk_snapshot_free_to_node(snapshot) else { return false }
        defer { gsk_render_node_unref(node) }
        cairo_save(cairo)
        cairo_translate(cairo, rect.midX - side / 2, rect.midY - side / 2)
        gsk_render_node_draw(node, cairo)
        cairo_restore(cairo)
        return true
    }

    /// Draws `widget` as it is now on screen (any shown widget of the app, live), scaled to
    /// fit `rect` and centred; false when it has no size yet.
    @discardableResult
    public func draw(_ widget: Widget, fitting rect: Rect) -> Bool {
        let (width, height) = (Double(widget.width), Double(widget.height))
        guard rect.width > 0, rect.height > 0, let node = widget.renderNode() else { return false }
        defer { gsk_render_node_unref(node) }
        let scale = min(1, rect.width / width, rect.height / height)
        cairo_save(cairo)
        cairo_translate(cairo, rect.midX - width * scale / 2, rect.midY - height * scale / 2)
        cairo_scale(cairo, scale, scale)
        gsk_render_node_draw(node, cairo)
        cairo_restore(cairo)
        return true
    }

    private func gdkColor(_ color: RGBA) -> GdkRGBA {
        GdkRGBA(red: Float(color.red), green: Float(color.green), blue: Float(color.blue), alpha: Float(color.alpha))
    }
}
