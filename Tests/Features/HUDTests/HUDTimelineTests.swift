import Foundation
import Testing
import ViewfinderCore

@testable import HUD

@Suite("HUD timing: grace time, minimum show time, delayed hide")
@MainActor
struct HUDTimelineTests {
    @Test("without a grace time the HUD appears at once and is fully shown after the animation")
    func showAtOnce() {
        let rig = HUDRig()
        rig.hud.show()
        #expect(rig.hud.phase == .appearing)
        rig.run(to: 0.125)
        #expect(rig.hud.phase == .appearing)
        rig.run(to: 0.25)
        #expect(rig.hud.phase == .visible)
    }

    @Test("a grace time keeps the HUD off screen until it has passed")
    func graceTime() {
        let rig = HUDRig()
        rig.hud.graceTime = 1
        rig.hud.show()
        #expect(rig.hud.phase == .waitingForGraceTime)
        rig.run(to: 0.9375)
        #expect(rig.hud.phase == .waitingForGraceTime)
        #expect(rig.hud.animationState == .hidden)
        #expect(rig.onScreen.isEmpty)
        rig.run(to: 1)
        #expect(rig.hud.phase == .appearing)
        #expect(rig.onScreen == [1])
        rig.run(to: 1.25)
        #expect(rig.hud.phase == .visible)
    }

    @Test("a late tick does not delay the grace deadline: the animation started on time")
    func lateTickAfterGrace() {
        let rig = HUDRig()
        rig.hud.graceTime = 1
        rig.hud.show()
        rig.jump(to: 1.125)
        rig.tick()
        #expect(rig.hud.phase == .appearing)
        #expect(rig.hud.animationState.opacity == 0.5)
    }

    @Test("a HUD hidden within the grace time is never shown; completion once")
    func hiddenWithinGrace() {
        let rig = HUDRig()
        rig.hud.graceTime = 1
        rig.hud.show()
        rig.run(to: 0.5)
        rig.hud.hide()
        rig.run(to: 3)
        #expect(rig.onScreen.isEmpty)
        #expect(rig.completions == [0.5])
        #expect(rig.wasHidden == [0.5])
    }

    @Test("the minimum show time holds a hide back until it has passed")
    func minShowTime() {
        let rig = HUDRig()
        rig.hud.minShowTime = 2
        rig.hud.show()
        rig.run(to: 0.5)
        rig.hud.hide()
        rig.run(to: 1.9375)
        #expect(rig.hud.phase == .visible)
        rig.run(to: 2)
        #expect(rig.hud.phase == .disappearing)
        rig.run(to: 2.25)
        #expect(rig.hud.phase == .hidden)
        #expect(rig.completions == [2.25])
    }

    @Test("the minimum show time counts from the appearance, not from the show call")
    func minShowTimeAfterGrace() {
        let rig = HUDRig()
        rig.hud.graceTime = 1
        rig.hud.minShowTime = 2
        rig.hud.show()
        rig.run(to: 1.5)
        rig.hud.hide()
        rig.run(to: 2.9375)
        #expect(rig.hud.phase == .visible)
        rig.run(to: 3)
        #expect(rig.hud.phase == .disappearing)
        rig.run(to: 4)
        #expect(rig.completions == [3.25])
    }

    @Test("a hide after the minimum show time is not held back")
    func hideAfterMinShowTime() {
        let rig = HUDRig()
        rig.hud.minShowTime = 1
        rig.hud.show()
        rig.run(to: 3)
        rig.hud.hide()
        #expect(rig.hud.phase == .disappearing)
    }

    @Test("hide(afterDelay:) starts the hide animation after the delay")
    func delayedHide() {
        let rig = HUDRig()
        rig.hud.show()
        rig.hud.hide(afterDelay: 1)
        rig.run(to: 0.9375)
        #expect(rig.hud.phase == .visible)
        rig.run(to: 1)
        #expect(rig.hud.phase == .disappearing)
        rig.run(to: 1.1875)
        #expect(rig.hud.phase == .disappearing)
        rig.run(to: 1.25)
        #expect(rig.hud.phase == .hidden)
        rig.run(to: 4)
        #expect(rig.completions == [1.25])
        #expect(rig.wasHidden == [1.25])
    }

    @Test("an unanimated hide ends the cycle inside the call")
    func unanimatedHide() {
        let rig = HUDRig()
        rig.hud.show()
        rig.run(to: 1)
        rig.hud.hide(animated: false)
        #expect(rig.hud.phase == .hidden)
        #expect(rig.calls == ["completion", "wasHidden"])
    }

    // MARK: - The races the original component has

    @Test("race a: grace 1 s, hide after 0.5 s — never visible, completion once")
    func graceThenEarlyDelayedHide() {
        let rig = HUDRig()
        rig.hud.graceTime = 1
        rig.hud.show()
        rig.hud.hide(afterDelay: 0.5)
        rig.run(to: 5)
        #expect(rig.onScreen.isEmpty)
        #expect(rig.hud.phase == .hidden)
        #expect(rig.completions == [0.5])
        #expect(rig.wasHidden == [0.5])
    }

    @Test("race a: the same with no tick until long after both deadlines")
    func graceThenEarlyDelayedHideLateTick() {
        let rig = HUDRig()
        rig.hud.graceTime = 1
        rig.hud.show()
        rig.hud.hide(afterDelay: 0.5)
        rig.jump(to: 5)
        #expect(rig.hud.phase == .hidden)
        rig.tick()
        rig.tick()
        #expect(rig.onScreen.isEmpty)
        #expect(rig.completions == [5])
        #expect(rig.wasHidden == [5])
    }

