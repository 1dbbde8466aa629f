import Foundation
import ViewfinderCore

/// Three numbers along x, y and z: a layer's scale, rotation (radians) or translation per axis.
public struct Vector3: Sendable, Hashable, CustomStringConvertible {
    /// Along x (rightwards on screen).
    public var x: Double
    /// Along y (downwards on screen).
    public var y: Double
    /// Along z (towards the viewer).
    public var z: Double

    /// A vector of (x, y, z).
    public init(x: Double, y: Double, z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    /// The same value on every axis.
    public init(all value: Double) {
        self.init(x: value, y: value, z: value)
    }

    /// (0, 0, 0): no rotation, no translation.
    public static let zero = Vector3(x: 0, y: 0, z: 0)
    /// (1, 1, 1): no scaling.
    public static let one = Vector3(x: 1, y: 1, z: 1)

    /// One component, chosen by axis, so that sprites can address an axis without a switch each.
    public subscript(axis: Axis) -> Double {
        get {
            switch axis {
            case .x: x
            case .y: y
            case .z: z
            }
        }
        set {
            switch axis {
            case .x: x = newValue
            case .y: y = newValue
            case .z: z = newValue
            }
        }
    }

    /// "(x, y, z)" for messages and test failures.
    public var description: String { "(\(x), \(y), \(z))" }
}

/// One of the three spatial axes a sprite can rotate, scale or translate along.
public enum Axis: String, Sendable, Hashable, CaseIterable {
    /// The key path to this axis's component of a vector.
    var component: WritableKeyPath<Vector3, Double> {
        switch self {
        case .x: \.x
        case .y: \.y
        case .z: \.z
        }
    }

    /// Horizontal, rightwards.
    case x
    /// Vertical, downwards.
    case y
    /// Depth, towards the viewer.
    case z
}
