import Foundation
import Testing

@testable import Motion

/// Found by fuzzing `Scene.parse` followed by the evaluation `animate --json` does: a sprite
/// with a `then` kept its layer alive. The layer's record of the running sprite holds the
/// follower, whose `PendingSprite.layer` was that same layer (strong), so a tree dropped before
/// the sprite ended was never freed. The follower's layer is weak now.
@Suite("Layer lifetime")
struct LayerSpritesLifetimeTests {
    static let chained = #"{"size": [10, 10], "layers": [{"sprites": [{"kind": "fade", "to": 0, "then": {"kind": "scale", "by": 2}}]}]}"#

    /// The tree's first layer, held weakly after the tree itself is gone.
    func droppedLayer(_ json: String) throws -> Layer? {
        let scene = try Scene.parse(Data(json.utf8))
        weak var layer: Layer?
        do {
            let root = scene.makeLayerTree()
            layer = root.sublayers.first
            #expect(layer != nil)
        }
        return layer
    }

    @Test("a layer tree without chained sprites is freed with its root")
    func plainTreeIsFreed() throws {
        #expect(try droppedLayer(#"{"size": [10, 10], "layers": [{"sprites": [{"kind": "fade", "to": 0}]}]}"#) == nil)
    }

    @Test("a layer tree whose sprite has a pending then is freed with its root")
    func chainedTreeIsFreed() throws {
        #expect(try droppedLayer(LayerSpritesLifetimeTests.chained) == nil)
    }
}
