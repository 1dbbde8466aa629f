import Foundation
import ViewfinderCore

extension ProgressHUD {
    /// The kinds of short message a HUD can flash.
    public enum Flash: Sendable, Hashable {
        /// A checkmark: the work succeeded.
        case success
        /// A cross: the work failed.
        case error
        /// The label alone.
        case text

        /// The mode that shows this kind.
        public var mode: HUDMode {
            switch self {
            case .success: .customView(.checkmark)
            case .error: .customView(.cross)
            case .text: .text
            }
        }
    }

    /// How long a flashed message stays up unless told otherwise: 3 s, as the original's
    /// wrapper hides its success, error and text HUDs.
    public static let flashDuration: TimeInterval = 3
    /// The smallest box a flashed message gets, as the original's wrapper sets it: 150 × 100.
    public static let flashMinimumSize = Size(width: 150, height: 100)

    /// Shows `label` as `kind` now — with no grace time, since a result is meant to be seen — and
    /// hides it `duration` seconds later, in a box at least `flashMinimumSize`. Reuses this HUD:
    /// a running progress HUD turns into its own result. The button and observed progress are
    /// dropped.
    public func flash(_ kind: Flash, label: String, details: String = "",
                      for duration: TimeInterval = ProgressHUD.flashDuration) {
        mode = kind.mode
        layout.minSize = Self.flashMinimumSize
        self.label = label
        detailsLabel = details
        button = nil
        observedProgress = nil
        show(animated: true, graceTime: 0)
        hide(afterDelay: duration)
    }

    /// A new HUD on `clock` that flashes `label` as `kind` and hides itself after `duration`.
    public static func flash(_ kind: Flash, label: String, details: String = "", clock: any ClockSource,
                             for duration: TimeInterval = ProgressHUD.flashDuration) -> ProgressHUD {
        let hud = ProgressHUD(clock: clock)
        hud.flash(kind, label: label, details: details, for: duration)
        return hud
    }
}
