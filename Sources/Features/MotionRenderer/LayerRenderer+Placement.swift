import Foundation
import Imaging
import Motion
import ViewfinderCore

extension LayerRenderer {
    /// How a layer's bounds coordinates map into its superlayer's bounds coordinates, as
    /// `render` draws it: the superlayer's sublayer transform (nil superlayer: the root), then the
    /// layer's own placement, in perspective when the layer's or the superlayer's sublayer
    /// perspective shows (`homography(for:viewer:)`), else affine (`affineTransform(for:)`).
    ///
    /// Chaining these from the root gives each layer's mapping onto the screen; a layer flattened
    /// into its superlayer and then projected is exactly the product, because both are planes.
    /// With `projective` false every perspective is ignored (the orthographic view), for a
    /// drawer that cannot divide by w.
    public static func mapping(for state: LayerState, under superlayer: LayerState?, projective: Bool = true) -> Homography {
        var outer = Homography.identity
        var viewer: Viewer?
        if let parent = superlayer, parent.sublayerTransform != .identity {
            outer = Homography(sublayerAffineTransform(for: parent))
            let distance = parent.sublayerTransform.perspective
            if distance > 0, distance.isFinite { viewer = Viewer(center: anchor(of: parent), distance: distance) }
        }
        let projected = projective ? homography(for: state, viewer: viewer) : nil
        return outer.concatenating(projected ?? Homography(affineTransform(for: state)))
    }

    /// What a layer draws itself, in its bounds coordinates: the bounds, and the shadow's
    /// shape (the bounds moved by the offset) grown by the blur's reach when it casts one —
    /// only on the side the offset moves it to, so a picture of the layer holds no pixels the
    /// shadow cannot reach.
    static func extent(of s: LayerState) -> Rect {
        guard s.shadowOpacity > 0 else { return s.bounds }
        let reach = 3 * max(0, min(s.shadowRadius, SceneLimits.maxShadowRadius)) + 2
        let (dx, dy) = (s.shadowOffset.x, s.shadowOffset.y)
        let b = s.bounds
        let minX = min(b.minX, b.minX + dx - reach), maxX = max(b.maxX, b.maxX + dx + reach)
        let minY = min(b.minY, b.minY + dy - reach), maxY = max(b.maxY, b.maxY + dy + reach)
        return Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    /// A layer's own look, drawn flat: see `renderFace(of:named:scale:)`.
    public struct Face: Sendable, Hashable {
        /// The pixels (straight RGBA, transparent around the layer).
        public var image: RasterImage
        /// The bounds-coordinate point at the picture's top-left corner.
        public var origin: Point
        /// Picture pixels per point.
        public var scale: Double
    }

    /// The layer's own parts — shadow, background, contents and border — without its sublayers,
    /// transform or opacity, at `scale` pixels per point (at most 4096 pixels a side): what a
    /// widget shows for the layer when the toolkit places and fades it (`MotionStage`). The
    /// border is part of the face, so there it lies under the sublayers rather than over them.
    /// Nil when the layer draws nothing of its own.
    public func renderFace(of state: LayerState, named name: String, scale: Double) throws(MotionRendererError) -> Face? {
        var flat = state
        flat.opacity = 1
        let hasOwnParts = flat.backgroundColor.alpha > 0 || flat.contents != nil || flat.contentsCrossFade?.from != nil
            || (flat.borderWidth > 0 && flat.borderColor.alpha > 0)
        let region = Self.extent(of: flat)
        guard hasOwnParts, region.width > 0, region.height > 0, region.isFinite else { return nil }
        let k = min(max(scale, 1e-3), 4096 / max(region.width, region.height))
        let size = PixelSize(width: max(1, Int((region.width * k).rounded(.up))), height: max(1, Int((region.height * k).rounded(.up))))
        let anchor = Self.anchor(of: flat)
        flat.transform = LayerTransform(scale: Vector3(x: k, y: k, z: 1))
        flat.sublayerTransform = .identity
        flat.position = Point(x: k * (anchor.x - region.minX), y: k * (anchor.y - region.minY))
        let image = try renderRGBA(PresentedLayer(name: name, state: flat), size: size)
        return Face(image: image, origin: Point(x: region.minX, y: region.minY), scale: k)
    }
}
