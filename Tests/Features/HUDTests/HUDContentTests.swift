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
    func glyphs() throws {
        let picture = try #require(RasterImage(width: 1, height: 1, channels: 4, bytes: [255, 0, 0, 255]))
        let symbols: [HUDSymbol] = [.checkmark, .cross, .info, .warning, .named("camera"), .image(picture)]
        #expect(symbols.map(\.glyph) == ["✔", "✖", "ℹ", "⚠", "•", "▣"])
    }

    @Test("an image custom view is the picture it was given: equal pictures, equal views")
    func imageSymbol() throws {
        let red = try #require(RasterImage(width: 2, height: 1, channels: 4, bytes: [255, 0, 0, 255, 255, 0, 0, 128]))
        let blue = try #require(RasterImage(width: 2, height: 1, channels: 4, bytes: [0, 0, 255, 255, 0, 0, 255, 128]))
        #expect(HUDMode.customView(.image(red)) == .customView(.image(red)))
        #expect(HUDMode.customView(.image(red)) != .customView(.image(blue)))
        #expect(Set([HUDSymbol.image(red), .image(red), .image(blue)]).count == 2)
        guard case .customView(.image(let shown)) = HUDMode.customView(.image(red)) else {
            Issue.record("not an image")
            return
        }
        #expect(shown.width == 2 && shown.height == 1 && shown[1, 0] == [255, 0, 0, 128])
    }

    @Test("colour components are clamped to 0…1")
    func colour() {
        let colour = RGBA(clampingRed: 2, green: -1, blue: 0.5, alpha: .nan)
        #expect(colour == RGBA(red: 1, green: 0, blue: 0.5, alpha: 0))
        #expect(RGBA.hudDimming == RGBA(red: 0, green: 0, blue: 0, alpha: 0.2))
    }

    @Test("the box is a light blur over an untouched view unless asked")
    func background() {
        #expect(HUDBackground().style == .blur(.light))
        #expect(HUDBackground().view == nil)
        #expect(HUDBackground().dimming == nil)
        #expect(HUDBackground().needsBackdrop)
        let dimmed = HUDBackground(style: .solidColor(.hudBox), view: .solidColor(.hudDimming))
        #expect(dimmed.style == .solidColor(RGBA(red: 0.8, green: 0.8, blue: 0.8, alpha: 0.6)))
        #expect(dimmed.dimming == RGBA(red: 0, green: 0, blue: 0, alpha: 0.2))
        #expect(!dimmed.needsBackdrop)
        let blurredView = HUDBackground(style: .solidColor(.hudBox), view: .blur(.dark))
        #expect(blurredView.dimming == nil)
        #expect(blurredView.needsBackdrop)
    }

    @Test("light and dark blur: their tints and one radius")
    func blurStyles() {
        #expect(HUDBlurStyle.allCases == [.light, .dark])
        #expect(HUDBlurStyle.light.tint == RGBA(red: 0.9, green: 0.9, blue: 0.9, alpha: 0.75))
        #expect(HUDBlurStyle.dark.tint == RGBA(red: 0.11, green: 0.11, blue: 0.11, alpha: 0.75))
        #expect(HUDBlurStyle.radius == 8)
        #expect(HUDBlurStyle(rawValue: "dark") == .dark)
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
