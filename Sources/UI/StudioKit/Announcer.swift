internal import CGtk
import Foundation

/// Says something to a screen-reader user without moving their focus: an error, a confirmation.
/// An unseen label with the accessible role *alert*: each announcement puts the words on it and
/// shows it, which a reader (Orca) speaks at once; it hides itself a few seconds later. (GTK
/// 4.14's `gtk_accessible_announce` does this directly; GTK 4.8 has no such call.)
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

    /// The words of the last announcement, while it is shown; nil after.
    public var current: String? {
        isVisible ? gtk_label_get_text(vf_label(pointer)).map { String(cString: $0) } : nil
    }
}
