import Foundation
import Testing
import ViewfinderCore

@testable import Motion

@Suite("Reading scene sprites")
struct SceneSpriteParsingTests {
    func sprite(_ json: String) throws -> SceneSprite {
        try #require(try Scene.parse(Data(#"{"size": [10, 10], "layers": [{"sprites": [\#(json)]}]}"#.utf8)).layers[0].sprites.first)
    }

    func failure(_ json: String) -> String {
        do {
            _ = try sprite(json)
            return "parsed"
        } catch {
            return "\(error)"
        }
    }

    @Test("kinds map to properties; rotate defaults to z, scale to all axes")
    func kinds() throws {
        #expect(try sprite(#"{"kind": "rotate", "to": 1}"#).property == .rotation(.z))
        #expect(try sprite(#"{"kind": "scale", "to": 1}"#).property == .scale(nil))
        #expect(try sprite(#"{"kind": "scale", "axis": "y", "to": 1}"#).property == .scale(.y))
        #expect(try sprite(#"{"kind": "translate", "axis": "z", "by": 1}"#).property == .translation(.z))
        #expect(try sprite(##"{"kind": "shadowColor", "to": "#ffffff"}"##).property == .shadowColor)
        #expect(try sprite(#"{"kind": "contents", "to": "b.png"}"#).property == .contents)
    }

    @Test("timing: names, control points and springs; no timing is linear; no duration is 0.25 s")
    func timing() throws {
        #expect(try sprite(#"{"kind": "fade", "to": 0}"#).recipe.curve == .linear)
        #expect(try sprite(#"{"kind": "fade", "to": 0}"#).duration == 0.25)
        #expect(try sprite(#"{"kind": "fade", "to": 0, "timing": "easeOut"}"#).recipe.curve == .easeOut)
        #expect(try sprite(#"{"kind": "fade", "to": 0, "timing": [0.1, 0.2, 0.3, 0.4]}"#).recipe.curve == .bezier(0.1, 0.2, 0.3, 0.4))
        let spring = try sprite(#"{"kind": "fade", "to": 0, "spring": {"mass": 2, "stiffness": 50, "damping": 8, "initialVelocity": 1}}"#)
        let expected = Spring(mass: 2, stiffness: 50, damping: 8, initialVelocity: 1)
        #expect(spring.recipe.curve == .spring(expected) && spring.duration == expected.settlingDuration)
    }

    @Test("common keys: delay, repeat, autoreverse, keepAlive, name")
    func commonKeys() throws {
        let s = try sprite(#"{"kind": "fade", "to": 0, "delay": 1, "repeat": 2.5, "autoreverse": true, "keepAlive": true, "name": "pulse"}"#)
        #expect(s.recipe.delay == 1 && s.recipe.repetition.count == 2.5 && s.recipe.autoreverses && s.recipe.keepsAlive)
        #expect(s.name == "pulse")
        #expect(try sprite(#"{"kind": "fade", "to": 0, "repeat": "forever"}"#).recipe.repetition.isForever)
    }

    @Test("paths and keyframes")
    func pathsAndKeyframes() throws {
        let path = try sprite(#"{"kind": "path", "start": [0, 0], "path": [{"line": [10, 0]}, {"curve": [20, 0], "control1": [12, 5], "control2": [18, 5]}], "stopAt": 0.5}"#)
        #expect(path.recipe.path?.segments.count == 2 && path.recipe.pathStop == 0.5)
        let keys = try sprite(#"{"kind": "cornerRadius", "keyframes": [0, 10, 0], "keyTimes": [0, 0.2, 1], "curves": ["easeIn", "linear"]}"#)
        #expect(keys.recipe.keyframes?.times == [0, 0.2, 1] && keys.recipe.keyframes?.curves == [.easeIn, .linear])
    }

    static let malformed: [(String, String)] = [
        (#"{"to": 1}"#, "layers[0].sprites[0].kind: missing"),
        (#"{"kind": "spin", "to": 1}"#, "layers[0].sprites[0].kind: expected one of"),
        (#"{"kind": "fade"}"#, "layers[0].sprites[0].to: missing; a sprite needs to, by, from, keyframes or path"),
        (#"{"kind": "fade", "to": "zero"}"#, "layers[0].sprites[0].to: expected a number, got \"zero\""),
        (#"{"kind": "move", "to": 5}"#, "layers[0].sprites[0].to: expected [x, y], got 5"),
        (#"{"kind": "fade", "to": 0, "repeat": "sometimes"}"#,
         "layers[0].sprites[0].repeat: expected a number (0: once, below 0: for ever) or \"forever\", got \"sometimes\""),
        (#"{"kind": "fade", "to": 0, "timing": "bouncy"}"#, "layers[0].sprites[0].timing: expected one of"),
        (#"{"kind": "fade", "to": 0, "timing": [2, 0, 0, 1]}"#, "layers[0].sprites[0].timing: expected control point x values"),
        (#"{"kind": "fade", "to": 0, "timing": "linear", "spring": {}}"#, "layers[0].sprites[0].spring: give either timing or spring"),
        (#"{"kind": "fade", "to": 0, "spring": {"mass": 0}}"#, "layers[0].sprites[0].spring.mass: expected a number above 0"),
        (#"{"kind": "fade", "to": 0, "by": 1}"#, "layers[0].sprites[0].by: give either to or by"),
        (#"{"kind": "translate", "to": 1}"#, "layers[0].sprites[0].axis: missing"),
        (#"{"kind": "rotate", "axis": "w", "to": 1}"#, "layers[0].sprites[0].axis: expected \"x\", \"y\" or \"z\""),
        (#"{"kind": "fade", "axis": "x", "to": 1}"#, "layers[0].sprites[0].axis: only scale, rotate and translate"),
        (#"{"kind": "fade", "to": 0, "duration": -1}"#, "layers[0].sprites[0].duration: expected a number ≥ 0"),
        (#"{"kind": "fade", "to": 0, "autoreverse": 1}"#, "layers[0].sprites[0].autoreverse: expected true or false, got 1"),
        (#"{"kind": "fade", "to": 0, "then": {"kind": "fade"}}"#, "layers[0].sprites[0].then.to: missing"),
        (#"{"kind": "path", "path": [{"arc": [1, 2]}]}"#, "layers[0].sprites[0].path[0]: expected {\"line\""),
        (#"{"kind": "contents", "by": "x.png"}"#, "layers[0].sprites[0].by: contents cannot change by an offset"),
    ]

    @Test("malformed sprites name the key and what was expected", arguments: malformed)
    func malformedSprites(json: String, expected: String) {
        let message = failure(json)
        #expect(message.hasPrefix("scene: " + expected), "got: \(message)")
    }
}
