import Foundation
import ViewfinderCore

/// A font for the HUD's text, as a renderer asks its text engine for one: a family, a size in
/// points and a weight.
public struct HUDFont: Sendable, Hashable, CustomStringConvertible {
    /// The family, e.g. "Sans" (the desktop's sans-serif).
    public var family: String
    /// The size in points; non-finite or non-positive sizes count as 1.
    public var size: Double
    /// Bold or regular.
    public var isBold: Bool

    /// A font of `family` at `size` points.
    public init(family: String = "Sans", size: Double, isBold: Bool = false) {
        self.family = family
        self.size = size.isFinite && size > 0 ? size : 1
        self.isBold = isBold
    }

    /// "Sans Bold 12": the form Pango's font descriptions (and GTK's CSS) read.
    public var description: String {
        let points = size.rounded() == size ? String(Int(size)) : String(size)
        return [family, isBold ? "Bold" : nil, points].compactMap { $0 }.joined(separator: " ")
    }

    /// The label's font: bold, 12 points (the original's bold 16 pixels at 96 dpi).
    public static let label = HUDFont(size: 12, isBold: true)
    /// The details label's font: 9 points (12 pixels).
    public static let details = HUDFont(size: 9)
}

/// The look of a blurred surface, as the original's light and dark blur effects: the content
/// behind is blurred and this tint laid over it.
public enum HUDBlurStyle: String, Sendable, Hashable, CaseIterable {
    /// A pale frosted glass, for a light theme.
    case light
    /// A smoked glass, for a dark theme.
    case dark

    /// The colour laid over the blurred content.
    public var tint: RGBA {
        switch self {
        case .light: RGBA(red: 0.9, green: 0.9, blue: 0.9, alpha: 0.75)
        case .dark: RGBA(red: 0.11, green: 0.11, blue: 0.11, alpha: 0.75)
        }
    }

    /// How far the blur reaches, in pixels (the σ of the near-Gaussian it draws).
    public static let radius = 8
}

extension RGBA {
    /// The original's content colour on a light box: black at 70%.
    public static let hudContentOnLight = RGBA(red: 0, green: 0, blue: 0, alpha: 0.7)
    /// Content on a dark box: white at 90%.
    public static let hudContentOnDark = RGBA(red: 1, green: 1, blue: 1, alpha: 0.9)

    /// The same colour with its alpha replaced by `alpha`.
    public func withAlpha(_ alpha: Double) -> RGBA {
        RGBA(red: red, green: green, blue: blue, alpha: alpha)
    }

    /// The brightness of the colour laid over white, 0…1 (Rec. 601 weights): what decides
    /// whether text on it should be dark or light.
    var lumaOverWhite: Double {
        (0.299 * red + 0.587 * green + 0.114 * blue) * alpha + (1 - alpha)
    }
}

/// The colours of the pie, the ring and the bar, each nil to follow the content colour as the
/// original does when its content colour is set.
public struct HUDIndicatorColors: Sendable, Hashable {
    /// The done part: the pie's slice and outline, the ring's arc, the bar's fill.
    public var progressTint: RGBA?
    /// The part still to do: inside the pie, the ring's track, the bar's empty part.
    public var backgroundTint: RGBA?
    /// The bar's outline.
    public var lineColor: RGBA?

    /// Colours of your choosing; nil ones follow the content colour.
    public init(progressTint: RGBA? = nil, backgroundTint: RGBA? = nil, lineColor: RGBA? = nil) {
        self.progressTint = progressTint
        self.backgroundTint = backgroundTint
        self.lineColor = lineColor
    }
}

/// Every colour a renderer draws the HUD's content with, settled: nothing left to default.
public struct HUDResolvedColors: Sendable, Hashable {
    /// The colour the rest default to; also the spinner's, the symbols' and the button's.
    public var content: RGBA
    /// The label's text.
    public var label: RGBA
    /// The details label's text.
    public var details: RGBA
    /// The done part of the pie, ring or bar.
    public var progressTint: RGBA
    /// The part still to do.
    public var backgroundTint: RGBA
    /// The bar's outline.
    public var line: RGBA
}

extension ProgressHUD {
    /// The content colour when none is set: dark on a light box (a light blur or a pale solid
    /// colour, judged laid over white), light on a dark one.
    public var automaticContentColor: RGBA {
        switch background.style {
        case .blur(.light): .hudContentOnLight
        case .blur(.dark): .hudContentOnDark
        case .solidColor(let color): color.lumaOverWhite < 0.5 ? .hudContentOnDark : .hudContentOnLight
        }
    }

    /// Puts the content colour, the fonts, the label colours and the indicator colours back to
    /// their defaults (the box, the view and the layout are left as they are).
    public func restoreDefaultAppearance() {
        contentColor = nil
        labelFont = .label
        labelColor = nil
        detailsFont = .details
        detailsColor = nil
        indicatorColors = HUDIndicatorColors()
    }

    /// The colours to draw with: each one set wins, the rest follow the content colour, as the
    /// original's `contentColor` does — the pie's and ring's background tint at 10% of it, the
    /// bar's empty part clear.
    public var resolvedColors: HUDResolvedColors {
        let content = contentColor ?? automaticContentColor
        let remaining = mode == .determinateHorizontalBar ? RGBA.clear : content.withAlpha(0.1)
        return HUDResolvedColors(
            content: content,
            label: labelColor ?? content,
            details: detailsColor ?? content,
            progressTint: indicatorColors.progressTint ?? content,
            backgroundTint: indicatorColors.backgroundTint ?? remaining,
            line: indicatorColors.lineColor ?? content)
    }
}
