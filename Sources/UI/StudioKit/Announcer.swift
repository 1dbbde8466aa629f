internal import CGtk
import Foundation

/// Says something to a screen-reader user without moving their focus: an error, a confirmation.
///
/// With GTK 4.14 or newer it calls `gtk_accessible_announce` (found when the program runs), which
/// a reader speaks at once. GTK 4.8 (Debian 12) has no such call, and its AT-SPI bridge sends no
/// event a reader speaks for anything shown inside a window; there the words go on an unseen label
/// with the accessible role *alert* for a few seconds, where a reader finds them (Orca's flat
/// review, or reading the window) — text a reader reads, not yet speech it volunteers.
///
/// Place it as an overlay child (over the content, so it takes no room); it draws nothing and
/// takes no input or focus.
@MainActor
public final class Announcer: Widget {
    private var hiding: Timer?

    /// How long the words stay on the bus for a reader that looks at them after the event.
    public static let lingering: UInt32 = 5_000

    public init() {
        super.init(owning: raw(vf_alert_label_new()))
        opacity = 0
        canTarget = false
        gtk_widget_set_can_focus(widget, 0)
        gtk_widget_set_halign(widget, GTK_ALIGN_START)
        gtk_widget_set_valign(widget, GTK_ALIGN_START)
        isVisible = false
    }

    /// Speaks `text`: shown anew even when the same words were announced a moment ago.
    public func announce(_ text: String) {
        guard !text.isEmpty else { return }
        _ = vf_accessible_announce(pointer, text)
        hiding?.cancel()
        isVisible = false
        gtk_label_set_text(vf_label(pointer), text)
        vf_set_accessible_label(pointer, text)
        isVisible = true
        hiding = Timer.once(after: Self.lingering) { [weak self] in
            self?.isVisible = false
            self?.hiding = nil
        }
    }
}
