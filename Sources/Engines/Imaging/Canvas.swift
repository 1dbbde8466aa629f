internal import CCairo
import Foundation
import ViewfinderCore

/// A picture to draw on with vector shapes: rectangles with rounded corners, borders, pictures,
/// blurred shadows, clipping, transforms and group opacity — what a layer-tree renderer needs.
///
/// It owns a Cairo ARGB32 image surface and its context, freed in `deinit`. Coordinates are in
/// pixels from the top-left corner, y downwards, until `concatenate(_:)` changes them.
///
/// Not `Sendable`: a Cairo context is not safe to share between threads. Make one per thread and
/// keep it between frames (drawing allocates almost nothing; making a canvas allocates the whole
/// picture).
public final class Canvas {
    /// The picture's size in pixels.
    public let size: PixelSize

    let surface: OpaquePointer
    let context: OpaquePointer
    /// Alpha-only surfaces for blurring shadows by resolution reduction (1, 2, 4), kept
    /// between frames (see `Canvas+Shadow`).
    var shadowScratches: [Int: ShadowScratch] = [:]
    /// Where projected pixels are written before they are painted (see `Canvas+Projection`),
    /// kept between draws so that a frame of many layers in perspective allocates nothing.
    var projectionScratch: ProjectionScratch?
    /// How many groups are open, so `endGroup` can refuse to close one that was never opened.
    private var openGroups = 0

