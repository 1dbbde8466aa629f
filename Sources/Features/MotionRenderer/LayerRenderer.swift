import Foundation
import Imaging
import Motion
import ViewfinderCore

/// Draws a layer tree at an instant with Cairo, as Core Animation composites it: each layer's
/// shadow, background, contents, sublayers and border, under its opacity.
///
/// What is drawn, per layer, back to front:
/// - the **shadow** of the rounded bounds (offset and blurred in the layer's own coordinates,
///   so it turns with the layer), when `shadowOpacity` > 0 and the layer has a background,
///   contents or border — Core Animation shadows the layer's drawn pixels; we shadow its
///   rounded bounds, with the background's alpha when there are no contents;
/// - the **background colour** in the bounds, corners rounded by `cornerRadius`;
/// - the **contents** picture stretched over the bounds (Core Animation's default "resize"
///   gravity) from `contentsRect`, cross-dissolving from the older picture while a contents
///   sprite runs; not clipped to the rounded corners (no `masksToBounds` in the model);
/// - the **sublayers**, by `zPosition` and then in insertion order;
/// - the **border**, inside the bounds, over the sublayers as in Core Animation.
///
/// `opacity` applies to the layer and its sublayers as one group. Without perspective, transforms
/// are 2D affine: see `affineTransform(for:)` for exactly how 3D rotations are flattened
/// (orthographic). With `perspective` > 0 and a layer that leaves its plane (a rotation about x or
/// y, a z translation), the layer and its sublayers are drawn flat and their pixels mapped
/// through `homography(for:)`, a true projection.
///
/// Keep one renderer per thread and reuse it for every frame: it keeps its canvas for a size,
/// its loaded pictures, and its scratch buffers. Not `Sendable`.
public final class LayerRenderer {
    /// Where relative `contents` paths start (nil: the current directory).
    public let imageDirectory: URL?
    /// Pictures are decoded to fit inside this size (never enlarged), to bound memory.
    public let maxImageSize: PixelSize

    private var canvas: Canvas?
    /// Decoded pictures by their `ImageReference` name.
    var images: [String: Canvas.Image] = [:]
    /// Per tree depth: sublayer states and drawing order, reused frame after frame.
    private var levels: [Level] = []
    /// Per tree depth: the picture a layer in perspective is drawn flat on, reused.
    var projectionCanvases: [Int: Canvas] = [:]
    /// Per tree depth: the viewer a superlayer's sublayer perspective gives the layers there.
    var viewers: [Int: Viewer] = [:]

    /// A renderer that finds relative picture paths in `imageDirectory`.
    public init(imageDirectory: URL? = nil, maxImageSize: PixelSize = PixelSize(width: 2048, height: 2048)) {
        self.imageDirectory = imageDirectory
        self.maxImageSize = maxImageSize
    }

    // MARK: - Rendering

    /// The frame showing `tree` on an opaque `background` (its alpha ignored), as RGB.
    /// `sceneSize` is the tree's extent in points, stretched to fill `size` (nil: one point per
    /// pixel, as when rendering a scene at its own size).
    public func render(_ tree: PresentedLayer, sceneSize: Size? = nil, size: PixelSize,
                       background: RGBA = .black) throws(MotionRendererError) -> PixelBuffer {
        let canvas = try draw(tree, state: tree.state, at: 0, sceneSize: sceneSize, size: size, background: background)
        return canvas.pixelBuffer(over: background)
    }

    /// The frame showing `tree` on `background` (which may be transparent), as straight RGBA.
    public func renderRGBA(_ tree: PresentedLayer, sceneSize: Size? = nil, size: PixelSize,
                           background: RGBA = .clear) throws(MotionRendererError) -> RasterImage {
        try draw(tree, state: tree.state, at: 0, sceneSize: sceneSize, size: size, background: background).rasterImage()
    }

    /// The frame showing `root`'s tree at `t` seconds, as RGB. Stop events due by `t` are
    /// delivered first (so `then` chains start), as `Scene.presentation(at:)` does: render a
    /// tree's frames in increasing time. Reads each layer's presentation in place, without
    /// building a `PresentedLayer` tree.
    public func render(_ root: Layer, at t: Double, sceneSize: Size? = nil, size: PixelSize,
                       background: RGBA = .black) throws(MotionRendererError) -> PixelBuffer {
        try canvas(showing: root, at: t, sceneSize: sceneSize, size: size, background: background).pixelBuffer(over: background)
    }

