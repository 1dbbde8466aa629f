import Foundation
import Testing
import ViewfinderCore

@testable import Motion

@Suite("Animated properties")
struct AnimatedPropertyTests {
    static let samples: [(AnimatedProperty, AnimatableValue)] = [
        (.position, .point(Point(x: 3, y: 4))), (.bounds, .rect(Rect(x: 1, y: 2, width: 3, height: 4))),
        (.anchorPoint, .point(Point(x: 0, y: 1))), (.zPosition, .number(7)), (.scale(.y), .number(2)),
        (.rotation(.x), .number(0.5)), (.translation(.z), .number(-9)), (.perspective, .number(500)),
        (.opacity, .number(0.25)), (.backgroundColor, .color(.red)), (.cornerRadius, .number(6)),
        (.borderWidth, .number(2)), (.borderColor, .color(.blue)), (.shadowOffset, .point(Point(x: 2, y: 2))),
        (.shadowOpacity, .number(0.8)), (.shadowRadius, .number(9)), (.shadowColor, .color(.green)),
        (.contents, .image("x.png")), (.contentsRect, .rect(Rect(x: 0, y: 0, width: 0.5, height: 0.5))),
        (.custom(LayerKeyPath(\.zPosition)), .number(3)),
    ]

    @Test("every property writes what it reads, and changes only itself")
    func roundTrip() {
        for (property, value) in Self.samples {
            var state = LayerState()
            property.set(value, in: &state)
            #expect(property.value(in: state) == value, "\(property)")
            #expect(state != LayerState(), "\(property) changed nothing")
        }
    }

    @Test("uniform scale sets all three axes; a single axis only its own")
    func scale() {
        var state = LayerState()
        AnimatedProperty.scale(nil).set(.number(2), in: &state)
        #expect(state.transform.scale == Vector3(all: 2))
        AnimatedProperty.scale(.z).set(.number(5), in: &state)
        #expect(state.transform.scale == Vector3(x: 2, y: 2, z: 5))
    }

    @Test("a value of the wrong kind is ignored")
    func wrongKind() {
        var state = LayerState()
        AnimatedProperty.opacity.set(.point(.zero), in: &state)
        #expect(state == LayerState())
    }

    @Test("custom key paths compare by path")
    func customEquality() {
        #expect(AnimatedProperty.custom(LayerKeyPath(\.zPosition)) == .custom(LayerKeyPath(\.zPosition)))
        #expect(AnimatedProperty.custom(LayerKeyPath(\.zPosition)) != .custom(LayerKeyPath(\.opacity)))
    }
}

@Suite("Animated property table")
struct AnimatedPropertyTableTests {
    /// A value unlike the default of each kind, and how the scene format spells it.
    static func sample(_ kind: AnimatableValue.Kind) -> (AnimatableValue, String) {
        switch kind {
        case .number: (.number(0.5), "0.5")
        case .point: (.point(Point(x: 3, y: 4)), "[3, 4]")
        case .rect: (.rect(Rect(x: 1, y: 2, width: 3, height: 4)), "[1, 2, 3, 4]")
        case .color: (.color(RGBA(red: 1, green: 0, blue: 0, alpha: 1)), "\"#ff0000ff\"")
        case .image: (.image("a.png"), "\"a.png\"")
        case .vector: (.vector(Vector3(x: 2, y: 3, z: 4)), "[2, 3, 4]")
        case .group: (.group([]), "[]")
        }
    }

    @Test("every entry is a layer key of scenes and a key of the presentation JSON, with its value")
    func sceneRoundTrip() throws {
        #expect(Set(AnimatedProperty.all.map(\.key)).count == AnimatedProperty.all.count)
        for property in AnimatedProperty.all {
            let key = try #require(property.sceneKey)
            let (value, text) = Self.sample(property.kind)
            let scene = try Scene.parse(Data(#"{"size": [10, 10], "layers": [{"name": "a", "\#(key)": \#(text)}]}"#.utf8))
            #expect(property.value(in: scene.layers[0].model) == value, "\(key)")
            let json = scene.presentationJSON(at: 0)
            #expect(json.contains("\"\(key)\": \(text)"), "\(key) in \(json)")
        }
    }

    @Test("every sprite kind of an entry animates it in a scene")
    func spriteKinds() throws {
        for property in AnimatedProperty.all {
            for kind in property.spriteKinds where kind != "path" {
                let (value, text) = Self.sample(property.kind)
                let scene = try Scene.parse(Data(#"{"size": [10, 10], "layers": [{"sprites": [{"kind": "\#(kind)", "to": \#(text), "duration": 1, "keepAlive": true}]}]}"#.utf8))
                #expect(scene.layers[0].sprites[0].property == property, "\(kind)")
                let shown = scene.presentation(at: 2).sublayers[0].state
                #expect(property.value(in: shown) == value, "\(kind)")
            }
        }
    }
}
