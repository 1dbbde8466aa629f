import Foundation
import Testing
import ViewfinderCore

@testable import HUD

@Suite("Terminal HUD renderer")
@MainActor
struct HUDTerminalRendererTests {
    static let noColor = ["NO_COLOR": "1"]
    static let clear = "\u{1B}[K"

    /// A visible HUD labelled "Converting clip.mov" following 100 frames of work.
    func converting(mode: HUDMode = .determinate) -> (VirtualClock, ProgressHUD, Progress) {
        let clock = VirtualClock()
        let hud = ProgressHUD(clock: clock, label: "Converting clip.mov")
        let work = Progress(totalUnitCount: 100)
        hud.follow(work, mode: mode, cancelTitle: nil)
        return (clock, hud, work)
    }

    @Test("indeterminate work on a terminal: a spinner, redrawn in place")
    func spinner() {
        let clock = VirtualClock()
        let hud = ProgressHUD(clock: clock, label: "Opening clip.mov")
        hud.detailsLabel = "reading the header\nchecking streams"
        hud.show(animated: false)
        let renderer = HUDTerminalRenderer(hud: hud, isTerminal: true, environment: Self.noColor)
        #expect(renderer.frame(at: 0) == "\r⠋ Opening clip.mov — reading the header; checking streams" + Self.clear)
        hud.detailsLabel = ""
        #expect(renderer.frame(at: 0.1) == "\r⠙ Opening clip.mov" + Self.clear)
        #expect(renderer.frame(at: 0.2) == "\r⠹ Opening clip.mov" + Self.clear)
    }

