import Foundation
import Testing
import ViewfinderCore

@testable import HUD

@Suite("Terminal HUD text pieces")
struct HUDTerminalFormatTests {
    @Test("the spinner turns at 10 frames a second and wraps")
    func spinner() {
        let times = [0, 0.05, 0.1, 0.3, 0.95, 1.0, 1.25, -1]
        #expect(times.map(HUDTerminalFormat.spinner(elapsed:)) == ["⠋", "⠋", "⠙", "⠸", "⠏", "⠋", "⠹", "⠋"])
    }

    @Test("the pie fills in quarters and is full only when done")
    func pie() {
        let fractions = [0, 0.2499, 0.25, 0.5, 0.75, 0.999, 1, 7, .nan]
        #expect(fractions.map(HUDTerminalFormat.pie) == ["○", "○", "◔", "◑", "◕", "◕", "●", "●", "○"])
    }

    @Test("the bar fills whole cells, rounding down")
    func bar() {
        #expect(HUDTerminalFormat.bar(0, width: 10) == "[░░░░░░░░░░]")
        #expect(HUDTerminalFormat.bar(0.3, width: 10) == "[███░░░░░░░]")
        #expect(HUDTerminalFormat.bar(0.99, width: 10) == "[█████████░]")
        #expect(HUDTerminalFormat.bar(1, width: 10) == "[██████████]")
        #expect(HUDTerminalFormat.bar(0.5, width: 0) == "[░]")
    }

    @Test("the percentage rounds down and is right-aligned in four columns")
    func percent() {
        #expect([0, 0.07, 0.29, 0.996, 1].map(HUDTerminalFormat.percent) == ["  0%", "  7%", " 29%", " 99%", "100%"])
    }

    @Test("the rate is shown in the unit's label, one decimal")
    func rate() {
        #expect(HUDTerminalFormat.rate(30, unit: .frames) == "30.0 frames/s")
        #expect(HUDTerminalFormat.rate(2_500_000, unit: .megabytes) == "2.5 MB/s")
        #expect(HUDTerminalFormat.rate(1.25, unit: HUDRateUnit(label: "files", unitsPerLabel: -3)) == "1.2 files/s")
    }

    @Test("the time left is m:ss, or h:mm:ss past an hour")
    func eta() {
        #expect(HUDTerminalFormat.eta(6) == "ETA 0:06")
        #expect(HUDTerminalFormat.eta(65.4) == "ETA 1:05")
        #expect(HUDTerminalFormat.eta(3723) == "ETA 1:02:03")
        #expect(HUDTerminalFormat.eta(-2) == "ETA 0:00")
    }

    @Test("durations read as seconds under a minute, minutes and seconds after")
    func duration() {
        #expect(HUDTerminalFormat.duration(3.2) == "3.2 s")
        #expect(HUDTerminalFormat.duration(0) == "0.0 s")
        #expect(HUDTerminalFormat.duration(59.96) == "1 min 0 s")
        #expect(HUDTerminalFormat.duration(125) == "2 min 5 s")
    }

    @Test("several lines squeeze onto one")
    func oneLine() {
        #expect(HUDTerminalFormat.oneLine("pass 1 of 2\n\n  video  \r\naudio") == "pass 1 of 2; video; audio")
        #expect(HUDTerminalFormat.oneLine("") == "")
    }
}
