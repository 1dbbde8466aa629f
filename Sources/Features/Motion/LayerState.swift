import Foundation
import ViewfinderCore

/// A picture a layer shows, by file path or by a name a renderer resolves.
public struct ImageReference: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The path or name, exactly as given.
    public var name: String

    /// A reference to the image at a path or with a name.
    public init(_ name: String) {
        self.name = name
    }

    /// A reference written as a string literal.
    public init(stringLiteral value: String) {
        self.init(value)
    }

    /// The path or name.
    public var description: String { name }
}

/// How a picture drawn smaller than it is gets sampled (Core Animation's minification filter).
public enum MinificationFilter: String, Sendable, Hashable, CaseIterable {
    /// Smoothly averaged (the default).
    case linear
    /// Averaged across pre-shrunk levels.
    case trilinear
    /// The nearest pixel: blocky, for pixel art.
    case nearest
}

/// A contents cross-fade in progress: the old picture shows beneath the new one, whose share
/// grows from 0 to 1.
public struct ContentsCrossFade: Sendable, Hashable {
    /// The picture being faded away (nil: none).
    public var from: ImageReference?
    /// How much of the new picture (`LayerState.contents`) shows: 0 = only `from`, 1 = only the new.
    public var progress: Double

    /// A cross-fade from `from` that has reached `progress`.
    public init(from: ImageReference?, progress: Double) {
        self.from = from
        self.progress = progress
    }
}

/// Every value a layer draws with: both a layer's *model* (what the program set) and its
/// *presentation* (what is on screen at an instant, with the running sprites applied), as in
/// Core Animation. Defaults are Core Animation's.
///
/// A plain value with no references except strings, so computing one per frame allocates nothing.
public struct LayerState: Sendable, Hashable {
    /// Where the anchor point sits in the superlayer's coordinates.
    public var position: Point = .zero
    /// The layer's own coordinate space: its origin and its size.
    public var bounds: Rect = Rect(x: 0, y: 0, width: 0, height: 0)
    /// The point in the bounds, as fractions (0…1) of its size, that sits at `position` and about
    /// which the transform turns and scales.
    public var anchorPoint: Point = Point(x: 0.5, y: 0.5)
    /// Stacking order among siblings: higher draws later (on top).
    public var zPosition: Double = 0
    /// The anchor's depth: the transform turns about (anchor, anchorPointZ), in points.
    public var anchorPointZ: Double = 0
    /// Scale, rotation, translation and perspective.
    public var transform: LayerTransform = .identity
    /// A transform applied to the sublayers (not the layer itself), about the anchor point —
    /// Core Animation's `sublayerTransform`; its perspective is the viewer of every sublayer
    /// that has none of its own.
    public var sublayerTransform: LayerTransform = .identity
    /// 0 (invisible) … 1 (opaque), multiplied down the tree.
    public var opacity: Double = 1
    /// The fill behind the contents.
    public var backgroundColor: RGBA = .clear
    /// Radius of the rounded corners of the background and border.
    public var cornerRadius: Double = 0
    /// Width of the border drawn inside the bounds.
    public var borderWidth: Double = 0
    /// Colour of the border.
    public var borderColor: RGBA = .black
    /// How far the shadow is displaced (x rightwards, y downwards).
    public var shadowOffset: Point = Point(x: 0, y: -3)
    /// 0 (no shadow, the default) … 1.
    public var shadowOpacity: Double = 0
    /// Blur radius of the shadow.
    public var shadowRadius: Double = 3
    /// Colour of the shadow.
    public var shadowColor: RGBA = .black
    /// The picture drawn in the bounds, if any.
    public var contents: ImageReference?
    /// The part of the picture shown, in fractions of its size (unit rectangle = all of it).
    public var contentsRect: Rect = Rect(x: 0, y: 0, width: 1, height: 1)
    /// The part of the picture that stretches (unit coordinates of the part `contentsRect`
    /// shows): outside it, corners keep their size and edges stretch one way only — a
    /// nine-slice. The unit rectangle (the default) stretches all of it.
    public var contentsCenter: Rect = Rect(x: 0, y: 0, width: 1, height: 1)
    /// Picture pixels per point: the fixed corners of a nine-slice are their pixel size divided
    /// by this.
    public var contentsScale: Double = 1
    /// How the picture is sampled when drawn smaller than it is: "linear" (the default),
    /// "trilinear" or "nearest".
    public var minificationFilter: MinificationFilter = .linear
    /// Set while a contents sprite cross-fades from an older picture to `contents`.
    public var contentsCrossFade: ContentsCrossFade?
    /// Values a program adds to its layers by name (a custom layer's `progress`): numbers,
    /// points or colours, animated by `motion.custom("progress")` and listed in the scene JSON.
    /// Empty by default; only a layer with custom sprites copies it per frame.
    public var custom: [String: AnimatableValue] = [:]

    /// A state with Core Animation's defaults: at the origin, empty, opaque, untransformed.
    public init() {}

    /// A state with the given geometry and Core Animation's defaults for everything else.
    public init(position: Point, bounds: Rect) {
        self.position = position
        self.bounds = bounds
    }

    /// The rectangle the layer covers in its superlayer before its transform: the bounds placed
    /// so that the anchor point lands on `position`.
    public var frame: Rect {
        Rect(x: position.x - anchorPoint.x * bounds.width, y: position.y - anchorPoint.y * bounds.height,
             width: bounds.width, height: bounds.height)
    }
}
