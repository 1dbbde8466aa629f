import Foundation
import ViewfinderCore

extension Layer {
    /// The one entry point for animating this layer: `layer.motion.fade.out().activate()`.
    public var motion: LayerMotion { LayerMotion(layer: self) }
}

/// Every kind of sprite a layer offers, plus finding, stopping and clearing them.
public struct LayerMotion {
    /// The layer animated.
    public let layer: Layer

    /// A view of `layer`'s motion.
    public init(layer: Layer) {
        self.layer = layer
    }

    private func sprite<Value>(_ property: AnimatedProperty) -> Sprite<Value> {
        Sprite(layer: layer, property: property)
    }

    /// Moves the position.
    public var move: Sprite<Point> { sprite(.position) }
    /// Moves the position and `zPosition` as one sprite: `move3D.to(x: 10, y: 20, z: 5)`.
    public var move3D: Sprite<AxisParts> { sprite(.position3D) }
    /// Moves the anchor point and `anchorPointZ` as one sprite.
    public var anchor3D: Sprite<AxisParts> { sprite(.anchorPoint3D) }
    /// Changes the bounds' width and height as one sprite, the origin left as it is.
    public var size: Sprite<SizeParts> { sprite(.boundsSize) }
    /// Scales uniformly (`scale.to(2)`) or along one axis (`scale.x.to(2)`).
    public var scale: ScaleSprites { ScaleSprites(motion: self) }
    /// Turns about an axis, in radians: `rotate.z.to(.pi)`.
    public var rotate: AxisSprites { AxisSprites(motion: self, property: AnimatedProperty.rotation, all: .rotation3D) }
    /// Shifts along an axis after rotating and scaling: `translate.z.by(40)`.
    public var translate: AxisSprites { AxisSprites(motion: self, property: AnimatedProperty.translation, all: .translation3D) }
    /// Changes opacity, always kept within 0…1: `fade.in()`, `fade.out()`, or `fade.from(1).to(0.5)`.
    public var fade: FadeSprites { FadeSprites(motion: self) }
    /// Changes the shadow's offset, opacity, radius or colour.
    public var shadow: ShadowSprites { ShadowSprites(motion: self) }
    /// Changes the bounds.
    public var bounds: Sprite<Rect> { sprite(.bounds) }
    /// Transforms the sublayers (the original's toSubLayer): `sublayer.rotation.to(Vector3(x: 0, y: .pi, z: 0))`.
    public var sublayer: SublayerSprites { SublayerSprites(motion: self) }
    /// Moves the anchor point.
    public var anchor: Sprite<Point> { sprite(.anchorPoint) }
    /// Cross-fades to another picture, or changes the part of the picture shown.
    public var contents: ContentsSprites { ContentsSprites(motion: self) }
    /// Changes the background colour.
    public var backgroundColor: Sprite<RGBA> { sprite(.backgroundColor) }
    /// Changes the corner radius.
    public var cornerRadius: Sprite<Double> { sprite(.cornerRadius) }
    /// Changes the border's width or colour.
    public var border: BorderSprites { BorderSprites(motion: self) }

    /// Moves the position along `path` at an even speed; `.stop(atFraction:)` stops part-way.
    public func path(_ path: MotionPath) -> Sprite<Point> {
        var sprite: Sprite<Point> = sprite(.position)
        sprite.pending = PendingSprite(layer: layer, recipe: {
            var recipe = sprite.pending.recipe
            recipe.path = path
            return recipe
        }())
        return sprite
    }

    /// Animates any other number of the layer's state, e.g. `custom(\.zPosition)`.
    public func custom(_ keyPath: WritableKeyPath<LayerState, Double> & Sendable) -> Sprite<Double> {
        sprite(.custom(LayerKeyPath(keyPath)))
    }

    /// Animates the layer's custom number `name` (`LayerState.custom`), e.g. a progress.
    public func custom(_ name: String) -> Sprite<Double> {
        sprite(.custom(named: name, kind: .number))
    }

    /// Animates the layer's custom point or colour `name`.
    public func custom<Value: Animatable>(_ name: String, as type: Value.Type) -> Sprite<Value> {
        let kind: AnimatableValue.Kind = type == Point.self ? .point : type == RGBA.self ? .color : .number
        return sprite(.custom(named: name, kind: kind))
    }

    /// Animates any property, given by name.
    public func property<Value>(_ property: AnimatedProperty, as type: Value.Type = Value.self) -> Sprite<Value> {
        sprite(property)
    }

    /// The sprite activated on this layer with `id`.
    public func sprite(_ id: SpriteID) -> SpriteHandle {
        SpriteHandle(layer: layer, id: id)
    }

    /// The sprite running on this layer under `name` (see `activate(as:)`), if any.
    public func sprite(named name: String) -> SpriteHandle? {
        layer.runningSprite(named: name).map { SpriteHandle(layer: layer, id: $0) }
    }

    /// Interrupts the sprite running under `name`, if any; says whether there was one.
    @discardableResult
    public func stop(named name: String) -> Bool {
        guard let handle = sprite(named: name) else { return false }
        handle.stop()
        return true
    }

    /// Stops every sprite on the layer; running ones are told they were interrupted.
    public func clear() {
        layer.clearSprites()
    }

    /// The layer's defaults for sprites built from now on.
    public var appearance: SpriteAppearance {
        get { layer.appearance }
        nonmutating set { layer.appearance = newValue }
    }
}

/// `x`, `y` and `z` choices for rotating or translating.
public struct AxisSprites {
    let motion: LayerMotion
    let property: @Sendable (Axis) -> AnimatedProperty
    let all: AnimatedProperty

