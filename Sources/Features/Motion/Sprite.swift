import Foundation
import ViewfinderCore

/// One animation being built with a chain and then activated, e.g.
/// `layer.motion.rotate.z.to(.pi * 2).repeat(.forever).activate()`.
///
/// Each call returns a changed copy, so a half-built chain can be kept and reused. Nothing
/// moves until `activate()`; a start value left out is read from what is on screen then, an end
/// value left out is the model value (as in Core Animation).
///
/// `Value` is the Swift type of what it animates (`Double`, `Point`, …), or for a grouped sprite
/// a marker such as `ShadowParts` whose extension gives `to(offset:opacity:radius:color:)`.
public struct Sprite<Value> {
    /// The layer it animates.
    public let layer: Layer
    var pending: PendingSprite

    init(layer: Layer, property: AnimatedProperty) {
        self.layer = layer
        pending = PendingSprite(layer: layer, recipe: SpriteRecipe(property: property, appearance: layer.appearance))
    }

    /// Which of the layer's values it animates.
    public var property: AnimatedProperty { pending.recipe.property }

    func with(_ change: (inout SpriteRecipe) -> Void) -> Sprite {
        var copy = self
        var recipe = copy.pending.recipe
        change(&recipe)
        copy.pending = PendingSprite(layer: layer, recipe: recipe, didStop: pending.didStop, next: pending.next)
        return copy
    }

    /// Seconds of one pass (default: the layer's appearance, 0.25 s, or a spring's settling time).
    public func duration(_ seconds: Double) -> Sprite { with { $0.duration = seconds } }

    /// Seconds between activation and the first motion.
    public func delay(_ seconds: Double) -> Sprite { with { $0.delay = seconds } }

    /// How many cycles: a count (fractions allowed) or `.forever`.
    public func `repeat`(_ repetition: Repetition) -> Sprite { with { $0.repetition = repetition } }

    /// Plays each cycle forwards then backwards.
    public func autoreverse(_ enabled: Bool = true) -> Sprite { with { $0.autoreverses = enabled } }

    /// Paces progress with a curve.
    public func timing(_ curve: TimingCurve) -> Sprite { with { $0.curve = curve } }

    /// Paces progress with a spring; unless `duration` is given, one pass lasts until it settles.
    public func spring(mass: Double = 1, stiffness: Double = 100, damping: Double = 10,
                       initialVelocity: Double = 0) -> Sprite {
        timing(.spring(mass: mass, stiffness: stiffness, damping: damping, initialVelocity: initialVelocity))
    }

    /// Adds the sprite's value to what is on screen beneath it instead of replacing it, so that
    /// several sprites on one property combine (Core Animation's `additive`).
    public func additive(_ enabled: Bool = true) -> Sprite { with { $0.additive = enabled } }

    /// Starts each repeat where the previous one ended (Core Animation's `cumulative`), so
    /// `rotate.z.by(.pi / 2).repeat(4).cumulative()` turns a full circle in four steps.
    public func cumulative(_ enabled: Bool = true) -> Sprite { with { $0.cumulative = enabled } }

    /// Holds the end state after finishing (instead of returning to the model value).
    public func keepAlive(_ enabled: Bool = true) -> Sprite { with { $0.keepsAlive = enabled } }

    /// Calls `handler` once when the sprite stops, saying whether it finished or was interrupted.
    public func didStop(_ handler: @escaping (SpriteStop) -> Void) -> Sprite {
        var copy = self
        copy.pending.didStop = handler
        return copy
    }

    /// Activates `next` (on its own layer) when this sprite finishes — at exactly its end time —
    /// or, if this one already has a `then`, when the last of that chain finishes. An
    /// interrupted sprite starts nothing, so `clear()` leaves a layer still.
    public func then<Other>(_ next: Sprite<Other>) -> Sprite {
        var copy = self
        copy.pending = pending.appending(next.pending)
        return copy
    }

    /// Starts the sprite now and returns its id.
    @discardableResult
    public func activate() -> SpriteID {
        layer.activate(pending)
    }

    /// Starts the sprite under `name` unless one with that name is still running on the layer,
    /// in which case nothing happens; either way returns the id of the one running under it.
    @discardableResult
    public func activate(as name: String) -> SpriteID {
        with { $0.name = name }.activate()
    }
}

extension Sprite where Value: Animatable {
    /// Starts from `value` instead of what is on screen at activation.
    public func from(_ value: Value) -> Sprite { with { $0.from = value.animatableValue } }

    /// Ends at `value` (replacing any `by`).
    public func to(_ value: Value) -> Sprite {
        with {
            $0.to = value.animatableValue
            $0.by = nil
        }
    }

    /// Goes through keyframes instead of from/to.
    public func keyframes(_ keyframes: Keyframes<Value>) -> Sprite { with { $0.keyframes = keyframes.track } }
}

extension Sprite where Value == Double {
    /// Ends `offset` away from where it starts (replacing any `to`).
    public func by(_ offset: Double) -> Sprite {
        with {
            $0.by = .number(offset)
            $0.to = nil
        }
    }
}

extension Sprite where Value == Point {
    /// Ends `offset` away from where it starts (replacing any `to`).
    public func by(_ offset: Point) -> Sprite {
        with {
            $0.by = .point(offset)
            $0.to = nil
        }
    }

    /// Walks only the first `fraction` (0…1) of a path sprite's route, by distance.
    public func stop(atFraction fraction: Double) -> Sprite {
        with { $0.pathStop = fraction.isFinite ? min(max(fraction, 0), 1) : 1 }
    }
}

/// A running sprite found by id, to ask about or to stop.
public struct SpriteHandle {
    /// The layer it runs on.
    public let layer: Layer
    /// Its id.
    public let id: SpriteID

    /// Whether it is activated and has neither finished nor been stopped.
    public var isRunning: Bool { layer.isRunning(id) }

    /// Interrupts it (didStop(.interrupted); its `then` never starts), or releases a held end state.
    public func stop() {
        layer.stopSprite(id)
    }
}
