import Foundation
import Testing
import ViewfinderCore

@testable import Motion

@Suite("Grouped sprites")
struct SpriteGroupsTests {
    @Test("a shadow sprite animates offset, opacity, radius and colour together, with one id and one didStop")
    func shadow() {
        let rig = Rig()
        let log = StopLog()
        let id = rig.layer.motion.shadow.to(offset: Point(x: 10, y: 20), opacity: 0.8, radius: 13, color: RGBA(red: 1, green: 0, blue: 0, alpha: 1))
            .duration(2).didStop(log.handler("shadow")).activate()
        #expect(rig.layer.activeSpriteCount == 1 && rig.layer.motion.sprite(id).isRunning)
        let half = rig.layer.presentation(at: 1)
        // Defaults: offset (0, -3), opacity 0, radius 3, colour black.
        #expect(half.shadowOffset == Point(x: 5, y: 8.5) && half.shadowOpacity == 0.4 && half.shadowRadius == 8)
        #expect(half.shadowColor == RGBA(red: 0.5, green: 0, blue: 0, alpha: 1))
        rig.run(to: 2)
        #expect(log.entries == ["shadow:finished"])
        rig.run(to: 3)
        #expect(log.entries == ["shadow:finished"] && rig.layer.activeSpriteCount == 0)
    }

    @Test("parts left out of a group stay put; from sets only the parts it names")
    func partial() {
        let rig = Rig()
        rig.layer.shadowRadius = 6
        rig.layer.motion.shadow.from(opacity: 1).to(radius: 2).duration(1).activate()
        let s = rig.layer.presentation(at: 0.25)
        #expect(s.shadowOpacity == 0.75 && s.shadowRadius == 5 && s.shadowOffset == Point(x: 0, y: -3) && s.shadowColor == .black)
    }

    @Test("one timing or spring paces every part of a group alike")
    func oneTiming() {
        let rig = Rig()
        rig.layer.motion.border.to(width: 10, color: .white).spring(stiffness: 120, damping: 5).duration(1).activate()
        let spring = TimingCurve.spring(stiffness: 120, damping: 5)
        for t in [0.1, 0.3, 0.6] {
            let p = spring.progress(at: t, duration: 1)
            let s = rig.layer.presentation(at: t)
            #expect(isClose(s.borderWidth, 10 * p) && isClose(s.borderColor.red, p) && isClose(s.borderColor.alpha, 1))
        }
    }

    @Test("size, 3D move, 3D anchor, translation and per-axis scale as one sprite each")
    func axes() {
        let rig = Rig(LayerState(position: Point(x: 10, y: 10), bounds: Rect(x: 5, y: 5, width: 100, height: 50)))
        rig.layer.motion.size.to(width: 200, height: 150).duration(1).activate()
        rig.layer.motion.move3D.to(x: 30, y: 50, z: 8).duration(1).activate()
        rig.layer.motion.anchor3D.to(x: 0, z: -20).duration(1).activate()
        rig.layer.motion.translate.xyz.by(Vector3(x: 4, y: -4, z: 40)).duration(1).activate()
        rig.layer.motion.scale.xyz.to(x: 3, y: 0.5).duration(1).activate()
        rig.layer.motion.rotate.xyz.to(z: 2).duration(1).activate()
        #expect(rig.layer.activeSpriteCount == 6)
        let s = rig.layer.presentation(at: 0.5)
        #expect(s.bounds == Rect(x: 5, y: 5, width: 150, height: 100))
        #expect(s.position == Point(x: 20, y: 30) && s.zPosition == 4)
        #expect(s.anchorPoint == Point(x: 0.25, y: 0.5) && s.anchorPointZ == -10)
        #expect(s.transform.translation == Vector3(x: 2, y: -2, z: 20))
        #expect(s.transform.scale == Vector3(x: 2, y: 0.75, z: 1))
        #expect(s.transform.rotation == Vector3(x: 0, y: 0, z: 1))
    }

    func scene(_ sprites: String) throws -> Scene {
        try Scene.parse(Data(#"{"size": [10, 10], "layers": [{"name": "a", "sprites": [\#(sprites)]}]}"#.utf8))
    }

    @Test("scenes: a shadow, border, bounds, move and scale sprite with an object of parts, or three numbers")
    func scenes() throws {
        let s = try scene(#"""
        {"kind": "shadow", "to": {"offset": [10, 20], "opacity": 0.8, "radius": 13, "color": "#ff0000"}, "duration": 2},
        {"kind": "border", "to": {"width": 4}, "duration": 2},
        {"kind": "bounds", "to": {"width": 40, "height": 20}, "duration": 2},
        {"kind": "move", "to": [2, 4, 6], "duration": 2},
        {"kind": "scale", "to": {"x": 3}, "duration": 2},
        {"kind": "translate", "by": {"z": 50}, "duration": 2},
        {"kind": "anchor", "to": {"z": 8}, "duration": 2}
        """#)
        #expect(s.layers[0].sprites.map(\.property) == [.shadow, .border, .boundsSize, .position3D, .scale3D, .translation3D, .anchorPoint3D])
        let state = s.presentation(at: 1).sublayers[0].state
        #expect(state.shadowOffset == Point(x: 5, y: 8.5) && state.shadowOpacity == 0.4 && state.shadowRadius == 8)
        #expect(state.borderWidth == 2 && state.bounds == Rect(x: 0, y: 0, width: 20, height: 10))
        #expect(state.position == Point(x: 1, y: 2) && state.zPosition == 3)
        #expect(state.transform.scale == Vector3(x: 2, y: 1, z: 1) && state.transform.translation == Vector3(x: 0, y: 0, z: 25))
        #expect(state.anchorPointZ == 4)
        let json = s.presentationJSON(at: 1)
        #expect(json.contains("\"anchorPointZ\": 4,"))
    }

    @Test("scenes: the single-property forms stay as they were")
    func singles() throws {
        let s = try scene(#"{"kind": "move", "to": [2, 4]}, {"kind": "bounds", "to": [0, 0, 5, 5]}, {"kind": "scale", "to": 2}"#)
        #expect(s.layers[0].sprites.map(\.property) == [.position, .bounds, .scale(nil)])
    }

    @Test("scenes: a bad part is a one-line error naming it", arguments: [
        (#"{"kind": "shadow", "to": {"blur": 3}}"#, "scene: layers[0].sprites[0].to.blur: unknown key"),
        (#"{"kind": "shadow", "to": {"radius": 5000}}"#, "scene: layers[0].sprites[0].to.radius: 5000 is out of range"),
        (#"{"kind": "shadow", "to": 3}"#, "scene: layers[0].sprites[0].to: expected an object of offset, opacity, radius, color, got 3"),
        (#"{"kind": "border", "to": {"color": 3}}"#, "scene: layers[0].sprites[0].to.color: expected a colour"),
        (#"{"kind": "shadow", "keyframes": [{}]}"#, "scene: layers[0].sprites[0].keyframes: a grouped shadow sprite takes from, to or by"),
        (#"{"kind": "move", "to": {"x": 1}, "path": [{"line": [1, 1]}]}"#, "scene: layers[0].sprites[0].path: only move and path sprites"),
    ])
    func errors(json: String, expected: String) {
        do {
            _ = try scene(json)
            Issue.record("parsed \(json)")
        } catch {
            #expect("\(error)".hasPrefix(expected), "got: \(error)")
        }
    }
}
