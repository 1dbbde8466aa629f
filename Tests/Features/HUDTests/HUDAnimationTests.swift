import Foundation
import Testing
import ViewfinderCore

@testable import HUD

@Suite("HUD show/hide animations")
@MainActor
struct HUDAnimationTests {
    /// One animation type's expected states: appearing at 0, ½ and the end; disappearing at ½.
    struct Expectation: Sendable, CustomTestStringConvertible {
        let type: HUDAnimation
        let appearStart: HUDAnimationState
        let appearMiddle: HUDAnimationState
        let disappearMiddle: HUDAnimationState
        var testDescription: String { "\(type)" }
    }

    nonisolated static let expectations = [
        Expectation(type: .fade, appearStart: .init(opacity: 0, scale: 1),
                    appearMiddle: .init(opacity: 0.5, scale: 1), disappearMiddle: .init(opacity: 0.5, scale: 1)),
        Expectation(type: .zoom, appearStart: .init(opacity: 0, scale: 0.5),
                    appearMiddle: .init(opacity: 0.5, scale: 0.75), disappearMiddle: .init(opacity: 0.5, scale: 0.75)),
        Expectation(type: .zoomIn, appearStart: .init(opacity: 0, scale: 0.5),
                    appearMiddle: .init(opacity: 0.5, scale: 0.75), disappearMiddle: .init(opacity: 0.5, scale: 1.25)),
        Expectation(type: .zoomOut, appearStart: .init(opacity: 0, scale: 1.5),
                    appearMiddle: .init(opacity: 0.5, scale: 1.25), disappearMiddle: .init(opacity: 0.5, scale: 0.75)),
    ]

    @Test("opacity and scale through a show and a hide", arguments: expectations)
    func states(expected: Expectation) {
        let rig = HUDRig(animationDuration: 0.5)
        rig.hud.animation = expected.type
        rig.hud.show()
        #expect(rig.hud.animationState == expected.appearStart)
        rig.run(to: 0.25)
        #expect(rig.hud.animationState == expected.appearMiddle)
        rig.run(to: 0.5)
        #expect(rig.hud.animationState == .shown)
        rig.run(to: 1)
        rig.hud.hide()
        #expect(rig.hud.animationState == .shown)
        rig.run(to: 1.25)
        #expect(rig.hud.animationState == expected.disappearMiddle)
        rig.run(to: 1.5)
        #expect(rig.hud.animationState == .hidden)
        #expect(rig.hud.phase == .hidden)
    }

    @Test("the default 0.3 s fade is half way at 0.15 s and done at 0.3 s")
    func defaultDuration() {
        let clock = VirtualClock()
        let hud = ProgressHUD(clock: clock)
        hud.show()
        clock.advance(by: 0.15)
        #expect(abs(hud.animationState.opacity - 0.5) < 1e-12)
        #expect(hud.phase == .appearing)
        clock.advance(by: 0.15)
        hud.tick()
        #expect(hud.phase == .visible)
        #expect(hud.animationState == .shown)
    }

    @Test("animationEnd tells when the running show or hide animation ends, nil otherwise")
    func animationEnd() {
        let clock = VirtualClock()
        let hud = ProgressHUD(clock: clock)
        hud.graceTime = 0.5
        #expect(hud.animationEnd(at: clock.now) == nil)
        hud.show()
        #expect(hud.animationEnd(at: 0.2) == nil)
        #expect(hud.animationEnd(at: 0.6) == 0.8)
        clock.advance(by: 1)
        hud.tick()
        #expect(hud.animationEnd(at: clock.now) == nil)
        hud.hide()
        #expect(hud.animationEnd(at: clock.now) == 1.3)
        #expect(hud.animationEnd(at: 1.4) == nil)
    }

    @Test("without animation the HUD is fully shown and fully gone at once")
    func unanimated() {
        let rig = HUDRig()
        rig.hud.animation = .zoomOut
        rig.hud.show(animated: false)
        #expect(rig.hud.phase == .visible)
        #expect(rig.hud.animationState == .shown)
        rig.run(to: 1)
        rig.hud.hide(animated: false)
        #expect(rig.hud.animationState == .hidden)
    }

    @Test("animationState(at:) looks ahead without ticking")
    func lookAhead() {
        let rig = HUDRig()
        rig.hud.animation = .zoomIn
        rig.hud.show()
        #expect(rig.hud.animationState(at: 0.125) == HUDAnimationState(opacity: 0.5, scale: 0.75))
        #expect(rig.hud.animationState(at: 9) == .shown)
        #expect(rig.hud.phase(at: 9) == .visible)
    }

    @Test("a running animation keeps its type when the type changes")
    func typeChangeMidAnimation() {
        let rig = HUDRig()
        rig.hud.show()
        rig.run(to: 0.125)
        rig.hud.animation = .zoomOut
        #expect(rig.hud.animationState == HUDAnimationState(opacity: 0.5, scale: 1))
        rig.run(to: 1)
        rig.hud.hide()
        rig.run(to: 1.125)
        #expect(rig.hud.animationState == HUDAnimationState(opacity: 0.5, scale: 0.75))
    }

    @Test("start and end scales of each type")
    func scales() {
        #expect(HUDAnimation.allCases.map(\.appearingScale) == [1, 0.5, 0.5, 1.5])
        #expect(HUDAnimation.allCases.map(\.disappearingScale) == [1, 0.5, 1.5, 0.5])
        #expect(HUDAnimation.defaultDuration == 0.3)
    }

    @Test("an animation state keeps opacity in 0…1 and scale positive")
    func stateClamped() {
        #expect(HUDAnimationState(opacity: 2, scale: 0) == HUDAnimationState(opacity: 1, scale: 1))
        #expect(HUDAnimationState(opacity: -1, scale: .nan) == .hidden)
        #expect(HUDAnimationState(opacity: 0.25, scale: 1.5).scale == 1.5)
    }

    @Test("a transition is linear between its ends and clamped outside them")
    func transition() {
        let t = HUDTransition(from: .init(opacity: 0, scale: 0.5), to: .shown, start: 2, duration: 0.5)
        #expect(t.end == 2.5)
        #expect(t.state(at: 1) == HUDAnimationState(opacity: 0, scale: 0.5))
        #expect(t.state(at: 2.125) == HUDAnimationState(opacity: 0.25, scale: 0.625))
        #expect(t.state(at: 3) == .shown)
        let instant = HUDTransition(from: .shown, to: .hidden, start: 1, duration: 0)
        #expect(instant.fraction(at: 0.5) == 1)
    }
}
