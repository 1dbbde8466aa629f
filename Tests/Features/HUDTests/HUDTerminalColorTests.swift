import Foundation
import Testing
import ViewfinderCore

@testable import HUD

@Suite("Terminal HUD colours: the content colour as ANSI colour")
@MainActor
struct HUDTerminalColorTests {
    static let clear = "\u{1B}[K"
    static let orange = RGBA(red: 1, green: 0.5, blue: 0)

    /// A visible determinate HUD at 50% labelled "Saving", with nothing to estimate from.
    func saving(environment: [String: String], configure: (ProgressHUD) -> Void) -> HUDTerminalRenderer {
        let hud = ProgressHUD(clock: VirtualClock(), mode: .determinate, label: "Saving")
        hud.progress = 0.5
        configure(hud)
        hud.show(animated: false)
        return HUDTerminalRenderer(hud: hud, isTerminal: true, environment: environment, barWidth: 4)
    }

    @Test("colours map to the nearest of xterm's 256 (cube or grey ramp)", arguments: [
        (RGBA(red: 1, green: 0.5, blue: 0), 208),           // #ff8000 → #ff8700
        (RGBA.red, 196), (RGBA.white, 231), (RGBA.black, 16),
        (RGBA(red: 0.5, green: 0.5, blue: 0.5), 244),       // #808080, a grey of the ramp exactly
        (RGBA(red: 0.3, green: 0.3, blue: 0.32), 239),      // #4d4d52 → grey #4e4e4e
        (RGBA(red: 0, green: 0, blue: 0, alpha: 0.7), 16),  // alpha has no say in a cell
        (RGBA(red: 0.2, green: 0.4, blue: 0.8), 62),        // #3366cc → #5f5fd7
    ])
    func nearest(color: RGBA, index: Int) {
        #expect(HUDTerminalFormat.ansiForeground(color, trueColor: false) == "38;5;\(index)")
    }

    @Test("24-bit colour writes the bytes themselves")
    func trueColor() {
        #expect(HUDTerminalFormat.ansiForeground(Self.orange, trueColor: true) == "38;2;255;128;0")
        #expect(HUDTerminalFormat.ansiForeground(RGBA(red: 2, green: -1, blue: 0.2), trueColor: true) == "38;2;255;0;51")
    }

    @Test("a content colour paints the pie, the label and the bar")
    func contentColour() {
        let renderer = saving(environment: [:]) { $0.contentColor = Self.orange }
        let o = "\u{1B}[38;5;208m", reset = "\u{1B}[0m"
        #expect(renderer.frame(at: 0) == "\r\(o)◑\(reset) \(o)Saving\(reset) \(o)[██░░]\(reset)  50%" + Self.clear)
        #expect(renderer.statusLine(at: 0) == "◑ Saving [██░░]  50%")
    }

    @Test("COLORTERM=truecolor gets 24-bit colour; label, details and progress colours each win")
    func overrides() {
        let renderer = saving(environment: ["COLORTERM": "truecolor"]) { hud in
            hud.contentColor = Self.orange
            hud.labelColor = .red
            hud.detailsLabel = "2 of 4"
            hud.detailsColor = RGBA(red: 0.5, green: 0.5, blue: 0.5)
            hud.indicatorColors.progressTint = .blue
        }
        #expect(renderer.usesTrueColor)
        let blue = "\u{1B}[38;2;0;0;255m", red = "\u{1B}[38;2;255;0;0m", grey = "\u{1B}[38;2;128;128;128m", reset = "\u{1B}[0m"
        #expect(renderer.frame(at: 0)
            == "\r\(blue)◑\(reset) \(red)Saving\(reset) \(blue)[██░░]\(reset)  50% — \(grey)2 of 4\(reset)" + Self.clear)
    }

    @Test("a custom view's symbol takes the content colour instead of its own")
    func symbol() {
        let hud = ProgressHUD(clock: VirtualClock(), mode: .customView(.checkmark), label: "Saved")
        hud.contentColor = Self.orange
        hud.show(animated: false)
        let renderer = HUDTerminalRenderer(hud: hud, isTerminal: true, environment: [:])
        #expect(renderer.frame(at: 0) == "\r\u{1B}[38;5;208m✔\u{1B}[0m \u{1B}[38;5;208mSaved\u{1B}[0m" + Self.clear)
    }

    @Test("NO_COLOR turns the HUD's colours off too, and so do pipes", arguments: [
        (["NO_COLOR": "1"], true), (["NO_COLOR": "1", "COLORTERM": "truecolor"], true), (["TERM": "dumb"], true),
        ([:], false),
    ])
    func noColor(environment: [String: String], terminal: Bool) {
        let renderer: HUDTerminalRenderer
        if terminal {
            renderer = saving(environment: environment) { $0.contentColor = Self.orange; $0.labelColor = .red }
            #expect(!renderer.usesColor && !renderer.usesTrueColor)
            #expect(renderer.frame(at: 0) == "\r◑ Saving [██░░]  50%" + Self.clear)
        } else {
            let hud = ProgressHUD(clock: VirtualClock(), mode: .text, label: "Saving")
            hud.contentColor = Self.orange
            hud.show(animated: false)
            renderer = HUDTerminalRenderer(hud: hud, isTerminal: false, environment: environment)
            #expect(!renderer.usesColor)
            #expect(renderer.frame(at: 0) == nil)
            #expect(renderer.finish(.done, at: 1) == "Saving: done in 1.0 s\n")
        }
    }
}
