import Foundation
import Imaging
import Motion
import ViewfinderCore

extension LayerRenderer {
    /// The 2D affine transform that takes a point in the layer's bounds coordinates to its
    /// superlayer's: `position · T · (−anchor)`, where the anchor is the bounds point at
    /// `anchorPoint` and T is the layer transform projected to 2D.
    ///
    /// The projection is **orthographic**: T is the upper-left 2×2 block (plus the x/y
    /// translation) of `translate · rotate(z) · rotate(y) · rotate(x) · scale`. So a rotation
    /// about y alone multiplies the projected width by cos θy, one about x alone the height by
    /// cos θx (a negative cosine mirrors the layer: its back shows, as a double-sided
    /// `CALayer`'s does); both together add the small shear a true orthographic view has.
    /// `perspective` and the z translation are ignored here (no vanishing point, no size change
    /// with depth); `zPosition` only orders siblings. With `perspective == 0` this is exactly how
    /// Core Animation flattens a layer; with perspective the renderer draws through
    /// `homography(for:)` instead.
    public static func affineTransform(for state: LayerState) -> Canvas.Transform {
        let anchor = anchor(of: state)
        return affine(state.transform, about: anchor, placedAt: Point(x: state.position.x, y: state.position.y))
    }

    /// The 2D part of `sublayerTransform`, about the anchor point in the layer's own bounds
    /// coordinates (orthographic, as `affineTransform(for:)`; its perspective is the sublayers'
    /// viewer instead, see `homography(for:viewer:)`).
    public static func sublayerAffineTransform(for state: LayerState) -> Canvas.Transform {
        let anchor = anchor(of: state)
        return affine(state.sublayerTransform, about: anchor, placedAt: anchor)
    }

    /// The anchor point in the layer's bounds coordinates.
    static func anchor(of state: LayerState) -> Point {
        Point(x: state.bounds.minX + state.anchorPoint.x * state.bounds.width,
              y: state.bounds.minY + state.anchorPoint.y * state.bounds.height)
    }

    /// `transform` projected orthographically, turning about `anchor`, which lands on `place`.
    private static func affine(_ transform: LayerTransform, about anchor: Point, placedAt place: Point) -> Canvas.Transform {
        let (sx, cx) = (sin(transform.rotation.x), cos(transform.rotation.x))
        let (sy, cy) = (sin(transform.rotation.y), cos(transform.rotation.y))
        let (sz, cz) = (sin(transform.rotation.z), cos(transform.rotation.z))
        // Rz · Ry · Rx (right-handed, y down: positive z turns clockwise on screen), rows and
        // columns 0…1 only, then the scale on the columns.
        let a = cz * cy * transform.scale.x
        let b = sz * cy * transform.scale.x
        let c = (cz * sy * sx - sz * cx) * transform.scale.y
        let d = (sz * sy * sx + cz * cx) * transform.scale.y
        return Canvas.Transform(a: a, b: b, c: c, d: d,
                                tx: place.x + transform.translation.x - (a * anchor.x + c * anchor.y),
                                ty: place.y + transform.translation.y - (b * anchor.x + d * anchor.y))
    }
}
