import Foundation
import ViewfinderCore

/// Which of a layer's values a sprite animates (Core Animation's key path).
public enum AnimatedProperty: Sendable, Hashable {
    /// `position`, a point.
    case position
    /// `bounds`, a rectangle.
    case bounds
    /// `anchorPoint`, a point in unit coordinates.
    case anchorPoint
    /// `zPosition`, a number.
    case zPosition
    /// `transform.scale` on one axis, or on all three when nil (Core Animation's `transform.scale`).
    case scale(Axis?)
    /// `transform.rotation` about one axis, in radians.
    case rotation(Axis)
    /// `transform.translation` along one axis.
    case translation(Axis)
    /// `transform.perspective`, the viewer's distance.
    case perspective
    /// `opacity`.
    case opacity
    /// `backgroundColor`.
    case backgroundColor
    /// `cornerRadius`.
    case cornerRadius
    /// `borderWidth`.
    case borderWidth
    /// `borderColor`.
    case borderColor
    /// `shadowOffset`, a point.
    case shadowOffset
    /// `shadowOpacity`.
    case shadowOpacity
    /// `shadowRadius`.
    case shadowRadius
    /// `shadowColor`.
    case shadowColor
    /// `contents`: the picture, cross-faded.
    case contents
    /// `contentsRect`, a rectangle in unit coordinates.
    case contentsRect
    /// Any other number in the layer's state, by key path.
    case custom(LayerKeyPath)

    /// The property's current value in `state`.
    public func value(in state: LayerState) -> AnimatableValue {
        switch self {
        case .position: .point(state.position)
        case .bounds: .rect(state.bounds)
        case .anchorPoint: .point(state.anchorPoint)
        case .zPosition: .number(state.zPosition)
        case .scale(let axis): .number(state.transform.scale[axis ?? .x])
        case .rotation(let axis): .number(state.transform.rotation[axis])
        case .translation(let axis): .number(state.transform.translation[axis])
        case .perspective: .number(state.transform.perspective)
        case .opacity: .number(state.opacity)
        case .backgroundColor: .color(state.backgroundColor)
        case .cornerRadius: .number(state.cornerRadius)
        case .borderWidth: .number(state.borderWidth)
        case .borderColor: .color(state.borderColor)
        case .shadowOffset: .point(state.shadowOffset)
        case .shadowOpacity: .number(state.shadowOpacity)
        case .shadowRadius: .number(state.shadowRadius)
        case .shadowColor: .color(state.shadowColor)
        case .contents: .image(state.contents)
        case .contentsRect: .rect(state.contentsRect)
        case .custom(let path): .number(state[keyPath: path.keyPath])
        }
    }

    /// Writes `value` into `state`; a value of the wrong kind is ignored (the chain's types and
    /// the scene parser never produce one).
    public func set(_ value: AnimatableValue, in state: inout LayerState) {
        switch (self, value) {
        case let (.position, .point(p)): state.position = p
        case let (.bounds, .rect(r)): state.bounds = r
        case let (.anchorPoint, .point(p)): state.anchorPoint = p
        case let (.zPosition, .number(n)): state.zPosition = n
        case let (.scale(nil), .number(n)): state.transform.scale = Vector3(all: n)
        case let (.scale(axis?), .number(n)): state.transform.scale[axis] = n
        case let (.rotation(axis), .number(n)): state.transform.rotation[axis] = n
        case let (.translation(axis), .number(n)): state.transform.translation[axis] = n
        case let (.perspective, .number(n)): state.transform.perspective = n
        case let (.opacity, .number(n)): state.opacity = n
        case let (.backgroundColor, .color(c)): state.backgroundColor = c
        case let (.cornerRadius, .number(n)): state.cornerRadius = n
        case let (.borderWidth, .number(n)): state.borderWidth = n
        case let (.borderColor, .color(c)): state.borderColor = c
        case let (.shadowOffset, .point(p)): state.shadowOffset = p
        case let (.shadowOpacity, .number(n)): state.shadowOpacity = n
        case let (.shadowRadius, .number(n)): state.shadowRadius = n
        case let (.shadowColor, .color(c)): state.shadowColor = c
        case let (.contents, .image(i)): state.contents = i
        case let (.contentsRect, .rect(r)): state.contentsRect = r
        case let (.custom(path), .number(n)): state[keyPath: path.keyPath] = n
        default: break
        }
    }
}

/// A key path to a number in `LayerState`, for custom sprites.
public struct LayerKeyPath: Sendable, Hashable {
    /// The path, e.g. `\.transform.perspective`.
    public let keyPath: WritableKeyPath<LayerState, Double> & Sendable

    /// Wraps a key path literal such as `\.zPosition`.
    public init(_ keyPath: WritableKeyPath<LayerState, Double> & Sendable) {
        self.keyPath = keyPath
    }

    /// Two wrappers are equal when their key paths are.
    public static func == (lhs: LayerKeyPath, rhs: LayerKeyPath) -> Bool {
        (lhs.keyPath as AnyKeyPath) == (rhs.keyPath as AnyKeyPath)
    }

    /// Hashes the key path.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(keyPath as AnyKeyPath)
    }
}
