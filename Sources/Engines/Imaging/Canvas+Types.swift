import Foundation
import ViewfinderCore

extension Canvas {
    /// A colour with transparency (straight alpha, components 0…1; clamped when drawn).
    public typealias Color = RGBA

    /// A 2D affine transform, as Core Graphics writes it: a point (x, y) maps to
    /// (a·x + c·y + tx, b·x + d·y + ty).
    public struct Transform: Sendable, Hashable, CustomStringConvertible {
        /// How x contributes to x.
        public var a: Double
        /// How x contributes to y.
        public var b: Double
        /// How y contributes to x.
        public var c: Double
        /// How y contributes to y.
        public var d: Double
        /// Added to x.
        public var tx: Double
        /// Added to y.
        public var ty: Double

        /// A transform from its six coefficients.
        public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
            self.tx = tx
            self.ty = ty
        }

        /// The transform that changes nothing.
        public static let identity = Transform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

        /// A shift by (x, y).
        public static func translation(x: Double, y: Double) -> Transform {
            Transform(a: 1, b: 0, c: 0, d: 1, tx: x, ty: y)
        }

        /// A scaling about the origin.
        public static func scale(x: Double, y: Double) -> Transform {
            Transform(a: x, b: 0, c: 0, d: y, tx: 0, ty: 0)
        }

        /// A turn about the origin by `angle` radians (clockwise on a y-down canvas).
        public static func rotation(_ angle: Double) -> Transform {
            let (s, c) = (sin(angle), cos(angle))
            return Transform(a: c, b: s, c: -s, d: c, tx: 0, ty: 0)
        }

        /// `other` applied first, then this transform.
        public func concatenating(_ other: Transform) -> Transform {
            Transform(a: a * other.a + c * other.b, b: b * other.a + d * other.b,
                      c: a * other.c + c * other.d, d: b * other.c + d * other.d,
                      tx: a * other.tx + c * other.ty + tx, ty: b * other.tx + d * other.ty + ty)
        }

        /// Where this transform takes `point`.
        public func apply(to point: Point) -> Point {
            Point(x: a * point.x + c * point.y + tx, y: b * point.x + d * point.y + ty)
        }

        /// Whether the transform squashes the plane to a line or a point (nothing drawn through
        /// it would be visible).
        public var isDegenerate: Bool {
            let determinant = a * d - b * c
            return !determinant.isFinite || abs(determinant) < 1e-12 || !tx.isFinite || !ty.isFinite
        }

        /// "[a b c d tx ty]" for messages and test failures.
        public var description: String { "[\(a) \(b) \(c) \(d) \(tx) \(ty)]" }
    }

    /// How a drawing combines with what is already on the canvas.
    /// How a picture drawn smaller than it is gets sampled (Core Animation's minification filter).
    public enum ShrinkFilter: String, Sendable, Hashable, CaseIterable {
        /// From mipmap levels with Cairo's good filter (an area average): smooth, no aliasing.
        case linear
        /// The same levels, blended by Cairo's good filter; drawn as `linear` is here.
        case trilinear
        /// The nearest pixel of the full picture: blocky, as pixel art wants.
        case nearest
    }

    public enum BlendMode: Sendable, Hashable {
        /// Painted over: Porter–Duff *over*.
        case normal
        /// Added (premultiplied values summed, clamped): used to cross-dissolve two pictures as
        /// `old·(1 − p) + new·p` without the dip that two *over* draws would give.
        case plus
    }

    /// Why a canvas could not be made.
    public enum Error: Swift.Error, Sendable, Hashable, CustomStringConvertible {
        /// The size is empty, or larger than Cairo's 32 767-pixel limit per side.
        case invalidSize(PixelSize)
        /// Cairo could not allocate the surface (usually out of memory).
        case surfaceFailed(PixelSize, detail: String)

        /// What failed and what to do.
        public var description: String {
            switch self {
            case .invalidSize(let size):
                return tr("cannot draw a {size} picture: each side must be between 1 and 32767 pixels", ["size": size])
            case .surfaceFailed(let size, let detail):
                return tr("cannot make a {size} drawing surface ({detail}); try a smaller size", ["size": size, "detail": detail])
            }
        }
    }
}

extension Canvas.Error: ReadableError {}
