import Testing
import ViewfinderCore

@testable import Motion

@Suite("Building sprites with a chain")
struct SpriteTests {
    @Test("the default duration is 0.25 s and from defaults to what is on screen")
    func defaults() {
        let rig = Rig()
        rig.layer.opacity = 0.5
        rig.layer.motion.fade.to(1).activate()
        #expect(rig.layer.presentation(at: 0.125).opacity == 0.75)
        #expect(rig.layer.presentation(at: 0.25).opacity == 1)
    }

    @Test("from starts where the running sprite has got to, not at the model value")
    func fromPresentation() {
        let rig = Rig()
        rig.layer.motion.move.to(Point(x: 100, y: 0)).duration(1).activate()
        rig.run(to: 0.5)
        rig.layer.motion.move.to(Point(x: 50, y: 50)).duration(1).activate()
        #expect(rig.layer.presentation(at: 0.5).position == Point(x: 50, y: 0))
        #expect(rig.layer.presentation(at: 1).position == Point(x: 50, y: 25))
    }

    @Test("by adds an offset to the start; to sets the end (the original's by set the end)")
    func byVersusTo() {
        let rig = Rig()
        rig.layer.transform.rotation.z = 1
        rig.layer.motion.rotate.z.by(2).duration(1).keepAlive().activate()
        #expect(rig.state(at: 1).transform.rotation.z == 3)
        let other = Rig()
        other.layer.transform.rotation.z = 1
        other.layer.motion.rotate.z.to(2).duration(1).keepAlive().activate()
        #expect(other.state(at: 1).transform.rotation.z == 2)
        let moved = Rig()
        moved.layer.position = Point(x: 10, y: 10)
        moved.layer.motion.move.by(Point(x: 5, y: -5)).duration(1).keepAlive().activate()
        #expect(moved.state(at: 1).position == Point(x: 15, y: 5))
    }

    @Test("translate z animates z and only z (the original animated y)", arguments: Axis.allCases)
    func translateAxis(axis: Axis) {
        let rig = Rig()
        let sprite = switch axis {
        case .x: rig.layer.motion.translate.x
        case .y: rig.layer.motion.translate.y
        case .z: rig.layer.motion.translate.z
        }
        sprite.to(40).duration(1).activate()
        let translation = rig.layer.presentation(at: 0.5).transform.translation
        var expected = Vector3.zero
        expected[axis] = 20
        #expect(translation == expected)
        // By adds to what is on screen: 20 when z itself is moving, else 0.
        rig.run(to: 0.5)
        rig.layer.motion.translate.z.by(10).duration(1).activate()
        #expect(rig.layer.presentation(at: 1.5).transform.translation.z == (axis == .z ? 30 : 10))
    }

    @Test("a spring sprite lasts until the spring settles unless given a duration")
    func springDuration() {
        let rig = Rig()
        let spring = Spring(mass: 1, stiffness: 100, damping: 10)
        let sprite = rig.layer.motion.scale.to(2).spring(mass: 1, stiffness: 100, damping: 10)
        #expect(sprite.pending.recipe.resolvedDuration == spring.settlingDuration)
        #expect(sprite.duration(3).pending.recipe.resolvedDuration == 3)
        sprite.activate()
        #expect(rig.layer.presentation(at: 0.2).transform.scale.x == 1 + spring.progress(atSeconds: 0.2))
    }

    @Test("a chain is a value: building on a kept chain does not change it")
    func chainIsValue() {
        let rig = Rig()
        let base = rig.layer.motion.fade.to(0)
        let slow = base.duration(4)
        #expect(base.pending.recipe.duration == nil && slow.pending.recipe.duration == 4)
    }

    @Test("delay counts from activation; nothing shows before it")
    func delay() {
        let rig = Rig()
        rig.run(to: 10)
        rig.layer.motion.cornerRadius.to(10).duration(1).delay(0.5).activate()
        #expect(rig.layer.presentation(at: 10.4).cornerRadius == 0)
        #expect(rig.layer.presentation(at: 10.5).cornerRadius == 0)
        #expect(rig.layer.presentation(at: 11).cornerRadius == 5)
        #expect(rig.layer.presentation(at: 11.5).cornerRadius == 10)
        #expect(rig.layer.presentation(at: 11.6).cornerRadius == 0)
    }

    @Test("repeat and autoreverse at the exact boundary times")
    func repeatAutoreverse() {
        let rig = Rig()
        rig.layer.motion.cornerRadius.to(8).duration(1).autoreverse().repeat(2).activate()
        let expected: [(Double, Double)] = [(0, 0), (0.5, 4), (1, 8), (1.5, 4), (2, 0), (2.5, 4), (3, 8), (3.75, 2), (4, 0)]
        for (t, radius) in expected {
            #expect(rig.layer.presentation(at: t).cornerRadius == radius, "at \(t)")
        }
    }

    @Test("a fractional repeat ends part-way, held by keepAlive")
    func fractionalRepeat() {
        let rig = Rig()
        rig.layer.motion.cornerRadius.to(8).duration(1).repeat(1.5).keepAlive().activate()
        #expect(rig.state(at: 1.25).cornerRadius == 2)
        #expect(rig.state(at: 1.5).cornerRadius == 4)
        #expect(rig.state(at: 9).cornerRadius == 4)
    }
}
