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
        default:
            return fraction >= 1 ? end : self
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
        default:
            return offset
        }
    }
}

/// A Swift type a sprite can animate: it converts to and from `AnimatableValue`.
public protocol Animatable: Sendable {
    /// This value as an `AnimatableValue`.
    var animatableValue: AnimatableValue { get }
}

extension Double: Animatable {
    /// `.number(self)`.
    public var animatableValue: AnimatableValue { .number(self) }
}

extension Point: Animatable {
    /// `.point(self)`.
    public var animatableValue: AnimatableValue { .point(self) }
}

extension Rect: Animatable {
    /// `.rect(self)`.
    public var animatableValue: AnimatableValue { .rect(self) }
}

extension RGBA: Animatable {
    /// `.color(self)`.
    public var animatableValue: AnimatableValue { .color(self) }
}

extension ImageReference: Animatable {
    /// `.image(self)`.
    public var animatableValue: AnimatableValue { .image(self) }
}
