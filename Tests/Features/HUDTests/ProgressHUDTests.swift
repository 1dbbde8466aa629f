import Foundation
import Testing
import ViewfinderCore

@testable import HUD

/// A HUD on a virtual clock with its callbacks recorded, shared by the HUD tests.
@MainActor
final class HUDRig {
    let clock = VirtualClock()
    let hud: ProgressHUD
    /// The clock reading at each completion call.
    private(set) var completions: [TimeInterval] = []
    /// The clock reading at each "was hidden" event.
    private(set) var wasHidden: [TimeInterval] = []
    /// Every call in order: "completion" or "wasHidden".
    private(set) var calls: [String] = []
    /// The ticks at which the HUD was on screen.
    private(set) var onScreen: [TimeInterval] = []

    init(animationDuration: TimeInterval = 0.25) {
        hud = ProgressHUD(clock: clock, label: "Working")
        hud.animationDuration = animationDuration
        hud.completion = { [unowned self] in
            completions.append(clock.now)
            calls.append("completion")
        }
        hud.onWasHidden = { [unowned self] shown in
            #expect(shown === hud)
            wasHidden.append(clock.now)
            calls.append("wasHidden")
        }
    }

    /// Moves the clock to `time` without ticking.
    func jump(to time: TimeInterval) {
        clock.advance(by: time - clock.now)
    }

    /// Moves the clock to `time` in steps of `step` (times stay exact with binary fractions),
    /// ticking the HUD after each step and noting when it is on screen.
    func run(to time: TimeInterval, step: TimeInterval = 0.0625) {
        while clock.now + step <= time {
            clock.advance(by: step)
            tick()
        }
        if clock.now < time {
            jump(to: time)
            tick()
        }
    }

    /// Ticks once at the present time.
    func tick() {
        hud.tick()
        if hud.isOnScreen { onScreen.append(clock.now) }
    }
}

@Suite("Progress HUD model")
@MainActor
struct ProgressHUDTests {
    @Test("a new HUD is hidden with the original component's defaults")
    func defaults() {
        let hud = ProgressHUD(clock: VirtualClock())
        #expect(hud.phase == .hidden)
        #expect(!hud.isOnScreen)
        #expect(hud.mode == .indeterminate)
        #expect(hud.label == "")
        #expect(hud.detailsLabel == "")
        #expect(hud.button == nil)
        #expect(hud.animation == .fade)
        #expect(hud.animationDuration == 0.3)
        #expect(hud.graceTime == 0)
        #expect(hud.minShowTime == 0)
        #expect(hud.progress == 0)
        #expect(hud.layout == HUDLayout(offset: .zero, margin: 20, minSize: .zero, isSquare: false))
        #expect(hud.background == HUDBackground(style: .blur(.light), view: nil))
        #expect(hud.contentColor == nil && hud.labelColor == nil && hud.detailsColor == nil)
        #expect(hud.labelFont == HUDFont(family: "Sans", size: 12, isBold: true))
        #expect(hud.detailsFont == HUDFont(family: "Sans", size: 9, isBold: false))
        #expect(hud.indicatorColors == HUDIndicatorColors(progressTint: nil, backgroundTint: nil, lineColor: nil))
        #expect(hud.animationState == .hidden)
    }

    @Test("progress is clamped to 0…1 and NaN reads as 0", arguments: [
        (0.25, 0.25), (1.5, 1.0), (-0.2, 0.0), (Double.nan, 0.0), (Double.infinity, 1.0),
    ])
    func progressClamped(value: Double, expected: Double) {
        let hud = ProgressHUD(clock: VirtualClock())
        hud.progress = value
        #expect(hud.progress == expected)
    }

    @Test("negative or non-finite times count as zero")
    func timesSanitised() {
        let hud = ProgressHUD(clock: VirtualClock())
        hud.graceTime = -1
        hud.minShowTime = .nan
        hud.animationDuration = -0.5
        #expect(hud.graceTime == 0)
        #expect(hud.minShowTime == 0)
        #expect(hud.animationDuration == 0)
        hud.graceTime = 0.5
        #expect(hud.graceTime == 0.5)
    }

    @Test("completion then was-hidden, once per cycle, over two cycles")
    func callbacksOncePerCycle() {
        let rig = HUDRig()
        rig.hud.show()
        rig.hud.hide(afterDelay: 1)
        rig.run(to: 3)
        #expect(rig.calls == ["completion", "wasHidden"])
        #expect(rig.completions == [1.25])
        rig.hud.show()
        rig.hud.hide()
        rig.run(to: 5)
        #expect(rig.calls == ["completion", "wasHidden", "completion", "wasHidden"])
        #expect(rig.completions == [1.25, 3.25])
        #expect(rig.wasHidden == [1.25, 3.25])
    }

    @Test("reading the state is pure: it sees the deadlines, the callbacks wait for a tick")
    func readingIsPure() {
        let rig = HUDRig()
        rig.hud.show()
        rig.hud.hide(afterDelay: 1)
        rig.jump(to: 1.125)
        #expect(rig.hud.phase == .disappearing)
        #expect(rig.hud.animationState == HUDAnimationState(opacity: 0.5, scale: 1))
        rig.jump(to: 2)
        #expect(rig.hud.phase == .hidden)
        #expect(rig.completions.isEmpty)
        rig.tick()
        #expect(rig.completions == [2])
        #expect(rig.wasHidden == [2])
    }

    @Test("hiding a HUD that was never shown does nothing")
    func hideWhenHidden() {
        let rig = HUDRig()
        rig.hud.hide()
        rig.hud.hide(animated: false)
        rig.run(to: 1)
        #expect(rig.calls.isEmpty)
        #expect(rig.hud.phase == .hidden)
    }

    @Test("a completion that shows the HUD again starts a new cycle with its own completion")
    func completionShowsAgain() {
        let rig = HUDRig()
        var rounds = 0
        rig.hud.completion = { [unowned rig] in
            rounds += 1
            if rounds == 1 {
                rig.hud.show()
                rig.hud.hide(afterDelay: 1)
            }
        }
        rig.hud.show(animated: false)
        rig.hud.hide(animated: false)
        #expect(rounds == 1)
        #expect(rig.hud.phase == .appearing)
        rig.run(to: 3)
        #expect(rounds == 2)
        #expect(rig.wasHidden == [0, 1.25])
        #expect(rig.hud.phase == .hidden)
    }

    @Test("show cancels a pending delayed hide")
    func showCancelsDelayedHide() {
        let rig = HUDRig()
        rig.hud.show()
        rig.hud.hide(afterDelay: 1)
        rig.run(to: 0.5)
        rig.hud.show()
        rig.run(to: 5)
        #expect(rig.hud.phase == .visible)
        #expect(rig.calls.isEmpty)
    }

    @Test("pressing the button runs its action; without a button nothing happens")
    func button() {
        let hud = ProgressHUD(clock: VirtualClock())
        hud.pressButton()
        let presses = Counter()
        hud.button = HUDButton(title: "Stop") { presses.count += 1 }
        hud.pressButton()
        hud.pressButton()
        #expect(presses.count == 2)
        #expect(hud.button?.title == "Stop")
    }

    @Test("the box comes from the layout")
    func boxFromLayout() {
        let hud = ProgressHUD(clock: VirtualClock())
        hud.layout = HUDLayout(offset: Point(x: 0, y: HUDLayout.maxOffset), margin: 10)
        let box = hud.box(in: Size(width: 200, height: 100), content: Size(width: 40, height: 20))
        #expect(box == Rect(x: 70, y: 50, width: 60, height: 40))
    }
}
