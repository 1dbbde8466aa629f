import Foundation
import Testing
import ViewfinderCore

@testable import HUD

@Suite("HUD content: modes, symbols, button, background")
struct HUDContentTests {
    @Test("only the pie, ring and bar modes are determinate")
    func determinate() {
        let modes: [HUDMode] = [.indeterminate, .determinate, .annularDeterminate, .determinateHorizontalBar,
                                .customView(.checkmark), .text]
        #expect(modes.map(\.isDeterminate) == [false, true, true, true, false, false])
    }

    @Test("each symbol has a one-character stand-in")
    func glyphs() {
        let symbols: [HUDSymbol] = [.checkmark, .cross, .info, .warning, .named("camera")]
        #expect(symbols.map(\.glyph) == ["✔", "✖", "ℹ", "⚠", "•"])
    }

    @Test("colour components are clamped to 0…1")
    func colour() {
        let colour = RGBA(clampingRed: 2, green: -1, blue: 0.5, alpha: .nan)
        #expect(colour == RGBA(red: 1, green: 0, blue: 0.5, alpha: 0))
        #expect(RGBA.hudDimming == RGBA(red: 0, green: 0, blue: 0, alpha: 0.2))
    }

    @Test("the background is blurred and undimmed unless asked")
    func background() {
        #expect(HUDBackground().style == .blur)
        #expect(HUDBackground().dimming == nil)
        let dimmed = HUDBackground(style: .solidColor(.hudBox), dimming: .hudDimming)
        #expect(dimmed.style == .solidColor(RGBA(red: 0.8, green: 0.8, blue: 0.8, alpha: 0.6)))
        #expect(dimmed.dimming?.alpha == 0.2)
    }

    @Test("a button carries its title and runs its action")
    @MainActor
    func button() {
        let pressed = Counter()
        let button = HUDButton(title: "Cancel") { pressed.count += 1 }
        button.action()
        #expect(button.title == "Cancel")
        #expect(pressed.count == 1)
    }
}

/// A count that a main-actor closure can bump.
@MainActor
final class Counter {
    var count = 0
}
