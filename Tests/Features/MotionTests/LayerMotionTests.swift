import Testing
import ViewfinderCore

@testable import Motion

@Suite("The motion entry point")
struct LayerMotionTests {
    @Test("each kind animates its property")
    func kinds() {
        let motion = Rig().layer.motion
        #expect(motion.move.property == .position)
        #expect(motion.scale.all.property == .scale(nil) && motion.scale.y.property == .scale(.y))
        #expect(motion.rotate.x.property == .rotation(.x) && motion.rotate.z.property == .rotation(.z))
        #expect(motion.translate.y.property == .translation(.y) && motion.translate.z.property == .translation(.z))
        #expect(motion.fade.to(0).property == .opacity)
        #expect(motion.shadow.offset.property == .shadowOffset && motion.shadow.opacity.property == .shadowOpacity)
        #expect(motion.shadow.radius.property == .shadowRadius && motion.shadow.color.property == .shadowColor)
        #expect(motion.bounds.property == .bounds && motion.anchor.property == .anchorPoint)
        #expect(motion.contents.to("a.png").property == .contents && motion.contents.rect.property == .contentsRect)
        #expect(motion.backgroundColor.property == .backgroundColor && motion.cornerRadius.property == .cornerRadius)
        #expect(motion.border.width.property == .borderWidth && motion.border.color.property == .borderColor)
        #expect(motion.custom(\.zPosition).property == .custom(LayerKeyPath(\.zPosition)))
    }

    @Test("the README example: rotate z to 2π, repeat forever")
    func rotateForever() {
        let rig = Rig()
        rig.layer.motion.rotate.z.to(.pi * 2).repeat(.forever).activate()
        #expect(rig.state(at: 0.125).transform.rotation.z == .pi)
        #expect(rig.state(at: 1000.0625).transform.rotation.z == .pi / 2)
    }

    @Test("fade in and out set only the end: each starts from what is on screen, as in the original")
    func fades() {
        let rig = Rig()
        rig.layer.opacity = 0.2
        rig.layer.motion.fade.in().duration(1).activate()
        #expect(abs(rig.layer.presentation(at: 0.25).opacity - 0.4) < 1e-12)
        rig.run(to: 0.5)
        rig.layer.motion.fade.out().duration(1).activate()
        #expect(abs(rig.layer.presentation(at: 0.5).opacity - 0.6) < 1e-12)
        #expect(abs(rig.layer.presentation(at: 1).opacity - 0.3) < 1e-12)
    }

    @Test("fades are clamped to 0…1: beyond the ends, and under an overshooting spring")
    func clampedFades() {
        let rig = Rig()
        rig.layer.opacity = 0.5
        rig.layer.motion.fade.to(3).duration(1).activate()
        #expect(rig.layer.presentation(at: 0.1).opacity == 0.75)
        #expect(rig.layer.presentation(at: 0.5).opacity == 1)
        let spring = Rig()
        spring.layer.opacity = 0
        spring.layer.motion.fade.to(1).spring(stiffness: 200, damping: 2).duration(2).activate()
        let samples = stride(from: 0.0, through: 2, by: 0.01).map { spring.layer.presentation(at: $0).opacity }
        #expect(samples.max() == 1 && samples.min() == 0)
        spring.layer.motion.fade.by(-5).duration(1).activate()
        #expect(spring.layer.presentation(at: 0.5).opacity == 0)
    }

    @Test("a sprite is found and stopped by the name it runs under")
    func byName() {
        let rig = Rig()
        let log = StopLog()
        let id = rig.layer.motion.fade.to(0).duration(1).didStop(log.handler("fade")).activate(as: "pulse")
        #expect(rig.layer.motion.sprite(named: "pulse")?.id == id)
        #expect(rig.layer.motion.sprite(named: "other")?.id == nil)
        #expect(!rig.layer.motion.stop(named: "other"))
        #expect(rig.layer.motion.stop(named: "pulse"))
        #expect(log.entries == ["fade:interrupted"] && rig.layer.motion.sprite(named: "pulse")?.id == nil)
        #expect(rig.layer.presentation(at: 0.5).opacity == 1)
    }

    @Test("a path sprite moves along lines, and can stop part-way")
    func pathSprite() {
        let rig = Rig()
        let route = MotionPath().line(to: Point(x: 100, y: 0)).line(to: Point(x: 100, y: 100))
        rig.layer.motion.path(route).duration(2).keepAlive().activate()
        #expect(rig.layer.presentation(at: 0.5).position == Point(x: 50, y: 0))
        #expect(rig.layer.presentation(at: 1.5).position == Point(x: 100, y: 50))
        let half = Rig()
        half.layer.motion.path(route).stop(atFraction: 0.5).duration(1).keepAlive().activate()
        #expect(half.layer.presentation(at: 0.5).position == Point(x: 50, y: 0))
        #expect(half.state(at: 3).position == Point(x: 100, y: 0))
    }

    @Test("a path sprite follows a cubic curve to its end")
    func cubicPathSprite() {
        let rig = Rig()
        let route = MotionPath(from: .zero).curve(to: Point(x: 100, y: 0), control1: Point(x: 0, y: -80), control2: Point(x: 100, y: -80))
        rig.layer.motion.path(route).duration(1).keepAlive().activate()
        #expect(isClose(rig.layer.presentation(at: 0.5).position, Point(x: 50, y: -60), 1e-6))
        #expect(rig.state(at: 1).position == Point(x: 100, y: 0))
    }

    @Test("shadow, border and colour sprites interpolate")
    func otherKinds() {
        let rig = Rig()
        rig.layer.motion.shadow.opacity.to(1).duration(1).activate()
        rig.layer.motion.shadow.offset.to(Point(x: 10, y: 10)).from(.zero).duration(1).activate()
        rig.layer.motion.border.width.to(4).duration(1).activate()
        rig.layer.motion.backgroundColor.from(.black).to(.white).duration(1).activate()
        rig.layer.motion.custom(\.zPosition).to(10).duration(1).activate()
        let state = rig.layer.presentation(at: 0.5)
        #expect(state.shadowOpacity == 0.5 && state.shadowOffset == Point(x: 5, y: 5) && state.borderWidth == 2)
        #expect(state.backgroundColor == RGBA(red: 0.5, green: 0.5, blue: 0.5) && state.zPosition == 5)
    }

    @Test("keyframes through the chain")
    func keyframes() {
        let rig = Rig()
        rig.layer.motion.cornerRadius.keyframes(Keyframes([0, 10, 0])).duration(1).activate()
        #expect(rig.layer.presentation(at: 0.25).cornerRadius == 5)
        #expect(rig.layer.presentation(at: 0.5).cornerRadius == 10)
    }
}
