import Foundation
import Testing
import ViewfinderCore

@testable import Motion

@Suite("Custom properties, additive and cumulative sprites")
struct SpriteCombiningTests {
    @Test("a custom number, point and colour animate by name in Swift")
    func customSwift() {
        let rig = Rig()
        rig.layer.model.custom["progress"] = .number(0.25)
        rig.layer.motion.custom("progress").to(1).duration(1).activate()
        rig.layer.motion.custom("center", as: Point.self).to(Point(x: 10, y: 20)).duration(1).activate()
        rig.layer.motion.custom("tint", as: RGBA.self).from(.black).to(.white).duration(1).activate()
        let s = rig.layer.presentation(at: 0.5)
        #expect(s.custom["progress"] == .number(0.625))
        #expect(s.custom["center"] == .point(Point(x: 5, y: 10)))
        #expect(s.custom["tint"] == .color(RGBA(red: 0.5, green: 0.5, blue: 0.5, alpha: 1)))
        #expect(rig.layer.model.custom == ["progress": .number(0.25)])
    }

    @Test("scenes: custom values on a layer, a custom sprite by key, and the values in --at T --json")
    func customScene() throws {
        let scene = try Scene.parse(Data(#"""
        {"size": [10, 10], "layers": [{"name": "ring", "custom": {"progress": 0, "tint": "#000000"},
          "sprites": [{"kind": "custom", "key": "progress", "to": 1, "duration": 2},
                      {"kind": "custom", "key": "tint", "to": "#ffffff", "duration": 2},
                      {"kind": "custom", "key": "spot", "to": [4, 8], "duration": 2}]}]}
        """#.utf8))
        let json = scene.presentationJSON(at: 1)
        #expect(json.contains(##""custom": {"progress": 0.5, "spot": [2, 4], "tint": "#808080ff"}"##), "\(json)")
        for (sprite, message) in [
            (#"{"kind": "custom", "to": 1}"#, "sprites[0].key: missing"),
            (#"{"kind": "custom", "key": "progress", "to": [1, 2]}"#, "sprites[0].to: expected a number"),
            (#"{"kind": "fade", "key": "progress", "to": 1}"#, "sprites[0].key: only custom sprites take a key"),
        ] {
            do {
                _ = try Scene.parse(Data(#"{"size": [10, 10], "layers": [{"custom": {"progress": 0}, "sprites": [\#(sprite)]}]}"#.utf8))
                Issue.record("parsed \(sprite)")
            } catch {
                #expect("\(error)".contains(message), "got: \(error)")
            }
        }
    }

    @Test("an additive sprite adds to what is beneath it; two additive moves combine")
    func additive() {
        let rig = Rig(LayerState(position: Point(x: 100, y: 100), bounds: Rect(x: 0, y: 0, width: 10, height: 10)))
        rig.layer.motion.move.from(.zero).to(Point(x: 10, y: 0)).duration(1).additive().activate()
        rig.layer.motion.move.from(.zero).to(Point(x: 0, y: -20)).duration(2).additive().activate()
        #expect(rig.layer.presentation(at: 0.5).position == Point(x: 105, y: 95))
        // Not additive: the value replaces what is beneath.
        rig.layer.motion.zPosition(to: 4)
        #expect(rig.layer.presentation(at: 0.5).zPosition == 2)
    }

    @Test("a cumulative sprite starts each repeat where the last ended")
    func cumulative() {
        let rig = Rig()
        rig.layer.motion.rotate.z.by(.pi / 2).repeat(4).duration(1).cumulative().keepAlive().activate()
        #expect(isClose(rig.layer.presentation(at: 0.5).transform.rotation.z, .pi / 4))
        #expect(isClose(rig.layer.presentation(at: 2.5).transform.rotation.z, .pi * 5 / 4))
        #expect(isClose(rig.state(at: 9).transform.rotation.z, .pi * 2))
        let scene = try? Scene.parse(Data(#"""
        {"size": [10, 10], "layers": [{"sprites": [{"kind": "move", "from": [0, 0], "to": [10, 5], "duration": 1, "repeat": 3,
          "cumulative": true}, {"kind": "zPosition", "from": 0, "to": 1, "duration": 1, "additive": true}]}]}
        """#.utf8))
        let state = scene?.presentation(at: 2.5).sublayers[0].state
        #expect(state?.position == Point(x: 25, y: 12.5))
    }
}

extension LayerMotion {
    /// A plain (not additive) zPosition sprite to 4 over 1 s, for comparison.
    func zPosition(to value: Double) {
        property(.zPosition, as: Double.self).to(value).duration(1).activate()
    }
}
