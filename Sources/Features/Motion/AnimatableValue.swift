import Foundation
import ViewfinderCore

/// A value a sprite moves between, with its kind spelled out as a case, so that thousands of
/// sprites evaluate per frame without boxing values in existentials.
public enum AnimatableValue: Sendable, Hashable {
    /// A plain number: opacity, a radius, an angle, one axis of a scale.
    case number(Double)
    /// A point: a position, an anchor, a shadow offset.
    case point(Point)
    /// A rectangle: bounds or a contents rectangle.
    case rect(Rect)
    /// A colour.
    case color(RGBA)
    /// A picture (nil: none); it cross-fades rather than interpolates.
    case image(ImageReference?)
    /// Three numbers: a scale, rotation or translation on all axes at once.
    case vector(Vector3)
    /// One value per part of a grouped sprite (a shadow's offset, opacity, radius and colour),
    /// nil for a part a `from`, `to` or `by` leaves out.
    case group([AnimatableValue?])

    /// The kinds of value, one per case: what a property holds and a scene spells.
    public enum Kind: Sendable, Hashable {
        case number, point, rect, color, image, vector, group
    }

    /// This value's kind.
    public var kind: Kind {
        switch self {
        case .number: .number
        case .point: .point
        case .rect: .rect
        case .color: .color
        case .image: .image
        case .vector: .vector
        case .group: .group
        }
    }

    /// The value `fraction` of the way from this one to `end` (beyond 0…1 it extrapolates, so
    /// springs and overshooting curves overshoot). Different kinds, or pictures, jump at 1.
    public func interpolated(to end: AnimatableValue, fraction: Double) -> AnimatableValue {
        func mix(_ a: Double, _ b: Double) -> Double { a + (b - a) * fraction }
        switch (self, end) {
        case let (.number(a), .number(b)):
            return .number(mix(a, b))
        case let (.point(a), .point(b)):
            return .point(Point(x: mix(a.x, b.x), y: mix(a.y, b.y)))
        case let (.rect(a), .rect(b)):
            return .rect(Rect(x: mix(a.minX, b.minX), y: mix(a.minY, b.minY),
                              width: mix(a.width, b.width), height: mix(a.height, b.height)))
        case let (.color(a), .color(b)):
            return .color(RGBA(red: mix(a.red, b.red), green: mix(a.green, b.green),
                               blue: mix(a.blue, b.blue), alpha: mix(a.alpha, b.alpha)))
        case let (.vector(a), .vector(b)):
            return .vector(Vector3(x: mix(a.x, b.x), y: mix(a.y, b.y), z: mix(a.z, b.z)))
        case let (.group(a), .group(b)) where a.count == b.count:
            return .group(zip(a, b).map { pair in
                guard let a = pair.0, let b = pair.1 else { return pair.0 ?? pair.1 }
                return a.interpolated(to: b, fraction: fraction)
            })
        default:
            return fraction >= 1 ? end : self
        }
    }

    /// This value times `factor` (pictures stay as they are), for a cumulative sprite's offset
    /// per cycle.
    public func scaled(by factor: Double) -> AnimatableValue {
        switch self {
        case .number(let n): .number(n * factor)
        case .point(let p): .point(Point(x: p.x * factor, y: p.y * factor))
        case .rect(let r): .rect(Rect(x: r.minX * factor, y: r.minY * factor, width: r.width * factor, height: r.height * factor))
        case .color(let c): .color(RGBA(red: c.red * factor, green: c.green * factor, blue: c.blue * factor, alpha: c.alpha * factor))
        case .vector(let v): .vector(Vector3(x: v.x * factor, y: v.y * factor, z: v.z * factor))
        case .group(let parts): .group(parts.map { $0?.scaled(by: factor) })
        case .image: self
        }
    }

    /// This value moved by `offset` (a "by" sprite's end value); kinds that cannot add (pictures,
    /// or mismatched kinds) give `offset` itself.
    public func adding(_ offset: AnimatableValue) -> AnimatableValue {
        switch (self, offset) {
        case let (.number(a), .number(b)):
            return .number(a + b)
        case let (.point(a), .point(b)):
            return .point(Point(x: a.x + b.x, y: a.y + b.y))
        case let (.rect(a), .rect(b)):
            return .rect(Rect(x: a.minX + b.minX, y: a.minY + b.minY,
                              width: a.width + b.width, height: a.height + b.height))
        case let (.color(a), .color(b)):
            return .color(RGBA(red: a.red + b.red, green: a.green + b.green,
                               blue: a.blue + b.blue, alpha: a.alpha + b.alpha))
        case let (.vector(a), .vector(b)):
            return .vector(Vector3(x: a.x + b.x, y: a.y + b.y, z: a.z + b.z))
        case let (.group(a), .group(b)) where a.count == b.count:
            return .group(zip(a, b).map { pair in pair.1.map { pair.0?.adding($0) ?? $0 } ?? pair.0 })
        default:
            return offset
        }
    }
}

/// A Swift type a sprite can animate: it converts to and from `AnimatableValue`.
public protocol Animatable: Sendable {
    /// This value as an `AnimatableValue`.
    var animatableValue: AnimatableValue { get }
    /// The value inside `value`, or nil when `value` is of another kind.
    init?(animatableValue value: AnimatableValue)
}

extension Double: Animatable {
    /// `.number(self)`.
    public var animatableValue: AnimatableValue { .number(self) }
    /// The number of a `.number`.
    public init?(animatableValue value: AnimatableValue) {
        guard case .number(let n) = value else { return nil }
        self = n
    }
}

extension Point: Animatable {
    /// `.point(self)`.
    public var animatableValue: AnimatableValue { .point(self) }
    /// The point of a `.point`.
    public init?(animatableValue value: AnimatableValue) {
        guard case .point(let p) = value else { return nil }
        self = p
    }
}

extension Rect: Animatable {
    /// `.rect(self)`.
    public var animatableValue: AnimatableValue { .rect(self) }
    /// The rectangle of a `.rect`.
    public init?(animatableValue value: AnimatableValue) {
        guard case .rect(let r) = value else { return nil }
        self = r
    }
}

extension RGBA: Animatable {
    /// `.color(self)`.
    public var animatableValue: AnimatableValue { .color(self) }
    /// The colour of a `.color`.
    public init?(animatableValue value: AnimatableValue) {
        guard case .color(let c) = value else { return nil }
        self = c
    }
}

extension ImageReference: Animatable {
    /// `.image(self)`.
    public var animatableValue: AnimatableValue { .image(self) }
    /// The picture of a `.image` that names one.
    public init?(animatableValue value: AnimatableValue) {
        guard case .image(let i?) = value else { return nil }
        self = i
    }
}

extension Optional: Animatable where Wrapped == ImageReference {
    /// `.image(self)`: a picture or none.
    public var animatableValue: AnimatableValue { .image(self) }
    /// The picture (or none) of a `.image`.
    public init?(animatableValue value: AnimatableValue) {
        guard case .image(let i) = value else { return nil }
        self = i
    }
}

extension Vector3: Animatable {
    /// `.vector(self)`.
    public var animatableValue: AnimatableValue { .vector(self) }
    /// The vector of a `.vector`.
    public init?(animatableValue value: AnimatableValue) {
        guard case .vector(let v) = value else { return nil }
        self = v
    }
}
