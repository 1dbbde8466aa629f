import Foundation
import Testing
import ViewfinderCore

@testable import HUD

@Suite("Following a Foundation.Progress")
@MainActor
struct ProgressHUDObservedProgressTests {
    @Test("the fraction is read when the object is attached and then on each tick, not before")
    func polledOnTick() {
        let hud = ProgressHUD(clock: VirtualClock())
        let work = Progress(totalUnitCount: 8)
        work.completedUnitCount = 2
        hud.observedProgress = work
        #expect(hud.progress == 0.25)
        work.completedUnitCount = 6
        #expect(hud.progress == 0.25)
        hud.tick()
        #expect(hud.progress == 0.75)
    }

    @Test("while following, a direct value lasts only until the next tick")
    func directValueOverwritten() {
        let hud = ProgressHUD(clock: VirtualClock())
        let work = Progress(totalUnitCount: 4)
        work.completedUnitCount = 1
        hud.observedProgress = work
        hud.progress = 0.9
        #expect(hud.progress == 0.9)
        hud.tick()
        #expect(hud.progress == 0.25)
    }

    @Test("detaching keeps the last value; an object without a total reads as 0")
    func detachAndNoTotal() {
        let hud = ProgressHUD(clock: VirtualClock())
        let work = Progress(totalUnitCount: 2)
        work.completedUnitCount = 1
        hud.observedProgress = work
        hud.observedProgress = nil
        work.completedUnitCount = 2
        hud.tick()
        #expect(hud.progress == 0.5)
        hud.observedProgress = Progress(totalUnitCount: 0)
        #expect(hud.progress == 0)
    }

    @Test("follow shows a pie with a Cancel button that cancels the work; the HUD stays")
    func followAndCancel() throws {
        let hud = ProgressHUD(clock: VirtualClock())
        let work = Progress(totalUnitCount: 10)
        hud.follow(work)
        #expect(hud.mode == .determinate)
        #expect(hud.phase == .appearing)
        let button = try #require(hud.button)
        #expect(button.title == "Cancel")
        #expect(!work.isCancelled)
        hud.pressButton()
        #expect(work.isCancelled)
        #expect(hud.isOnScreen)
    }

    @Test("follow without a cancel title adds no button and keeps the chosen mode")
    func followWithoutButton() {
        let hud = ProgressHUD(clock: VirtualClock())
        hud.follow(Progress(totalUnitCount: 3), mode: .determinateHorizontalBar, cancelTitle: nil)
        #expect(hud.button == nil)
        #expect(hud.mode == .determinateHorizontalBar)
    }

    @Test("the cancel button cancels whichever object is followed when it is pressed")
    func cancelsCurrentObject() {
        let hud = ProgressHUD(clock: VirtualClock())
        let first = Progress(totalUnitCount: 1)
        let second = Progress(totalUnitCount: 1)
        hud.observedProgress = first
        hud.setCancelButton(title: "Stop")
        hud.observedProgress = second
        hud.pressButton()
        #expect(hud.button?.title == "Stop")
        #expect(!first.isCancelled)
        #expect(second.isCancelled)
    }

    @Test("work on another thread is picked up by the next tick")
    func workElsewhere() async {
        let hud = ProgressHUD(clock: VirtualClock())
        let work = Progress(totalUnitCount: 4)
        hud.observedProgress = work
        await Task.detached {
            work.completedUnitCount = 3
        }.value
        #expect(hud.progress == 0)
        hud.tick()
        #expect(hud.progress == 0.75)
    }
}
