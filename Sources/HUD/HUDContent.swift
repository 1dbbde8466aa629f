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

/// A symbol shown in `.customView` mode. Renderers map each to their own artwork; `named` lets
/// an app bring an icon the HUD module does not know.
public enum HUDSymbol: Sendable, Hashable {
    /// Success.
    case checkmark
    /// Failure.
    case cross
    /// Information.
    case info
    /// Something needs attention.
    case warning
    /// An icon the renderer looks up by name.
    case named(String)

    /// A one-character stand-in for text renderers such as the terminal.
    public var glyph: String {
        switch self {
        case .checkmark: "✔"
        case .cross: "✖"
        case .info: "ℹ"
        case .warning: "⚠"
        case .named: "•"
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

/// How the box and the view behind it look. Parameters only: the renderer draws them.
public struct HUDBackground: Sendable, Hashable {
    /// How the box itself is filled.
    public enum Style: Sendable, Hashable {
        /// A flat colour.
        case solidColor(RGBA)
        /// The content behind, blurred.
        case blur
    }

    /// The box's fill.
    public var style: Style
    /// A colour laid over the whole view while the HUD shows, or nil to leave the view undimmed.
    /// It fades with the box.
    public var dimming: RGBA?

    /// A blurred box over an undimmed view, as the original's default.
    public init(style: Style = .blur, dimming: RGBA? = nil) {
        self.style = style
        self.dimming = dimming
    }
}
