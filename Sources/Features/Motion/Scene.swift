import Foundation
import ViewfinderCore

/// An animation described in a file (see `parse(_:)` for the format): a canvas, layers with
/// their starting values, and the sprites each activates at time 0.
///
/// A scene is a plain value; evaluating it builds a fresh layer tree on a virtual clock, so
/// `presentation(at:)` gives the same answer for the same `t` however often and in whatever
/// order it is asked.
public struct Scene: Sendable {
    /// The canvas size in points.
    public var size: Size
    /// How long the animation is meant to play, in seconds, if the file says.
    public var duration: Double?
    /// The canvas colour behind every layer.
    public var background: RGBA
    /// The top-level layers, back to front.
    public var layers: [SceneLayer]

    /// A scene from its parts.
    public init(size: Size, duration: Double? = nil, background: RGBA = .black, layers: [SceneLayer] = []) {
        self.size = size
        self.duration = duration
        self.background = background
        self.layers = layers
    }

    /// A layer tree for the scene, every sprite activated at time 0 in file order (layers depth
    /// first), on a `VirtualClock` at 0. The root is the canvas (named "") and holds the
    /// scene's layers; advance it frame by frame to render many frames without rebuilding.
    public func makeLayerTree() -> Layer {
        let root = Layer(name: "", model: LayerState(position: Point(x: size.width / 2, y: size.height / 2),
                                                     bounds: Rect(x: 0, y: 0, width: size.width, height: size.height)))
        root.backgroundColor = background
        root.clock = VirtualClock(startingAt: 0)
        var activations: [(Layer, SpriteRecipe)] = []
        for layer in layers { root.addSublayer(layer.makeLayer(collecting: &activations)) }
        for (layer, recipe) in activations {
            layer.activate(PendingSprite(layer: layer, recipe: recipe), at: 0)
        }
        return root
    }

    /// The whole scene's presentation at `t` seconds: the canvas layer with the scene's layers.
    public func presentation(at t: Double) -> PresentedLayer {
        let root = makeLayerTree()
        root.advance(to: t)
        return root.presentationTree(at: t)
    }
}

/// One layer of a scene: its starting (model) values, its sprites and its sublayers.
public struct SceneLayer: Sendable {
    /// The layer's name, unique in the scene (the file's, or "layerN" in depth-first order).
    public var name: String
    /// Its starting values.
    public var model: LayerState
    /// The defaults its sprites were built with, kept on the layer for sprites added later.
    public var appearance: SpriteAppearance
    /// The sprites it activates at time 0.
    public var sprites: [SceneSprite]
    /// The layers inside it.
    public var sublayers: [SceneLayer]

    /// A scene layer from its parts.
    public init(name: String, model: LayerState = LayerState(), appearance: SpriteAppearance = SpriteAppearance(),
                sprites: [SceneSprite] = [], sublayers: [SceneLayer] = []) {
        self.name = name
        self.model = model
        self.appearance = appearance
        self.sprites = sprites
        self.sublayers = sublayers
    }

    fileprivate func makeLayer(collecting activations: inout [(Layer, SpriteRecipe)]) -> Layer {
        let layer = Layer(name: name, model: model)
        layer.appearance = appearance
        for sprite in sprites { activations.append((layer, sprite.recipe)) }
        for sublayer in sublayers { layer.addSublayer(sublayer.makeLayer(collecting: &activations)) }
        return layer
    }
}

/// One sprite of a scene, as read from the file (its `then` chain included).
public struct SceneSprite: Sendable {
    /// The file's `kind`, e.g. "rotate".
    public let kind: String
    let recipe: SpriteRecipe

    /// The property it animates.
    public var property: AnimatedProperty { recipe.property }
    /// The name it runs under, if any.
    public var name: String? { recipe.name }
    /// Seconds of one pass, after defaults (0.25 s, or a spring's settling time).
    public var duration: Double { recipe.resolvedDuration }
}
