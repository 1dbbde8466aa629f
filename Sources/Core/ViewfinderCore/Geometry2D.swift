import Foundation

/// A position in a plane with fractional coordinates: screen points in a viewport, or image
/// pixels in a picture. The origin is the top-left corner and y grows downwards.
public struct Point: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Distance from the left edge.
    public var x: Double
    /// Distance from the top edge.
    public var y: Double

    /// A point at (x, y).
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The origin, (0, 0).
    public static let zero = Point(x: 0, y: 0)

    /// Whether both coordinates are numbers rather than infinities or NaN.
    public var isFinite: Bool { x.isFinite && y.isFinite }

    /// "(x, y)" for messages and test failures.
    public var description: String { "(\(x), \(y))" }
}

/// A width and a height with fractional values (screen points or image pixels).
public struct Size: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Horizontal extent.
    public var width: Double
    /// Vertical extent.
    public var height: Double

    /// A size of width × height.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// A size whose negative or non-finite sides count as 0 (for layouts that must never see
    /// a negative box).
    public init(clampingWidth width: Double, height: Double) {
        self.init(width: width.isFinite ? max(0, width) : 0, height: height.isFinite ? max(0, height) : 0)
    }

    /// The same size in fractional units, so a photo's pixel size can enter the crop maths.
    public init(_ pixels: PixelSize) {
        self.init(width: Double(pixels.width), height: Double(pixels.height))
    }

    /// No width and no height.
    public static let zero = Size(width: 0, height: 0)

    /// The size of the upright box around a rectangle of this size turned by `degrees`:
    /// (w|cos θ| + h|sin θ|) × (w|sin θ| + h|cos θ|); itself for whole turns or non-numbers.
    public func boundingSize(turnedBy degrees: Double) -> Size {
        guard degrees.isFinite, degrees.truncatingRemainder(dividingBy: 360) != 0 else { return self }
        let radians = degrees * .pi / 180
        let (c, s) = (abs(cos(radians)), abs(sin(radians)))
        return Size(width: width * c + height * s, height: width * s + height * c)
    }

    /// Width divided by height (infinite or NaN when the height is zero).
    public var aspectRatio: Double { width / height }

    /// Whether both sides are finite and greater than zero, i.e. something can be drawn in it.
    public var isPositive: Bool { width.isFinite && height.isFinite && width > 0 && height > 0 }

    /// "width×height" for messages and test failures.
    public var description: String { "\(width)×\(height)" }
}

/// An axis-aligned rectangle: an origin (its top-left corner) and a size.
///
/// It encodes flat, as `{"x", "y", "width", "height"}`, because that is how a person reads and
/// writes a crop in a spec file.
public struct Rect: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The top-left corner.
    public var origin: Point
    /// The width and height; expected to be non-negative.
    public var size: Size

    /// A rectangle with its top-left corner at `origin`.
    public init(origin: Point, size: Size) {
        self.origin = origin
        self.size = size
    }

    /// A rectangle with its top-left corner at (x, y).
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.init(origin: Point(x: x, y: y), size: Size(width: width, height: height))
    }

    /// A rectangle of `size` whose centre is `center`.
    public init(center: Point, size: Size) {
        self.init(x: center.x - size.width / 2, y: center.y - size.height / 2, width: size.width, height: size.height)
    }

    /// Left edge.
    public var minX: Double { origin.x }
    /// Top edge.
    public var minY: Double { origin.y }
    /// Right edge.
    public var maxX: Double { origin.x + size.width }
    /// Bottom edge.
    public var maxY: Double { origin.y + size.height }
    /// Horizontal middle.
    public var midX: Double { origin.x + size.width / 2 }
    /// Vertical middle.
    public var midY: Double { origin.y + size.height / 2 }
    /// Horizontal extent.
    public var width: Double { size.width }
    /// Vertical extent.
    public var height: Double { size.height }
    /// The middle point.
    public var center: Point { Point(x: midX, y: midY) }

    /// Whether every coordinate is a number rather than an infinity or NaN.
    public var isFinite: Bool { origin.isFinite && size.width.isFinite && size.height.isFinite }

    /// Whether `other` lies wholly inside this rectangle, allowing each edge to stick out by up
    /// to `tolerance`, because a crop computed in floating point can miss an edge by an ulp.
    /// NaN anywhere makes the answer false.
    public func contains(_ other: Rect, tolerance: Double = 0) -> Bool {
        other.minX >= minX - tolerance && other.minY >= minY - tolerance
            && other.maxX <= maxX + tolerance && other.maxY <= maxY + tolerance
    }

    /// Whether `point` lies inside or on the edge of this rectangle.
    public func contains(_ point: Point) -> Bool {
        point.x >= minX && point.x <= maxX && point.y >= minY && point.y <= maxY
    }

    /// "(x, y, width, height)" for messages and test failures.
    public var description: String { "(\(origin.x), \(origin.y), \(size.width), \(size.height))" }

    /// This rectangle shrunk by `amount` on every side (never below zero size).
    public func insetBy(_ amount: Double) -> Rect {
        Rect(x: minX + amount, y: minY + amount, width: max(0, width - 2 * amount), height: max(0, height - 2 * amount))
    }

    /// The largest rectangle of `content`'s aspect ratio that fits inside this one, centred
    /// (how a picture is shown without cropping). Empty when either size is not positive.
    public func aspectFit(_ content: Size) -> Rect {
        guard content.isPositive, size.isPositive else { return Rect(x: midX, y: midY, width: 0, height: 0) }
        let scale = min(width / content.width, height / content.height)
        return Rect(center: center, size: Size(width: content.width * scale, height: content.height * scale))
    }

    // MARK: - Codable

    private enum CodingKeys: String, CodingKey {
        case x, y, width, height
    }

    /// Reads the flat `{"x", "y", "width", "height"}` form.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            x: try c.decode(Double.self, forKey: .x),
            y: try c.decode(Double.self, forKey: .y),
            width: try c.decode(Double.self, forKey: .width),
            height: try c.decode(Double.self, forKey: .height)
        )
    }

    /// Writes the flat `{"x", "y", "width", "height"}` form.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(origin.x, forKey: .x)
        try c.encode(origin.y, forKey: .y)
        try c.encode(size.width, forKey: .width)
        try c.encode(size.height, forKey: .height)
    }
}
