import Foundation
import Testing
import ViewfinderCore

@testable import HUD

@Suite("HUD appearance: content colour, fonts, indicator colours")
@MainActor
struct HUDAppearanceTests {
    static let orange = RGBA(red: 1, green: 0.5, blue: 0, alpha: 1)

    @Test("fonts read as Pango descriptions", arguments: [
        (HUDFont.label, "Sans Bold 12"), (HUDFont.details, "Sans 9"),
        (HUDFont(family: "DejaVu Serif", size: 16.5, isBold: true), "DejaVu Serif Bold 16.5"),
        (HUDFont(family: "Mono", size: -3), "Mono 1"), (HUDFont(size: .nan), "Sans 1"),
    ])
    func fonts(font: HUDFont, description: String) {
        #expect(font.description == description)
    }

    @Test("without a content colour: black at 70% on light boxes, white at 90% on dark ones", arguments: [
        (HUDBackground.Style.blur(.light), RGBA(red: 0, green: 0, blue: 0, alpha: 0.7)),
        (.blur(.dark), RGBA(red: 1, green: 1, blue: 1, alpha: 0.9)),
        (.solidColor(.hudBox), RGBA(red: 0, green: 0, blue: 0, alpha: 0.7)),
        (.solidColor(RGBA(red: 0.2, green: 0.2, blue: 0.2, alpha: 0.9)), RGBA(red: 1, green: 1, blue: 1, alpha: 0.9)),
        // Black at 40% over white is still light (luma 0.6): dark text.
        (.solidColor(RGBA(red: 0, green: 0, blue: 0, alpha: 0.4)), RGBA(red: 0, green: 0, blue: 0, alpha: 0.7)),
        (.solidColor(RGBA(red: 0, green: 0, blue: 0, alpha: 0.6)), RGBA(red: 1, green: 1, blue: 1, alpha: 0.9)),
    ])
    func automaticContent(style: HUDBackground.Style, expected: RGBA) {
        let hud = ProgressHUD(clock: VirtualClock())
        hud.background.style = style
        #expect(hud.automaticContentColor == expected)
        #expect(hud.resolvedColors.content == expected)
        #expect(hud.resolvedColors.label == expected && hud.resolvedColors.details == expected)
    }

    @Test("a content colour reaches the labels and the indicator, the tracks at 10%, as the original's")
    func contentColour() {
        let hud = ProgressHUD(clock: VirtualClock(), mode: .annularDeterminate)
        hud.contentColor = Self.orange
        let ring = hud.resolvedColors
        #expect(ring == HUDResolvedColors(content: Self.orange, label: Self.orange, details: Self.orange,
                                          progressTint: Self.orange,
                                          backgroundTint: RGBA(red: 1, green: 0.5, blue: 0, alpha: 0.1),
                                          line: Self.orange))
        hud.mode = .determinate
        #expect(hud.resolvedColors == ring)
        // The bar's empty part stays clear, as MBBarProgressView's progressRemainingColor.
        hud.mode = .determinateHorizontalBar
        #expect(hud.resolvedColors.backgroundTint == .clear)
        #expect(hud.resolvedColors.line == Self.orange && hud.resolvedColors.progressTint == Self.orange)
    }

    @Test("each colour set wins over the content colour; the rest follow it")
    func overrides() {
        let hud = ProgressHUD(clock: VirtualClock(), mode: .determinateHorizontalBar)
        hud.background.style = .blur(.dark)
        hud.labelColor = .red
        hud.indicatorColors = HUDIndicatorColors(progressTint: .green, backgroundTint: .blue, lineColor: .black)
        let colors = hud.resolvedColors
        #expect(colors.content == .hudContentOnDark)
        #expect(colors.label == .red)
        #expect(colors.details == RGBA(red: 1, green: 1, blue: 1, alpha: 0.9))
        #expect(colors.progressTint == .green && colors.backgroundTint == .blue && colors.line == .black)
        hud.contentColor = Self.orange
        hud.detailsColor = .white
        #expect(hud.resolvedColors.content == Self.orange && hud.resolvedColors.details == .white)
        #expect(hud.resolvedColors.label == .red && hud.resolvedColors.progressTint == .green)
    }

    @Test("restoring the default appearance clears colours and fonts, and keeps the box, view and layout")
    func restore() {
        let hud = ProgressHUD(clock: VirtualClock())
        hud.contentColor = Self.orange
        hud.labelColor = .red
        hud.detailsColor = .blue
        hud.labelFont = HUDFont(family: "Serif", size: 20)
        hud.detailsFont = HUDFont(family: "Mono", size: 8, isBold: true)
        hud.indicatorColors = HUDIndicatorColors(progressTint: .green, backgroundTint: .black, lineColor: .white)
        hud.background = HUDBackground(style: .blur(.dark), view: .solidColor(.hudDimming))
        hud.layout.minSize = Size(width: 150, height: 100)
        hud.restoreDefaultAppearance()
        #expect(hud.contentColor == nil && hud.labelColor == nil && hud.detailsColor == nil)
        #expect(hud.labelFont == .label && hud.detailsFont == .details && hud.indicatorColors == HUDIndicatorColors())
        #expect(hud.background == HUDBackground(style: .blur(.dark), view: .solidColor(.hudDimming)))
        #expect(hud.layout.minSize == Size(width: 150, height: 100))
    }

    @Test("withAlpha replaces the alpha and keeps the colour")
    func withAlpha() {
        #expect(Self.orange.withAlpha(0.25) == RGBA(red: 1, green: 0.5, blue: 0, alpha: 0.25))
    }
}