    /// The frame showing `root`'s tree at `t` seconds (see `render(_:at:…)`) in BT.709
    /// video-range 4:2:0, converted straight from the canvas on this thread.
    public func renderPlanar(_ root: Layer, at t: Double, sceneSize: Size? = nil, size: PixelSize,
                             background: RGBA = .black) throws(MotionRendererError) -> PlanarPicture {
        try canvas(showing: root, at: t, sceneSize: sceneSize, size: size, background: background).planarPicture(over: background)
    }

    /// The frame showing `root`'s tree at `t` seconds, as straight RGBA (see `render(_:at:…)`).
    public func renderRGBA(_ root: Layer, at t: Double, sceneSize: Size? = nil, size: PixelSize,
                           background: RGBA = .clear) throws(MotionRendererError) -> RasterImage {
        try canvas(showing: root, at: t, sceneSize: sceneSize, size: size, background: background).rasterImage()
    }

    /// The canvas with `root`'s tree drawn at `t`, its stop events up to `t` delivered first.
    private func canvas(showing root: Layer, at t: Double, sceneSize: Size?, size: PixelSize,
                        background: RGBA) throws(MotionRendererError) -> Canvas {
        root.advance(to: t)
        return try draw(root, state: root.presentation(at: t), at: t, sceneSize: sceneSize, size: size, background: background)
    }

    private func draw<Node: RenderNode>(_ root: Node, state: LayerState, at t: Double, sceneSize: Size?,
                                        size: PixelSize, background: RGBA) throws(MotionRendererError) -> Canvas {
        let canvas = try self.canvas(for: size)
        canvas.clear(to: background)
        canvas.save()
        defer { canvas.restore() }
        if let sceneSize, sceneSize.isPositive,
           sceneSize.width != Double(size.width) || sceneSize.height != Double(size.height) {
            canvas.concatenate(.scale(x: Double(size.width) / sceneSize.width, y: Double(size.height) / sceneSize.height))
        }
        try draw(root, state: state, at: t, depth: 0, on: canvas)
        return canvas
    }

    private func canvas(for size: PixelSize) throws(MotionRendererError) -> Canvas {
        if let canvas, canvas.size == size { return canvas }
        canvas = nil // free the old picture before allocating the new one
        let made = try Self.makeCanvas(size)
        canvas = made
        return made
    }

    /// A new canvas, its failure as this module's error.
    static func makeCanvas(_ size: PixelSize) throws(MotionRendererError) -> Canvas {
        do {
            return try Canvas(size: size)
        } catch {
            switch error {
            case .invalidSize(let size): throw .invalidSize(size)
            case .surfaceFailed(let size, let detail): throw .canvasFailed(size: size, detail: detail)
            }
        }
    }

    // MARK: - One layer

    func draw<Node: RenderNode>(_ node: Node, state s: LayerState, at t: Double, depth: Int,
                                on canvas: Canvas) throws(MotionRendererError) {
        guard s.opacity > 0, s.opacity.isFinite else { return }
        if let mapping = Self.homography(for: s, viewer: viewers[depth]) {
            try drawInPerspective(node, state: s, mapping: mapping, at: t, depth: depth, on: canvas)
            return
        }
        let transform = Self.affineTransform(for: s)
        guard !transform.isDegenerate else { return }
        let opacity = min(1, s.opacity)
        let children = node.children
        let bounds = s.bounds
        let radius = s.cornerRadius

        let shadowAlpha = shadowAlpha(of: s)
        let hasBorder = s.borderWidth > 0 && s.borderColor.alpha > 0
        let hasBackground = s.backgroundColor.alpha > 0
        let hasContents = s.contents != nil || s.contentsCrossFade?.from != nil
        let parts = (shadowAlpha > 0 ? 1 : 0) + (hasBackground ? 1 : 0) + (hasContents ? 1 : 0)
            + (hasBorder ? 1 : 0) + (children.isEmpty ? 0 : 2)
        guard parts > 0 else { return }
        // One part alone can take the opacity itself; overlapping parts need a group so that they
        // do not show through each other.
        let grouped = opacity < 1 && parts > 1
        let alpha = grouped ? 1 : opacity

        canvas.save()
        defer { canvas.restore() }
        canvas.concatenate(transform)
        if grouped {
            if children.isEmpty { clipToExtent(of: s, on: canvas) }
            canvas.beginGroup()
        }
        defer { if grouped { canvas.endGroup(alpha: opacity) } }

        if shadowAlpha > 0 {
            // Sprites and scaling can take the blur past the scene's limit: the widest drawn
            // follows the frame (SceneLimits.shadowBlurLimit), so memory follows it too.
            canvas.drawShadow(of: bounds, cornerRadius: radius, offset: s.shadowOffset, blurRadius: s.shadowRadius,
                              color: s.shadowColor.fading(by: shadowAlpha * alpha),
                              maxBlurRadius: SceneLimits.shadowBlurLimit(width: canvas.size.width, height: canvas.size.height))
        }
        if hasBackground {
            canvas.fill(bounds, cornerRadius: radius, color: s.backgroundColor.fading(by: alpha))
        }
        if hasContents { try drawContents(of: s, layer: node.name, alpha: alpha, on: canvas) }
        if !children.isEmpty {
            let sublayerTransform = s.sublayerTransform
            if sublayerTransform != .identity {
                canvas.save()
                canvas.concatenate(Self.sublayerAffineTransform(for: s))
                if sublayerTransform.perspective > 0, sublayerTransform.perspective.isFinite {
                    viewers[depth + 1] = Viewer(center: Self.anchor(of: s), distance: sublayerTransform.perspective)
                }
            }
            defer {
                if sublayerTransform != .identity {
                    viewers[depth + 1] = nil
                    canvas.restore()
                }
            }
            try drawSublayers(of: node, at: t, depth: depth, on: canvas)
        }
        if hasBorder {
            canvas.strokeBorder(of: bounds, cornerRadius: radius, width: s.borderWidth,
                                color: s.borderColor.fading(by: alpha))
        }
    }

