import Foundation
import Testing
import ViewfinderCore
import ViewfinderTestSupport

@testable import Motion


/// The example's spring (m 1, k 100, c 10: ζ = ½, ω₀ = 10) written out independently.
func exampleSpringProgress(_ t: Double) -> Double {
    let wd = 10 * 0.75.squareRoot()
    return 1 - exp(-5 * t) * (cos(wd * t) + 5 / wd * sin(wd * t))
}

@Suite("Scenes")
struct SceneTests {
    func box(_ scene: Scene, at t: Double) throws -> LayerState {
        try #require(scene.presentation(at: t).sublayers.first { $0.name == "box" }).state
    }

    @Test("the example at 0.25 s: a quarter turn, not yet fading, a quarter of the way, springing")
    func exampleAtQuarter() throws {
        let scene = try Scene.parse(Data(exampleScene.utf8))
        let state = try box(scene, at: 0.25)
        #expect(state.transform.rotation == Vector3(x: 0, y: 0, z: 1.5707963267948966))
        #expect(state.opacity == 1)
        #expect(state.position == Point(x: 185, y: 120))
        let scale = 1 + exampleSpringProgress(0.25)
        #expect(isClose(state.transform.scale.x, scale, 1e-12) && state.transform.scale.x == state.transform.scale.z)
        #expect(state.bounds == Rect(x: 0, y: 0, width: 100, height: 100) && state.backgroundColor == .red)
    }

    @Test("the example at 1.5 s: half a turn, half faded, on the way back, spring settled and removed")
    func exampleAtOneAndAHalf() throws {
        let scene = try Scene.parse(Data(exampleScene.utf8))
        let state = try box(scene, at: 1.5)
        #expect(state.transform.rotation.z == .pi)
        #expect(isClose(state.opacity, 0.5, 1e-7))
        #expect(state.position == Point(x: 210, y: 120))
        #expect(state.transform.scale == .one)
    }

    @Test("the example at 2 s: a whole turn, easeInEaseOut at ¾, back at the start")
    func exampleAtTwo() throws {
        let scene = try Scene.parse(Data(exampleScene.utf8))
        let state = try box(scene, at: 2)
        #expect(state.transform.rotation.z == 0)
        #expect(isClose(state.opacity, 1 - 0.8708380689526802, 1e-6))
        #expect(state.position == Point(x: 160, y: 120))
    }

    @Test("the canvas is the root: scene size, centred, with the background colour")
    func canvas() throws {
        let scene = try Scene.parse(Data(exampleScene.utf8))
        #expect(scene.size == Size(width: 320, height: 240) && scene.duration == 2 && scene.background == .black)
        let root = scene.makeLayerTree()
        #expect(root.bounds == Rect(x: 0, y: 0, width: 320, height: 240) && root.position == Point(x: 160, y: 120))
        #expect(root.backgroundColor == .black && root.sublayers.map(\.name) == ["box"])
        #expect(root.sublayers[0].activeSpriteCount == 4)
    }

    @Test("a chain of contents cross-fades: each starts when the previous stops")
    func crossFadeChain() throws {
        let json = """
        {"size": [10, 10], "layers": [{"name": "photo", "contents": "a.png", "sprites": [
          {"kind": "contents", "to": "b.png", "duration": 1,
           "then": {"kind": "contents", "to": "c.png", "duration": 1,
                    "then": {"kind": "contents", "to": "d.png", "duration": 1, "keepAlive": true}}}]}]}
        """
        let scene = try Scene.parse(Data(json.utf8))
        func photo(_ t: Double) -> LayerState { scene.presentation(at: t).sublayers[0].state }
        #expect(photo(0.5).contents == "b.png" && photo(0.5).contentsCrossFade == ContentsCrossFade(from: "a.png", progress: 0.5))
        #expect(photo(1).contents == "b.png" && photo(1).contentsCrossFade == nil)
        #expect(photo(1.25).contents == "c.png" && photo(1.25).contentsCrossFade == ContentsCrossFade(from: "b.png", progress: 0.25))
        #expect(photo(2.75).contents == "d.png" && photo(2.75).contentsCrossFade == ContentsCrossFade(from: "c.png", progress: 0.75))
        #expect(photo(9).contents == "d.png" && photo(9).contentsCrossFade == nil)
    }

    @Test("evaluation is deterministic: the same time gives the same frame, in any order")
    func deterministic() throws {
        let scene = try Scene.parse(Data(exampleScene.utf8))
        let later = scene.presentation(at: 1.7)
        _ = scene.presentation(at: 0.3)
        #expect(scene.presentation(at: 1.7) == later)
    }
}
