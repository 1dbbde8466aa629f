import Foundation
import Testing
import ViewfinderCore

@testable import Motion

/// The scene format says what the Swift chain can: per-layer appearance, the original's repeat
/// counts, names that behave as activate-as, clamped fades.
@Suite("Scene parity with the Swift chain")
struct SceneParityTests {
    func scene(_ layers: String) throws -> Scene {
        try Scene.parse(Data(#"{"size": [10, 10], "layers": [\#(layers)]}"#.utf8))
    }

    func state(_ scene: Scene, at t: Double, layer: Int = 0) -> LayerState {
        scene.presentation(at: t).sublayers[layer].state
    }

    @Test("a layer's appearance is the default of its sprites (and of its then chain); a sprite's own keys win")
    func appearance() throws {
        let s = try scene(#"""
        {"appearance": {"duration": 2, "timing": "easeIn", "keepAlive": true, "delay": 1},
         "sprites": [{"kind": "zPosition", "to": 10, "then": {"kind": "cornerRadius", "to": 8}},
                     {"kind": "borderWidth", "to": 4, "duration": 1, "delay": 0, "keepAlive": false}]}
        """#)
        let sprites = s.layers[0].sprites
        #expect(sprites[0].duration == 2 && sprites[0].recipe.curve == .easeIn && sprites[0].recipe.keepsAlive)
        #expect(sprites[0].recipe.delay == 1 && sprites[0].recipe.then[0].resolvedDuration == 2)
        #expect(sprites[1].duration == 1 && sprites[1].recipe.delay == 0 && !sprites[1].recipe.keepsAlive)
        #expect(s.layers[0].appearance.duration == 2 && s.makeLayerTree().sublayers[0].appearance.curve == .easeIn)
        // easeIn at half time of the zPosition sprite (1 s into its 2 s, after 1 s of delay).
        #expect(isClose(state(s, at: 2).zPosition, 10 * TimingCurve.easeIn.progress(at: 0.5, duration: 2)))
        #expect(state(s, at: 3).zPosition == 10)
        // The then chain (easeIn, 2 s, after its own 1 s delay) runs from 4 s to 6 s and holds.
        #expect(state(s, at: 7).cornerRadius == 8 && state(s, at: 7).zPosition == 10)
        // The border sprite keeps the appearance's curve, with its own duration, delay and no hold.
        #expect(isClose(state(s, at: 0.5).borderWidth, 4 * TimingCurve.easeIn.progress(at: 0.5, duration: 1)))
        #expect(state(s, at: 1.5).borderWidth == 0)
    }

    @Test("an appearance takes only timing keys")
    func appearanceKeys() {
        #expect(throws: SceneError.self) { try scene(#"{"appearance": {"kind": "fade"}}"#) }
        #expect(throws: SceneError.self) { try scene(#"{"appearance": {"duration": -1}}"#) }
    }

    @Test("repeat: -1 is for ever and 0 is once, as in the original")
    func repeatCounts() throws {
        let s = try scene(#"""
        {"sprites": [{"kind": "zPosition", "from": 0, "to": 10, "duration": 1, "repeat": -1},
                     {"kind": "cornerRadius", "from": 0, "to": 10, "duration": 1, "repeat": 0}]}
        """#)
        #expect(s.layers[0].sprites[0].recipe.repetition.isForever)
        #expect(s.layers[0].sprites[1].recipe.repetition == .once)
        #expect(state(s, at: 1000.5).zPosition == 5)
        #expect(state(s, at: 0.5).cornerRadius == 5 && state(s, at: 1.5).cornerRadius == 0)
    }

    @Test("a second sprite of a running name is ignored, and the JSON lists it; once the first ends the name is free")
    func names() throws {
        let s = try scene(#"""
        {"name": "box", "sprites": [
            {"kind": "zPosition", "to": 10, "duration": 1, "name": "pulse"},
            {"kind": "cornerRadius", "to": 10, "duration": 1, "name": "pulse"},
            {"kind": "borderWidth", "to": 4, "duration": 2, "name": "other",
             "then": {"kind": "cornerRadius", "to": 6, "duration": 1, "name": "pulse", "keepAlive": true}}]}
        """#)
        #expect(state(s, at: 0.5).zPosition == 5 && state(s, at: 0.5).cornerRadius == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(s.presentationJSON(at: 0.5).utf8)) as? [String: Any])
        let ignored = try #require(json["ignored"] as? [[String: Any]])
        #expect(ignored.count == 1)
        #expect(ignored.first?["layer"] as? String == "box" && ignored.first?["name"] as? String == "pulse")
        #expect(ignored.first?["sprite"] as? String == "layers[0].sprites[1]" && ignored.first?["at"] as? Double == 0)
        // At 2 s the first "pulse" has ended, so the then chain's "pulse" runs.
        #expect(state(s, at: 2.5).cornerRadius == 3 && state(s, at: 4).cornerRadius == 6)
        let later = try #require(try JSONSerialization.jsonObject(with: Data(s.presentationJSON(at: 4).utf8)) as? [String: Any])
        #expect((later["ignored"] as? [[String: Any]])?.count == 1)
    }

    @Test("fades and opacities are clamped to 0…1")
    func clampedFades() throws {
        let s = try scene(#"""
        {"opacity": 0.5, "sprites": [{"kind": "fade", "to": 4, "duration": 1}]},
        {"opacity": 3},
        {"opacity": 1, "sprites": [{"kind": "opacity", "by": -3, "duration": 1}]}
        """#)
        #expect(isClose(state(s, at: 0.1).opacity, 0.85) && state(s, at: 0.5).opacity == 1)
        #expect(s.layers[1].model.opacity == 1)
        #expect(isClose(state(s, at: 0.1, layer: 2).opacity, 0.7) && state(s, at: 0.5, layer: 2).opacity == 0)
    }
}
