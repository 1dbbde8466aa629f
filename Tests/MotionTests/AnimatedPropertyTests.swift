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
