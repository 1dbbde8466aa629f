import Foundation
import ViewfinderCore

/// What the HUD's indicator shows (the original component's six modes).
public enum HUDMode: Sendable, Hashable {
    /// A spinner: work is going on, amount unknown.
    case indeterminate
    /// A pie that fills with `progress`.
    case determinate
    /// A ring that closes with `progress`.
    case annularDeterminate
    /// A horizontal bar that fills with `progress`.
    case determinateHorizontalBar
    /// A symbol in place of the indicator, e.g. a checkmark when the work succeeded.
    case customView(HUDSymbol)
    /// No indicator: the labels alone.
    case text

    /// True for the modes that show `progress`.
    public var isDeterminate: Bool {
        switch self {
        case .determinate, .annularDeterminate, .determinateHorizontalBar: true
        case .indeterminate, .customView, .text: false
        }
    }
}

/// What `.customView` mode shows in place of the indicator. Renderers map the four symbols to
/// their own artwork; `named` is an icon the renderer looks up in the desktop's icon theme
/// (e.g. "camera-photo-symbolic"); `image` is any picture, drawn as it is.
public enum HUDSymbol: Sendable, Hashable {
    /// Success.
    case checkmark
    /// Failure.
    case cross
    /// Information.
    case info
    /// Something needs attention.
    case warning
    /// An icon the renderer looks up by name in the icon theme; symbolic icons take the
    /// content colour.
    case named(String)
    /// A picture of the app's own (RGB or RGBA), shown at its size in pixels, shrunk to fit the
    /// box if it is larger.
    case image(RasterImage)

    /// A one-character stand-in for text renderers such as the terminal.
    public var glyph: String {
        switch self {
        case .checkmark: "✔"
        case .cross: "✖"
        case .info: "ℹ"
        case .warning: "⚠"
        case .named: "•"
        case .image: "▣"
        }
    }
}

/// The HUD's optional button, e.g. Cancel. The renderer calls `ProgressHUD.pressButton()` when
/// the user presses it, which runs `action` on the main actor.
public struct HUDButton: Sendable {
    /// The button's text.
    public var title: String
    /// What pressing it does.
    public var action: @MainActor @Sendable () -> Void

    /// A button with a title and an action.
    public init(title: String, action: @escaping @MainActor @Sendable () -> Void) {
        self.title = title
        self.action = action
    }
}

extension RGBA {
    /// The box colour the original component uses without blur: 80% grey at 60% opacity.
    public static let hudBox = RGBA(red: 0.8, green: 0.8, blue: 0.8, alpha: 0.6)
    /// The usual dimming over the whole view: black at 20%.
    public static let hudDimming = RGBA(red: 0, green: 0, blue: 0, alpha: 0.2)
}

/// How the box and the view behind it look, as the original's bezel view and background view
/// (both of one kind: a solid colour or a blur). Parameters only: the renderer draws them.
public struct HUDBackground: Sendable, Hashable {
    /// How a surface is filled.
    public enum Style: Sendable, Hashable {
        /// A flat colour.
        case solidColor(RGBA)
        /// The content behind, blurred, with the style's tint over it.
        case blur(HUDBlurStyle)
    }

    /// The box's fill.
    public var style: Style
    /// What is laid over the whole view while the HUD shows: a solid colour dims it, a blur
    /// blurs it; nil leaves the view as it is. It fades with the box.
    public var view: Style?

    /// A light blurred box over an untouched view, as the original's default.
    public init(style: Style = .blur(.light), view: Style? = nil) {
        self.style = style
        self.view = view
    }

    /// The colour dimming the view, when the view is dimmed with a solid colour.
    public var dimming: RGBA? {
        if case .solidColor(let color) = view { color } else { nil }
    }

    /// True when the box or the view is blurred, so a renderer needs a picture of what is behind.
    public var needsBackdrop: Bool {
        if case .blur = style { return true }
        if case .blur = view { return true }
        return false
    }
}