    /// A transparent canvas of `size` pixels.
    public init(size: PixelSize) throws(Canvas.Error) {
        guard (1...32767).contains(size.width), (1...32767).contains(size.height) else { throw .invalidSize(size) }
        self.size = size
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(size.width), Int32(size.height)) else {
            throw .surfaceFailed(size, detail: tr("no surface"))
        }
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            throw .surfaceFailed(size, detail: String(cString: cairo_status_to_string(status)))
        }
        guard let context = cairo_create(surface), cairo_status(context) == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            throw .surfaceFailed(size, detail: tr("no drawing context"))
        }
        self.surface = surface
        self.context = context
    }

    deinit {
        cairo_destroy(context)
        cairo_surface_destroy(surface)
    }

    // MARK: - State

    /// Remembers the transform and clip, to be brought back by the matching `restore()`.
    public func save() {
        cairo_save(context)
    }

    /// Brings back the transform and clip of the matching `save()`.
    public func restore() {
        cairo_restore(context)
    }

    /// Applies `transform` to everything drawn from now on, before the current transform (so it
    /// acts in the current coordinates, as Core Graphics' `concatenate`).
    public func concatenate(_ transform: Transform) {
        var matrix = cairo_matrix_t(xx: transform.a, yx: transform.b, xy: transform.c, yy: transform.d,
                                    x0: transform.tx, y0: transform.ty)
        cairo_transform(context, &matrix)
    }

    /// The transform from the current coordinates to the canvas's pixels.
    public var currentTransform: Transform {
        var matrix = cairo_matrix_t()
        cairo_get_matrix(context, &matrix)
        return Transform(a: matrix.xx, b: matrix.yx, c: matrix.xy, d: matrix.yy, tx: matrix.x0, ty: matrix.y0)
    }

    /// Replaces every pixel with `color` (transparent colours included), ignoring the clip.
    public func clear(to color: Color) {
        cairo_save(context)
        cairo_reset_clip(context)
        cairo_set_operator(context, CAIRO_OPERATOR_SOURCE)
        setSource(color)
        cairo_paint(context)
        cairo_restore(context)
    }

    // MARK: - Groups

    /// Starts drawing into a transparent offscreen group; `endGroup(alpha:)` composites it.
    /// Unlike drawing each part with less alpha, overlapping parts of a group do not show
    /// through each other — Core Animation's layer opacity.
    public func beginGroup() {
        cairo_push_group(context)
        openGroups += 1
    }

    /// Composites the group begun by the matching `beginGroup()` onto what is beneath with
    /// `alpha` (0…1) and `blend`.
    public func endGroup(alpha: Double, blend: BlendMode = .normal) {
        precondition(openGroups > 0, "endGroup without beginGroup")
        openGroups -= 1
        cairo_pop_group_to_source(context)
        cairo_save(context)
        setBlend(blend)
        cairo_paint_with_alpha(context, Self.unit(alpha))
        cairo_restore(context)
        cairo_set_source_rgb(context, 0, 0, 0)
    }

    /// Draws `body` as one group composited with `alpha`.
    public func drawGroup<E: Swift.Error>(alpha: Double, blend: BlendMode = .normal, _ body: () throws(E) -> Void) throws(E) {
        beginGroup()
        defer { endGroup(alpha: alpha, blend: blend) }
        try body()
    }

    // MARK: - Shapes

    /// Fills `rect` (in current coordinates) with `color`, its corners rounded by `cornerRadius`
    /// (at most half the shorter side).
    public func fill(_ rect: Rect, cornerRadius: Double = 0, color: Color, blend: BlendMode = .normal) {
        guard color.alpha > 0, rect.width > 0, rect.height > 0 else { return }
        cairo_save(context)
        setBlend(blend)
        addRoundedRect(rect, radius: cornerRadius)
        setSource(color)
        cairo_fill(context)
        cairo_restore(context)
    }

    /// Draws a border of `width` inside the edge of `rect` with rounded corners, as Core
    /// Animation does: the outer edge follows `cornerRadius`, the inner edge the radius less the
    /// width, and a border wider than half the rectangle fills it.
    public func strokeBorder(of rect: Rect, cornerRadius: Double = 0, width: Double, color: Color) {
        guard width > 0, color.alpha > 0, rect.width > 0, rect.height > 0 else { return }
        cairo_save(context)
        addRoundedRect(rect, radius: cornerRadius)
        let inset = min(width, rect.width / 2, rect.height / 2)
        let inner = Rect(x: rect.minX + inset, y: rect.minY + inset,
                         width: rect.width - 2 * inset, height: rect.height - 2 * inset)
        if inner.width > 0, inner.height > 0 {
            addRoundedRect(inner, radius: max(0, Self.clampedRadius(cornerRadius, for: rect) - inset))
        }
        cairo_set_fill_rule(context, CAIRO_FILL_RULE_EVEN_ODD)
        setSource(color)
        cairo_fill(context)
        cairo_restore(context)
    }

    /// Limits everything drawn from now on (until the matching `restore()`) to `rect` with
    /// rounded corners.
    public func clip(to rect: Rect, cornerRadius: Double = 0) {
        addRoundedRect(rect, radius: cornerRadius)
        cairo_clip(context)
    }

    // MARK: - Helpers

    /// A corner radius no larger than half the shorter side (Core Animation's clamp).
    static func clampedRadius(_ radius: Double, for rect: Rect) -> Double {
        guard radius.isFinite, radius > 0 else { return 0 }
        return min(radius, rect.width / 2, rect.height / 2)
    }

    /// Adds a closed rounded-rectangle path to `cr` (this canvas's context unless given).
    func addRoundedRect(_ rect: Rect, radius: Double, to cr: OpaquePointer? = nil) {
        vf_cairo_rounded_rectangle(cr ?? context, rect.minX, rect.minY, rect.width, rect.height,
                                   Self.clampedRadius(radius, for: rect))
    }

    func setSource(_ color: Color) {
        cairo_set_source_rgba(context, Self.unit(color.red), Self.unit(color.green), Self.unit(color.blue), Self.unit(color.alpha))
    }

    func setBlend(_ blend: BlendMode) {
        switch blend {
        case .normal: cairo_set_operator(context, CAIRO_OPERATOR_OVER)
        case .plus: cairo_set_operator(context, CAIRO_OPERATOR_ADD)
        }
    }

    /// `value` clamped to 0…1 (NaN → 0).
    static func unit(_ value: Double) -> Double {
        value.isNaN ? 0 : min(max(value, 0), 1)
    }
}