    private func drawSublayers<Node: RenderNode>(of node: Node, at t: Double, depth: Int,
                                                 on canvas: Canvas) throws(MotionRendererError) {
        if levels.count <= depth { levels.append(Level()) }
        let level = levels[depth]
        level.states.removeAll(keepingCapacity: true)
        level.order.removeAll(keepingCapacity: true)
        var ordered = true
        for (index, child) in node.children.enumerated() {
            let state = child.state(at: t)
            if let last = level.states.last, state.zPosition < last.zPosition { ordered = false }
            level.states.append(state)
            level.order.append(index)
        }
        if !ordered {
            let states = level.states
            level.order.sort { (states[$0].zPosition, $0) < (states[$1].zPosition, $1) }
        }
        let children = node.children
        for position in level.order.indices {
            let index = level.order[position]
            try draw(children[index], state: level.states[index], at: t, depth: depth + 1, on: canvas)
        }
    }

    /// The shadow's share of opacity, 0 when there is none or nothing to cast it.
    private func shadowAlpha(of s: LayerState) -> Double {
        guard s.shadowOpacity > 0, s.shadowColor.alpha > 0 else { return 0 }
        let shape: Double
        if s.contents != nil || s.contentsCrossFade?.from != nil {
            shape = 1
        } else {
            shape = max(s.backgroundColor.alpha, s.borderWidth > 0 ? s.borderColor.alpha : 0)
        }
        return min(1, s.shadowOpacity) * min(1, max(0, shape))
    }

    /// Clips a leaf layer's group to what it can touch (bounds and blurred shadow), so the group
    /// surface Cairo allocates is no larger than the layer.
    private func clipToExtent(of s: LayerState, on canvas: Canvas) {
        var minX = s.bounds.minX, minY = s.bounds.minY, maxX = s.bounds.maxX, maxY = s.bounds.maxY
        if shadowAlpha(of: s) > 0 {
            let reach = 3 * max(0, s.shadowRadius) + 2
            minX = min(minX, s.bounds.minX + s.shadowOffset.x - reach)
            minY = min(minY, s.bounds.minY + s.shadowOffset.y - reach)
            maxX = max(maxX, s.bounds.maxX + s.shadowOffset.x + reach)
            maxY = max(maxY, s.bounds.maxY + s.shadowOffset.y + reach)
        }
        // One pixel more on each side keeps the antialiased edge.
        let pixel = 1 / max(1e-6, abs(canvas.currentTransform.a * canvas.currentTransform.d
                                      - canvas.currentTransform.b * canvas.currentTransform.c).squareRoot())
        canvas.clip(to: Rect(x: minX - pixel, y: minY - pixel, width: maxX - minX + 2 * pixel, height: maxY - minY + 2 * pixel))
    }

    /// One depth's scratch arrays; a class so that sorting reads the states while it reorders.
    private final class Level {
        var states: [LayerState] = []
        var order: [Int] = []
    }
}

// MARK: - Trees the renderer can walk

/// A layer tree the renderer walks: a presented snapshot, or live layers read at a time.
protocol RenderNode {
    associatedtype Child: RenderNode
    var name: String { get }
    var children: [Child] { get }
    func state(at t: Double) -> LayerState
}

extension PresentedLayer: RenderNode {
    var children: [PresentedLayer] { sublayers }
    func state(at t: Double) -> LayerState { state }
}

extension Layer: RenderNode {
    var children: [Layer] { sublayers }
    func state(at t: Double) -> LayerState { presentation(at: t) }
}
