internal import CGtk
import ViewfinderCore

/// Pixels GTK can show (a GdkMemoryTexture), copied from a raster.
@MainActor
public final class Texture: Object {
    /// Size in pixels.
    public let width: Int
    public let height: Int

    /// A texture of an RGB or RGBA (straight alpha) raster.
    public init?(_ image: RasterImage) {
        guard image.width > 0, image.height > 0, [3, 4].contains(image.channels) else { return nil }
        let format = image.channels == 4 ? GDK_MEMORY_R8G8B8A8 : GDK_MEMORY_R8G8B8
        let bytes = image.bytes.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
        defer { g_bytes_unref(bytes) }
        guard let made = gdk_memory_texture_new(Int32(image.width), Int32(image.height), format, bytes,
                                                gsize(image.width * image.channels)) else { return nil }
        width = image.width
        height = image.height
        super.init(adopting: raw(made))
    }
}

/// Shows a texture scaled to fit its space (library thumbnails, camera preview).
@MainActor
public final class Picture: Widget {
    /// An empty picture.
    public init() {
        super.init(owning: raw(gtk_picture_new()))
    }

    /// The texture shown, or nil for nothing.
    public func setTexture(_ texture: Texture?) {
        gtk_picture_set_paintable(vf_picture(pointer), texture.map { vf_paintable($0.pointer) })
    }

    /// Fills the space (cropping) rather than fitting inside it.
    public func setCovers(_ on: Bool) {
        gtk_picture_set_content_fit(vf_picture(pointer), on ? GTK_CONTENT_FIT_COVER : GTK_CONTENT_FIT_CONTAIN)
    }
}

/// Why a widget could not be rendered to a picture.
public struct RenderError: Error, CustomStringConvertible {
    /// What failed.
    public let description: String
}

extension Widget {
    /// Renders the widget as it is now on screen into a PNG at `path` (GTK's own renderer, so
    /// the file is what the user sees).
    public func renderPNG(to path: String) throws(RenderError) {
        let texture = try renderTexture()
        defer { g_object_unref(UnsafeMutableRawPointer(texture)) }
        guard gdk_texture_save_to_png(texture, path) != 0 else {
            throw RenderError(description: "cannot write the PNG \(path)")
        }
    }

    /// The widget as it is now on screen, as a picture to draw elsewhere (the HUD blurs it);
    /// nil when it cannot be rendered (not shown yet).
    public func renderImage() -> CairoImage? {
        guard let texture = try? renderTexture() else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(texture)) }
        let width = Int(gdk_texture_get_width(texture)), height = Int(gdk_texture_get_height(texture))
        guard let image = CairoImage(width: width, height: height) else { return nil }
        // GTK downloads in Cairo's own layout (premultiplied ARGB32, native endian).
        image.withPixels { pixels, stride in gdk_texture_download(texture, pixels, gsize(stride)) }
        return image
    }

    /// What the widget draws now, at its own size, as a GSK render node (the caller unrefs it);
    /// nil when it has no size or drew nothing.
    func renderNode() -> OpaquePointer? {
        guard width > 0, height > 0, let paintable = gtk_widget_paintable_new(widget),
              let snapshot = gtk_snapshot_new() else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(paintable)) }
        gdk_paintable_snapshot(paintable, snapshot, Double(width), Double(height))
        return gtk_snapshot_free_to_node(snapshot)
    }

    /// A texture of the widget drawn by its window's renderer; the caller unrefs it.
    private func renderTexture() throws(RenderError) -> OpaquePointer {
        guard width > 0, height > 0 else { throw RenderError(description: "the widget has no size yet (\(width)×\(height))") }
        guard let native = gtk_widget_get_native(widget), let renderer = gtk_native_get_renderer(native) else {
            throw RenderError(description: "the widget is not in a shown window")
        }
        guard let node = renderNode() else { throw RenderError(description: "the widget drew nothing") }
        defer { gsk_render_node_unref(node) }
        guard let texture = gsk_renderer_render_texture(renderer, node, nil) else {
            throw RenderError(description: "the renderer made no texture")
        }
        return texture
    }
}

extension RenderError: ReadableError {}
