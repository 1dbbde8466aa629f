import Foundation
import ViewfinderCore

/// Grouped sprites: several values animated by one sprite, with one id, one didStop and one
/// timing (or spring), as the original's shadow, border, bounds and 3D move sprites. A part
/// left out of `from` starts where it is on screen; one left out of `to` and `by` ends at its
/// model value (so it stays put unless something else moves it).
extension Sprite {
    /// Sets the parts given (non-nil) of a group's `from`, `to` or `by`; `to` and `by` replace
    /// each other, as for single sprites.
    fileprivate func parts(_ slot: GroupSlot, _ values: [AnimatableValue?]) -> Sprite {
        with {
            switch slot {
            case .from: $0.from = .group(values)
            case .to:
                $0.to = .group(values)
                $0.by = nil
            case .by:
                $0.by = .group(values)
                $0.to = nil
            }
        }
    }
}

private enum GroupSlot {
    case from, to, by
}

/// The parts of a shadow sprite: `motion.shadow.to(offset:opacity:radius:color:)`.
public enum ShadowParts {}
/// The parts of a border sprite: `motion.border.to(width:color:)`.
public enum BorderParts {}
/// The parts of a bounds-size sprite: `motion.size.to(width:height:)`.
public enum SizeParts {}
/// The x, y and z of a 3D sprite: `motion.move3D.to(x:y:z:)`, `motion.translate.xyz`, ….
public enum AxisParts {}

extension Sprite where Value == ShadowParts {
    /// Ends at the parts given.
    public func to(offset: Point? = nil, opacity: Double? = nil, radius: Double? = nil, color: RGBA? = nil) -> Sprite {
        parts(.to, [offset?.animatableValue, opacity?.animatableValue, radius?.animatableValue, color?.animatableValue])
    }
    /// Starts from the parts given.
    public func from(offset: Point? = nil, opacity: Double? = nil, radius: Double? = nil, color: RGBA? = nil) -> Sprite {
        parts(.from, [offset?.animatableValue, opacity?.animatableValue, radius?.animatableValue, color?.animatableValue])
    }
    /// Ends the parts given that far from where they start.
    public func by(offset: Point? = nil, opacity: Double? = nil, radius: Double? = nil) -> Sprite {
        parts(.by, [offset?.animatableValue, opacity?.animatableValue, radius?.animatableValue, nil])
    }
}

extension Sprite where Value == BorderParts {
    /// Ends at the parts given.
    public func to(width: Double? = nil, color: RGBA? = nil) -> Sprite {
        parts(.to, [width?.animatableValue, color?.animatableValue])
    }
    /// Starts from the parts given.
    public func from(width: Double? = nil, color: RGBA? = nil) -> Sprite {
        parts(.from, [width?.animatableValue, color?.animatableValue])
    }
    /// Ends the width that far from where it starts.
    public func by(width: Double) -> Sprite {
        parts(.by, [width.animatableValue, nil])
    }
}

extension Sprite where Value == SizeParts {
    /// Ends at the width and height given.
    public func to(width: Double? = nil, height: Double? = nil) -> Sprite {
        parts(.to, [width?.animatableValue, height?.animatableValue])
    }
    /// Starts from the width and height given.
    public func from(width: Double? = nil, height: Double? = nil) -> Sprite {
        parts(.from, [width?.animatableValue, height?.animatableValue])
    }
    /// Ends that much wider and taller than it starts.
    public func by(width: Double? = nil, height: Double? = nil) -> Sprite {
        parts(.by, [width?.animatableValue, height?.animatableValue])
    }
}

extension Sprite where Value == AxisParts {
    /// Ends at the axes given.
    public func to(x: Double? = nil, y: Double? = nil, z: Double? = nil) -> Sprite {
        parts(.to, [x?.animatableValue, y?.animatableValue, z?.animatableValue])
    }
    /// Ends at `vector` on all three axes.
    public func to(_ vector: Vector3) -> Sprite { to(x: vector.x, y: vector.y, z: vector.z) }
    /// Starts from the axes given.
    public func from(x: Double? = nil, y: Double? = nil, z: Double? = nil) -> Sprite {
        parts(.from, [x?.animatableValue, y?.animatableValue, z?.animatableValue])
    }
    /// Starts from `vector` on all three axes.
    public func from(_ vector: Vector3) -> Sprite { from(x: vector.x, y: vector.y, z: vector.z) }
    /// Ends the axes given that far from where they start.
    public func by(x: Double? = nil, y: Double? = nil, z: Double? = nil) -> Sprite {
        parts(.by, [x?.animatableValue, y?.animatableValue, z?.animatableValue])
    }
    /// Ends `vector` away from where it starts.
    public func by(_ vector: Vector3) -> Sprite { by(x: vector.x, y: vector.y, z: vector.z) }
}
