import Foundation
import ViewfinderCore

/// One rectangle of a scene: values to draw with, sublayers, and the sprites animating it —
/// Core Animation's `CALayer`.
///
/// A layer keeps its *model* (`model`, or the same values through `layer.position`,
/// `layer.opacity`, …) apart from its *presentation* (`presentation(at:)`): setting the model
/// never moves anything on screen by itself, and sprites never change the model.
///
/// Why a final class that is not `Sendable` and not tied to an actor: a tree needs identity
/// (a sprite's `then` may target another layer; a superlayer owns sublayers), and the same tree
/// must serve a live view on the main actor and an offline renderer on a background task.
/// Without an actor annotation, Swift's region isolation lets whichever of the two created the
/// tree use it without hops, and forbids sharing it between them. The animated values
/// themselves are plain values (`LayerState`, `SpriteTiming`, `AnimatableValue`), so
/// `presentation(at:)` only reads them: it is a pure function of the model, the active sprites
/// and `t` — the same inputs give the same frame on any run — and it allocates nothing.
@dynamicMemberLookup
public final class Layer {
    /// A name for finding the layer and for the scene's JSON output.
    public var name: String
    /// The values the program set; sprites animate on top of these without changing them.
    public var model: LayerState
    /// Defaults copied into each sprite built on this layer from now on.
    public var appearance = SpriteAppearance()
    /// The layers drawn inside this one, back to front (before `zPosition` reorders them).
    public private(set) var sublayers: [Layer] = []
    /// The layer this one is inside, if any.
    public private(set) weak var superlayer: Layer?
    /// This layer's own time source; nil uses the superlayer's, and a root without one uses the
    /// system clock. Set it on the root (a `VirtualClock` in tests and offline rendering).
    public var clock: (any ClockSource)?

    /// Evaluation data of the active sprites, in activation order (later ones win).
    var tracks: [SpriteTrack] = [] {
        didSet { trackGeneration &+= 1 }
    }
    /// Counts changes to `tracks`, so that `activationCache` knows when it is stale.
    var trackGeneration = 0
    /// The presentation at the time of the last activation with every track applied: sprites
    /// activated one after another at one instant (a scene's, at 0) then each read their start
    /// value in constant time instead of re-evaluating every sprite before them.
    var activationCache: ActivationCache?
    /// Whether a held sprite finished during the current delivery of stop events, so that the
    /// sprites it hides are dropped (`dropCoveredHolds`) once the delivery ends.
    var hasNewHolds = false
    /// Bookkeeping for the same sprites, index for index with `tracks`.
    var records: [SpriteRecord] = []
    /// Whether some finished, unheld sprite is still listed (it shows its end state at exactly
    /// its end time) and must be dropped once time passes it.
    var hasFinishedSprites = false
    /// No unfinished sprite in the tree ends before this (a lower bound). Root only.
    var earliestEnd = Double.infinity
    /// Whether some layer of the tree has finished sprites waiting to be dropped. Root only.
    var treeHasFinishedSprites = false
    /// The number the next sprite activated here gets.
    var nextSpriteNumber = 0
    /// While stop events are delivered, the time of the event: sprites activated from a didStop
    /// callback or a `then` start exactly then, not at the clock's later reading. Root only.
    var eventTime: Double?
    /// Whether the tree is delivering stop events now (so a callback does not restart delivery).
    var isSettling = false
    /// The earliest end of a sprite activated while events are delivered.
    var earliestNewEnd = Double.infinity
    /// Scene sprites not started because one of their name was running (Swift ones are not
    /// listed, so a live view that asks again each frame does not grow a list).
    var ignoredSprites: [IgnoredSprite] = []

    /// A layer with the given model values (Core Animation's defaults otherwise).
    public init(name: String = "", model: LayerState = LayerState()) {
        self.name = name
        self.model = model
    }

    /// Reads and writes model values by name, as on a `CALayer`: `layer.position`, `layer.opacity`.
    public subscript<Value>(dynamicMember keyPath: WritableKeyPath<LayerState, Value>) -> Value {
        get { model[keyPath: keyPath] }
        set { model[keyPath: keyPath] = newValue }
    }

    /// Puts `layer` on top of the sublayers, taking it out of any other superlayer first.
    public func addSublayer(_ layer: Layer) {
        precondition(layer !== self && !layer.isAncestor(of: self), "a layer cannot contain itself")
        layer.removeFromSuperlayer()
        sublayers.append(layer)
        layer.superlayer = self
        // The added tree's pending stops now belong to this tree's root.
        let root = self.root
        root.earliestEnd = min(root.earliestEnd, layer.earliestEnd)
        root.treeHasFinishedSprites = root.treeHasFinishedSprites || layer.treeHasFinishedSprites
    }

    /// Takes this layer out of its superlayer (its sprites stay with it).
    public func removeFromSuperlayer() {
        guard let parent = superlayer else { return }
        parent.sublayers.removeAll { $0 === self }
        superlayer = nil
        // Now a root of its own, with stops it never tracked: the next advance scans it.
        earliestEnd = -.infinity
        treeHasFinishedSprites = true
    }

    /// The topmost layer of this tree.
    public var root: Layer {
        var layer = self
        while let parent = layer.superlayer { layer = parent }
        return layer
    }

    /// The first layer named `name` in this tree, depth first, this one included.
    public func layer(named name: String) -> Layer? {
        if self.name == name { return self }
        for sublayer in sublayers {
            if let found = sublayer.layer(named: name) { return found }
        }
        return nil
    }

    /// The time now on this tree's clock, or the time of the stop event being delivered.
    public var currentTime: Double {
        let root = self.root
        if let eventTime = root.eventTime { return eventTime }
        return (root.clock ?? SystemClock()).now
    }

    /// What is on screen at time `t`: the model with every active sprite applied, in activation
    /// order. Pure and allocation-free; it does not deliver stop events (see `advance(to:)`).
    public func presentation(at t: Double) -> LayerState {
        var state = model
        // Read in place: through the array itself each element was copied, with a retain and a
        // release of each of its references, for every sprite of every frame.
        tracks.withUnsafeBufferPointer { tracks in
            for index in tracks.indices {
                tracks[index].apply(at: t, to: &state)
            }
        }
        return state
    }

    /// This layer's and its sublayers' presentation at `t`, as a value a renderer can take to
    /// another thread.
    public func presentationTree(at t: Double) -> PresentedLayer {
        PresentedLayer(name: name, state: presentation(at: t), sublayers: sublayers.map { $0.presentationTree(at: t) })
    }

    private func isAncestor(of layer: Layer) -> Bool {
        var current = layer.superlayer
        while let candidate = current {
            if candidate === self { return true }
            current = candidate.superlayer
        }
        return false
    }
}

/// A layer's presentation at one instant with its sublayers': what a renderer draws.
public struct PresentedLayer: Sendable, Hashable {
    /// The layer's name.
    public var name: String
    /// Its values at that instant.
    public var state: LayerState
    /// Its sublayers', back to front.
    public var sublayers: [PresentedLayer]

    /// A presented layer.
    public init(name: String, state: LayerState, sublayers: [PresentedLayer] = []) {
        self.name = name
        self.state = state
        self.sublayers = sublayers
    }
}