    @Test("determinate work: pie, bar, percent, rate and time left, exactly")
    func determinate() {
        let (clock, hud, work) = converting()
        let renderer = HUDTerminalRenderer(hud: hud, isTerminal: true, environment: Self.noColor, unit: .frames)
        clock.advance(by: 2)
        work.completedUnitCount = 25
        hud.tick()
        #expect(renderer.frame(at: 2)
            == "\r◔ Converting clip.mov [█████░░░░░░░░░░░░░░░]  25% 12.5 frames/s ETA 0:06" + Self.clear)
        #expect(renderer.statusLine(at: 2) == "◔ Converting clip.mov [█████░░░░░░░░░░░░░░░]  25% 12.5 frames/s ETA 0:06")
        clock.advance(by: 2)
        work.completedUnitCount = 100
        hud.tick()
        #expect(renderer.frame(at: 4) == "\r● Converting clip.mov [████████████████████] 100% 25.0 frames/s" + Self.clear)
    }

    @Test("a throughput and an estimate reported by the progress object are used as given")
    func reportedRate() {
        let (_, hud, work) = converting(mode: .annularDeterminate)
        work.completedUnitCount = 50
        work.setUserInfoObject(NSNumber(value: 3_000_000), forKey: .throughputKey)
        work.setUserInfoObject(NSNumber(value: 95), forKey: .estimatedTimeRemainingKey)
        hud.tick()
        let renderer = HUDTerminalRenderer(hud: hud, isTerminal: true, environment: Self.noColor,
                                           unit: .megabytes, barWidth: 10)
        #expect(renderer.statusLine(at: 1) == "◑ Converting clip.mov [█████░░░░░]  50% 3.0 MB/s ETA 1:35")
        #expect(renderer.unitsPerSecond(at: 1) == 3_000_000)
        #expect(renderer.secondsRemaining(at: 1) == 95)
    }

    @Test("a progress set directly gets a time left from its pace, and no rate")
    func directProgress() {
        let clock = VirtualClock()
        let hud = ProgressHUD(clock: clock, mode: .determinateHorizontalBar, label: "Saving")
        hud.show(animated: false)
        let renderer = HUDTerminalRenderer(hud: hud, isTerminal: true, environment: Self.noColor, barWidth: 4)
        #expect(renderer.frame(at: 0) == "\r○ Saving [░░░░]   0%" + Self.clear)
        hud.progress = 0.5
        #expect(renderer.frame(at: 1.5) == "\r◑ Saving [██░░]  50% ETA 0:02" + Self.clear)
        #expect(renderer.unitsPerSecond(at: 1.5) == nil)
    }

    @Test("colour on a terminal: the indicator in cyan, symbols in their colours")
    func colour() {
        let (clock, hud, work) = converting()
        let renderer = HUDTerminalRenderer(hud: hud, isTerminal: true, environment: [:], unit: .frames)
        #expect(renderer.usesColor)
        clock.advance(by: 1)
        work.completedUnitCount = 10
        hud.tick()
        #expect(renderer.frame(at: 1)
            == "\r\u{1B}[36m○\u{1B}[0m Converting clip.mov [██░░░░░░░░░░░░░░░░░░]  10% 10.0 frames/s ETA 0:09" + Self.clear)
        hud.mode = .customView(.checkmark)
        hud.label = "Saved"
        #expect(renderer.frame(at: 1.5) == "\r\u{1B}[32m✔\u{1B}[0m Saved" + Self.clear)
        #expect(renderer.finish(.done, at: 3.2) == "\r\u{1B}[32m✔\u{1B}[0m Saved: done in 3.2 s" + Self.clear + "\n")
    }

    @Test("NO_COLOR (when not empty) and TERM=dumb turn colour off; pipes never have it")
    func noColour() {
        let hud = ProgressHUD(clock: VirtualClock())
        #expect(!HUDTerminalRenderer(hud: hud, isTerminal: true, environment: ["NO_COLOR": "1"]).usesColor)
        #expect(HUDTerminalRenderer(hud: hud, isTerminal: true, environment: ["NO_COLOR": ""]).usesColor)
        #expect(!HUDTerminalRenderer(hud: hud, isTerminal: true, environment: ["TERM": "dumb"]).usesColor)
        #expect(!HUDTerminalRenderer(hud: hud, isTerminal: false, environment: [:]).usesColor)
    }

    @Test("the final line on a terminal replaces the live one", arguments: [
        (HUDTerminalRenderer.Outcome.done, "✔ Converting clip.mov: done in 3.2 s"),
        (.failed("disk full"), "✖ Converting clip.mov: failed after 3.2 s: disk full"),
        (.cancelled, "⊘ Converting clip.mov: cancelled after 3.2 s"),
    ])
    func finalLineTerminal(outcome: HUDTerminalRenderer.Outcome, line: String) {
        let (_, hud, _) = converting()
        let renderer = HUDTerminalRenderer(hud: hud, isTerminal: true, environment: Self.noColor)
        #expect(renderer.frame(at: 3.19) != nil)
        #expect(renderer.finish(outcome, at: 3.2) == "\r" + line + Self.clear + "\n")
    }

    @Test("not a terminal: no frames at all, one plain final line", arguments: [
        (HUDTerminalRenderer.Outcome.done, "Converting clip.mov: done in 3.2 s\n"),
        (.failed("disk full\nno space left"), "Converting clip.mov: failed after 3.2 s: disk full; no space left\n"),
        (.failed(""), "Converting clip.mov: failed after 3.2 s\n"),
        (.cancelled, "Converting clip.mov: cancelled after 3.2 s\n"),
    ])
    func pipe(outcome: HUDTerminalRenderer.Outcome, line: String) {
        let (clock, hud, work) = converting()
        let renderer = HUDTerminalRenderer(hud: hud, isTerminal: false, environment: [:])
        var written: [String] = []
        for step in 1...32 {
            clock.advance(by: 0.1)
            work.completedUnitCount = Int64(step * 3)
            hud.tick()
            if let frame = renderer.frame(at: clock.now) { written.append(frame) }
        }
        #expect(written.isEmpty)
        let final = renderer.finish(outcome, at: 3.2)
        #expect(final == line)
        #expect(final?.contains("\r") == false)
        #expect(final?.contains("\u{1B}") == false)
        #expect(renderer.finish(.done, at: 4) == nil)
    }

    @Test("a final line without a label still reads")
    func unlabelled() {
        let hud = ProgressHUD(clock: VirtualClock())
        let renderer = HUDTerminalRenderer(hud: hud, isTerminal: false, environment: [:], startTime: 1)
        #expect(renderer.finish(.done, at: 126) == "done in 2 min 5 s\n")
    }

    @Test("quiet shows nothing, on a terminal or not", arguments: [true, false])
    func quiet(isTerminal: Bool) {
        let (_, hud, _) = converting()
        let renderer = HUDTerminalRenderer(hud: hud, isTerminal: isTerminal, environment: [:], quiet: true)
        #expect(renderer.frame(at: 0) == nil)
        #expect(renderer.frame(at: 1) == nil)
        #expect(renderer.finish(.failed("oops"), at: 2) == nil)
        #expect(!renderer.usesColor)
    }

    @Test("at most 20 redraws a second, even when progress changes every millisecond")
    func redrawLimit() {
        let clock = VirtualClock()
        let hud = ProgressHUD(clock: clock, mode: .determinate, label: "Busy")
        hud.show(animated: false)
        let renderer = HUDTerminalRenderer(hud: hud, isTerminal: true, environment: Self.noColor)
        var drawnAt: [Int] = []
        for ms in 0...1000 {
            hud.progress = Double(ms) / 1000
            if renderer.frame(at: Double(ms) / 1000) != nil { drawnAt.append(ms) }
        }
        #expect(drawnAt == Array(stride(from: 0, through: 1000, by: 50)))
    }

    @Test("a draw sooner than 50 ms is skipped, the final line is not")
    func throttleAndFinal() {
        let clock = VirtualClock()
        let hud = ProgressHUD(clock: clock, mode: .determinate, label: "Busy")
        hud.show(animated: false)
        let renderer = HUDTerminalRenderer(hud: hud, isTerminal: true, environment: Self.noColor, barWidth: 4)
        #expect(renderer.frame(at: 0) == "\r○ Busy [░░░░]   0%" + Self.clear)
        hud.progress = 0.25
        #expect(renderer.frame(at: 0.02) == nil)
        #expect(renderer.frame(at: 0.049) == nil)
        #expect(renderer.frame(at: 0.05) == "\r◔ Busy [█░░░]  25% ETA 0:00" + Self.clear)
        #expect(renderer.finish(.done, at: 0.06) == "\r✔ Busy: done in 0.1 s" + Self.clear + "\n")
        #expect(renderer.frame(at: 1) == nil)
    }

    @Test("an unchanged line is not redrawn")
    func unchanged() {
        let hud = ProgressHUD(clock: VirtualClock(), mode: .text, label: "Ready")
        hud.show(animated: false)
        let renderer = HUDTerminalRenderer(hud: hud, isTerminal: true, environment: Self.noColor)
        #expect(renderer.frame(at: 0) == "\rReady" + Self.clear)
        #expect(renderer.frame(at: 1) == nil)
        hud.label = "Set"
        #expect(renderer.frame(at: 2) == "\rSet" + Self.clear)
    }

    @Test("nothing is drawn during the grace time; the line is cleared once when the HUD goes")
    func graceAndClear() {
        let clock = VirtualClock()
        let hud = ProgressHUD(clock: clock, mode: .text, label: "Working")
        hud.graceTime = 1
        hud.show(animated: false)
        let renderer = HUDTerminalRenderer(hud: hud, isTerminal: true, environment: Self.noColor)
        #expect(renderer.frame(at: 0.5) == nil)
        #expect(renderer.frame(at: 0.99) == nil)
        #expect(renderer.frame(at: 1) == "\rWorking" + Self.clear)
        clock.advance(by: 2)
        hud.hide(animated: false)
        #expect(renderer.frame(at: 2) == "\r" + Self.clear)
        #expect(renderer.frame(at: 3) == nil)
    }
}