    /// About or along x.
    public var x: Sprite<Double> { motion.property(property(.x)) }
    /// About or along y.
    public var y: Sprite<Double> { motion.property(property(.y)) }
    /// About or along z (rotation in the screen's plane; translation towards the viewer).
    public var z: Sprite<Double> { motion.property(property(.z)) }
    /// All three axes as one sprite: `translate.xyz.to(x: 10, z: 40)`.
    public var xyz: Sprite<AxisParts> { motion.property(all) }
}

/// Uniform or per-axis scaling.
public struct ScaleSprites {
    let motion: LayerMotion

    /// All three axes at once (Core Animation's `transform.scale`).
    public var all: Sprite<Double> { motion.property(.scale(nil)) }
    /// Width only.
    public var x: Sprite<Double> { motion.property(.scale(.x)) }
    /// Height only.
    public var y: Sprite<Double> { motion.property(.scale(.y)) }
    /// Depth only.
    public var z: Sprite<Double> { motion.property(.scale(.z)) }
    /// Each axis its own factor, as one sprite: `scale.xyz.to(x: 2, y: 0.5)`.
    public var xyz: Sprite<AxisParts> { motion.property(.scale3D) }

    /// Scales uniformly to `factor`.
    public func to(_ factor: Double) -> Sprite<Double> { all.to(factor) }
    /// Scales uniformly by adding `offset` to the current factor.
    public func by(_ offset: Double) -> Sprite<Double> { all.by(offset) }
    /// Scales uniformly starting from `factor`.
    public func from(_ factor: Double) -> Sprite<Double> { all.from(factor) }
}

/// Changes of the transform applied to the sublayers.
public struct SublayerSprites {
    let motion: LayerMotion

    /// Scale per axis.
    public var scale: Sprite<Vector3> { motion.property(.sublayerScale) }
    /// Rotation about each axis, in radians.
    public var rotation: Sprite<Vector3> { motion.property(.sublayerRotation) }
    /// Translation per axis.
    public var translation: Sprite<Vector3> { motion.property(.sublayerTranslation) }
    /// The sublayers' viewer's distance.
    public var perspective: Sprite<Double> { motion.property(.sublayerPerspective) }
}

/// Opacity changes.
public struct FadeSprites {
    let motion: LayerMotion

    private var opacity: Sprite<Double> { motion.property(.opacity) }

    /// To opaque from what is on screen, as in the original, which sets only the end: a layer
    /// to fade in is made transparent first (`layer.opacity = 0`, or `fade.from(0).to(1)`).
    public func `in`() -> Sprite<Double> { opacity.to(1) }
    /// To transparent from what is on screen, so an interrupted fade-in does not jump.
    public func out() -> Sprite<Double> { opacity.to(0) }
    /// To `value` from what is on screen.
    public func to(_ value: Double) -> Sprite<Double> { opacity.to(value) }
    /// From `value` to the model opacity (or a later `to`).
    public func from(_ value: Double) -> Sprite<Double> { opacity.from(value) }
    /// By `offset` from what is on screen.
    public func by(_ offset: Double) -> Sprite<Double> { opacity.by(offset) }
}

/// Shadow changes.
public struct ShadowSprites {
    let motion: LayerMotion

    /// The shadow's displacement.
    public var offset: Sprite<Point> { motion.property(.shadowOffset) }
    /// The shadow's opacity.
    public var opacity: Sprite<Double> { motion.property(.shadowOpacity) }
    /// The shadow's blur radius.
    public var radius: Sprite<Double> { motion.property(.shadowRadius) }
    /// The shadow's colour.
    public var color: Sprite<RGBA> { motion.property(.shadowColor) }
    /// Offset, opacity, radius and colour as one sprite.
    public var all: Sprite<ShadowParts> { motion.property(.shadow) }

    /// The parts given, as one sprite with one id and one didStop.
    public func to(offset: Point? = nil, opacity: Double? = nil, radius: Double? = nil, color: RGBA? = nil) -> Sprite<ShadowParts> {
        all.to(offset: offset, opacity: opacity, radius: radius, color: color)
    }
    /// From the parts given, as one sprite.
    public func from(offset: Point? = nil, opacity: Double? = nil, radius: Double? = nil, color: RGBA? = nil) -> Sprite<ShadowParts> {
        all.from(offset: offset, opacity: opacity, radius: radius, color: color)
    }
}

/// Border changes.
public struct BorderSprites {
    let motion: LayerMotion

    /// The border's width.
    public var width: Sprite<Double> { motion.property(.borderWidth) }
    /// The border's colour.
    public var color: Sprite<RGBA> { motion.property(.borderColor) }
    /// Width and colour as one sprite.
    public var all: Sprite<BorderParts> { motion.property(.border) }

    /// The parts given, as one sprite with one id and one didStop.
    public func to(width: Double? = nil, color: RGBA? = nil) -> Sprite<BorderParts> { all.to(width: width, color: color) }
    /// From the parts given, as one sprite.
    public func from(width: Double? = nil, color: RGBA? = nil) -> Sprite<BorderParts> { all.from(width: width, color: color) }
}

/// Contents changes.
public struct ContentsSprites {
    let motion: LayerMotion

    /// Cross-fades from the picture on screen to `image`.
    public func to(_ image: ImageReference) -> Sprite<ImageReference> {
        let sprite: Sprite<ImageReference> = motion.property(.contents)
        return sprite.to(image)
    }

    /// Changes the part of the picture shown (unit coordinates).
    public var rect: Sprite<Rect> { motion.property(.contentsRect) }
}
