import Foundation
import ViewfinderCore

/// A layer's 3D transform kept as its parts (Core Animation's `transform.scale`, `.rotation`,
/// `.translation` key paths) rather than as a matrix, so that each part animates on its own and
/// a rotation to 2π really turns once instead of collapsing to the identity matrix.
///
/// A renderer composes it about the layer's anchor point as
/// `perspective · translate · rotate(z) · rotate(y) · rotate(x) · scale`, applied to points
/// relative to the anchor — the order of Core Animation's key-path setters.
public struct LayerTransform: Sendable, Hashable, CustomStringConvertible {
    /// Scale per axis; 1 leaves the layer as it is.
    public var scale: Vector3
    /// Rotation about each axis in radians; positive z turns clockwise on a y-down screen.
    public var rotation: Vector3
    /// Offset per axis in points, after rotating and scaling.
    public var translation: Vector3
    /// The viewer's distance from the z = 0 plane in points (Core Animation's `m34 = -1/d`);
    /// 0 means none (an orthographic view, where x/y rotations only foreshorten).
    public var perspective: Double

    /// A transform from its parts; every default leaves the layer unchanged.
    public init(scale: Vector3 = .one, rotation: Vector3 = .zero, translation: Vector3 = .zero, perspective: Double = 0) {
        self.scale = scale
        self.rotation = rotation
        self.translation = translation
        self.perspective = perspective
    }

    /// The transform that changes nothing.
    public static let identity = LayerTransform()

    /// "scale …, rotation …, translation …" for messages and test failures.
    public var description: String {
        "scale \(scale), rotation \(rotation), translation \(translation), perspective \(perspective)"
    }
}
