import Foundation
import Testing
import ViewfinderCore

@testable import HUD

@Suite("Success, error and text HUDs")
@MainActor
struct ProgressHUDFlashTests {
    @Test("each kind shows its symbol or the label alone", arguments: [
        (ProgressHUD.Flash.success, HUDMode.customView(.checkmark)),
        (.error, .customView(.cross)),
        (.text, .text),
    ])
    func modes(kind: ProgressHUD.Flash, mode: HUDMode) {
        let hud = ProgressHUD.flash(kind, label: "Saved", details: "3 photos", clock: VirtualClock())
        #expect(hud.mode == mode)
        #expect(hud.label == "Saved")
        #expect(hud.detailsLabel == "3 photos")
        #expect(hud.phase == .appearing)
    }

    @Test("a flashed HUD hides itself after 3 s by default, as the original's wrapper, completion once")
    func hidesItself() {
        let clock = VirtualClock()
        let hud = ProgressHUD.flash(.success, label: "Saved", clock: clock)
        let done = Counter()
        hud.completion = { done.count += 1 }
        #expect(ProgressHUD.flashDuration == 3)
        clock.advance(by: 2.9375)
        hud.tick()
        #expect(hud.phase == .visible)
        clock.advance(by: 0.0625)
        hud.tick()
        #expect(hud.phase == .disappearing)
        clock.advance(by: 0.5)
        hud.tick()
        hud.tick()
        #expect(hud.phase == .hidden)
        #expect(done.count == 1)
    }

    @Test("a flashed box is at least 150 × 100, as the original's wrapper sets it", arguments: [
        (ProgressHUD.Flash.success, Size(width: 37, height: 60), Rect(x: 125, y: 150, width: 150, height: 100)),
        (.text, Size(width: 300, height: 20), Rect(x: 30, y: 150, width: 340, height: 100)),
        (.error, Size(width: 120, height: 90), Rect(x: 120, y: 135, width: 160, height: 130)),
    ])
    func minimumSize(kind: ProgressHUD.Flash, content: Size, box: Rect) {
        let hud = ProgressHUD.flash(kind, label: "Saved", clock: VirtualClock())
        #expect(ProgressHUD.flashMinimumSize == Size(width: 150, height: 100))
        #expect(hud.layout.minSize == Size(width: 150, height: 100))
        #expect(hud.box(in: Size(width: 400, height: 400), content: content) == box)
    }

    @Test("the time it stays up can be chosen")
    func customDuration() {
        let clock = VirtualClock()
        let hud = ProgressHUD.flash(.error, label: "Disk full", clock: clock, for: 5)
        clock.advance(by: 4.5)
        #expect(hud.phase == .visible)
        clock.advance(by: 0.5)
        #expect(hud.phase == .disappearing)
    }

    @Test("a progress HUD still in its grace time turns into the result at once and keeps its settings")
    func flashOverProgress() {
        let clock = VirtualClock()
        let hud = ProgressHUD(clock: clock)
        hud.graceTime = 1
        let work = Progress(totalUnitCount: 10)
        hud.follow(work)
        clock.advance(by: 0.25)
        #expect(hud.phase == .waitingForGraceTime)
        hud.flash(.success, label: "Converted")
        #expect(hud.phase == .appearing)
        #expect(hud.button == nil)
        #expect(hud.observedProgress == nil)
        #expect(hud.graceTime == 1)
        #expect(hud.detailsLabel == "")
        clock.advance(by: 3)
        #expect(hud.phase == .disappearing)
    }

    @Test("flashing a HUD that is already up restarts its hide countdown")
    func flashWhileVisible() {
        let clock = VirtualClock()
        let hud = ProgressHUD.flash(.text, label: "One", clock: clock)
        clock.advance(by: 2.5)
        hud.flash(.text, label: "Two")
        clock.advance(by: 2.5)
        #expect(hud.phase == .visible)
        #expect(hud.label == "Two")
        clock.advance(by: 0.5)
        #expect(hud.phase == .disappearing)
    }
}