    @Test("race a: a hide due exactly when the grace time ends wins; never shown")
    func hideAtGraceEnd() {
        let rig = HUDRig()
        rig.hud.graceTime = 1
        rig.hud.show()
        rig.hud.hide(afterDelay: 1)
        rig.run(to: 3)
        #expect(rig.onScreen.isEmpty)
        #expect(rig.completions == [1])
    }

    @Test("race a: a delayed hide due after the grace time has shown the HUD hides it")
    func graceThenLateDelayedHide() {
        let rig = HUDRig()
        rig.hud.graceTime = 1
        rig.hud.show()
        rig.run(to: 0.5)
        rig.hud.hide(afterDelay: 1.5)
        rig.run(to: 1.9375)
        #expect(rig.onScreen.first == 1)
        #expect(rig.hud.phase == .visible)
        rig.run(to: 2)
        #expect(rig.hud.phase == .disappearing)
        rig.run(to: 6)
        #expect(rig.hud.phase == .hidden)
        #expect(rig.onScreen.last == 2.1875)
        #expect(rig.completions == [2.25])
        #expect(rig.wasHidden == [2.25])
    }

    @Test("race a: with a late tick, the grace show and the later hide both happen, in order")
    func graceThenLateDelayedHideLateTick() {
        let rig = HUDRig()
        rig.hud.graceTime = 1
        rig.hud.show()
        rig.hud.hide(afterDelay: 2)
        rig.jump(to: 2.125)
        #expect(rig.hud.phase == .disappearing)
        #expect(rig.hud.animationState.opacity == 0.5)
        rig.run(to: 6)
        #expect(rig.completions == [2.25])
    }

    @Test("race b: hide twice — one completion, one was-hidden")
    func hideTwice() {
        let rig = HUDRig()
        rig.hud.show()
        rig.run(to: 1)
        rig.hud.hide()
        rig.hud.hide()
        rig.run(to: 1.125)
        rig.hud.hide()
        rig.run(to: 2)
        rig.hud.hide()
        rig.run(to: 4)
        #expect(rig.completions == [1.25])
        #expect(rig.wasHidden == [1.25])
    }

    @Test("race b: a delayed hide then an immediate one — the earlier wins, one completion")
    func delayedThenImmediateHide() {
        let rig = HUDRig()
        rig.hud.show()
        rig.hud.hide(afterDelay: 2)
        rig.run(to: 0.5)
        rig.hud.hide()
        rig.run(to: 5)
        #expect(rig.completions == [0.75])
        #expect(rig.wasHidden == [0.75])
    }

    @Test("race b: an immediate hide then a delayed one — the earlier still wins")
    func immediateThenDelayedHide() {
        let rig = HUDRig()
        rig.hud.minShowTime = 1
        rig.hud.show()
        rig.hud.hide()
        rig.hud.hide(afterDelay: 3)
        rig.run(to: 5)
        #expect(rig.completions == [1.25])
    }

    @Test("race c: show during the hide animation turns the HUD round; completion once at the end")
    func showDuringHide() {
        let rig = HUDRig()
        rig.hud.show()
        rig.run(to: 1)
        rig.hud.hide()
        rig.run(to: 1.125)
        #expect(rig.hud.animationState == HUDAnimationState(opacity: 0.5, scale: 1))
        rig.hud.show()
        #expect(rig.hud.phase == .appearing)
        #expect(rig.hud.animationState == HUDAnimationState(opacity: 0.5, scale: 1))
        rig.run(to: 1.25)
        // Past the moment the interrupted hide would have ended: still on screen, no callback.
        #expect(rig.hud.animationState == HUDAnimationState(opacity: 0.75, scale: 1))
        rig.run(to: 1.375)
        #expect(rig.hud.phase == .visible)
        rig.run(to: 3)
        #expect(rig.calls.isEmpty)
        rig.hud.hide()
        rig.run(to: 5)
        #expect(rig.hud.phase == .hidden)
        #expect(rig.completions == [3.25])
        #expect(rig.wasHidden == [3.25])
    }

    @Test("race c: with zoom the box turns round from its current size, no jump")
    func showDuringZoomHide() {
        let rig = HUDRig()
        rig.hud.animation = .zoom
        rig.hud.show()
        rig.run(to: 1)
        rig.hud.hide()
        rig.run(to: 1.125)
        #expect(rig.hud.animationState == HUDAnimationState(opacity: 0.5, scale: 0.75))
        rig.hud.show()
        #expect(rig.hud.animationState == HUDAnimationState(opacity: 0.5, scale: 0.75))
        rig.run(to: 1.25)
        #expect(rig.hud.animationState == HUDAnimationState(opacity: 0.75, scale: 0.875))
        rig.run(to: 1.375)
        #expect(rig.hud.animationState == .shown)
    }

    @Test("race c: the minimum show time restarts when the HUD comes back")
    func showDuringHideRestartsMinShowTime() {
        let rig = HUDRig()
        rig.hud.minShowTime = 1
        rig.hud.show()
        rig.run(to: 2)
        rig.hud.hide()
        rig.run(to: 2.125)
        rig.hud.show()
        rig.hud.hide()
        rig.run(to: 3.0625)
        #expect(rig.hud.phase == .visible)
        rig.run(to: 4)
        #expect(rig.completions == [3.375])
    }
}
