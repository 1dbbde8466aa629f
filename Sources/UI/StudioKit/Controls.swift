// CAdwaita too: whichever module includes gtk.h first owns GTK's enums in a release
// (whole-module) build, and without it GTK_ORIENTATION_HORIZONTAL is not found there.
internal import CAdwaita
internal import CGtk

/// A line of text.
@MainActor
public final class Label: Widget {
    /// A label showing `text`.
    public init(_ text: String = "") {
        super.init(owning: raw(gtk_label_new(text)))
    }

    /// The text shown.
    public var text: String {
        get { gtk_label_get_text(vf_label(pointer)).map { String(cString: $0) } ?? "" }
        set { gtk_label_set_text(vf_label(pointer), newValue) }
    }

    /// Wraps long text over several lines.
    public func setWraps(_ on: Bool) {
        gtk_label_set_wrap(vf_label(pointer), on ? 1 : 0)
    }

    /// Horizontal alignment of the text, 0 (left) to 1 (right).
    public func setTextAlignment(_ x: Double) {
        gtk_label_set_xalign(vf_label(pointer), Float(x))
    }
}

/// A push button.
@MainActor
public class Button: Widget {
    /// A button labelled `title` that runs `action` when clicked.
    public init(_ title: String, action: @escaping @MainActor () -> Void = {}) {
        super.init(owning: raw(gtk_button_new_with_label(title)))
        on("clicked", action)
    }

    init(owning pointer: UnsafeMutableRawPointer, action: @escaping @MainActor () -> Void) {
        super.init(owning: pointer)
        on("clicked", action)
    }

    /// A button showing a named icon (e.g. "camera-photo-symbolic").
    public static func icon(_ name: String, tooltip: String, action: @escaping @MainActor () -> Void) -> Button {
        let button = Button(owning: raw(gtk_button_new_from_icon_name(name)), action: action)
        button.setTooltip(tooltip)
        // An icon has no words of its own: a screen reader says the tooltip.
        button.setAccessibleName(tooltip)
        return button
    }

    /// The button's text.
    public var title: String {
        get { gtk_button_get_label(vf_button(pointer)).map { String(cString: $0) } ?? "" }
        set { gtk_button_set_label(vf_button(pointer), newValue) }
    }
}

/// A button that stays in or out; buttons in one group act as radio buttons.
@MainActor
public final class ToggleButton: Widget {
    /// A toggle labelled `title`; `toggled` hears whether it is now in.
    public init(_ title: String, toggled: @escaping @MainActor (Bool) -> Void) {
        super.init(owning: raw(gtk_toggle_button_new_with_label(title)))
        on("toggled") { [unowned self] in toggled(self.isActive) }
    }

    /// Pressed in.
    public var isActive: Bool {
        get { gtk_toggle_button_get_active(vf_toggle(pointer)) != 0 }
        set { gtk_toggle_button_set_active(vf_toggle(pointer), newValue ? 1 : 0) }
    }

    /// Makes this button one of `leader`'s radio group.
    public func join(_ leader: ToggleButton) {
        gtk_toggle_button_set_group(vf_toggle(pointer), vf_toggle(leader.pointer))
    }
}

/// A horizontal slider over a range of numbers (GtkScale): its role to a screen reader is a
/// slider, its value read out as it moves.
@MainActor
public final class Slider: Widget {
    /// A slider from `range.lowerBound` to `range.upperBound` moving by `step` (arrow keys)
    /// and `page` (Page Up/Down), at `value`, with a mark at each of `marks`.
    public init(range: ClosedRange<Double>, step: Double, page: Double, value: Double, marks: [Double] = []) {
        super.init(owning: raw(gtk_scale_new_with_range(GTK_ORIENTATION_HORIZONTAL, range.lowerBound, range.upperBound, step)))
        gtk_range_set_increments(vf_range(pointer), step, page)
        gtk_range_set_value(vf_range(pointer), value)
        gtk_scale_set_draw_value(vf_scale(pointer), 0)
        for mark in marks { gtk_scale_add_mark(vf_scale(pointer), mark, GTK_POS_BOTTOM, nil) }
    }

    /// The value now; setting it moves the knob (and tells `onChange`, as a drag would).
    public var value: Double {
        get { gtk_range_get_value(vf_range(pointer)) }
        set { gtk_range_set_value(vf_range(pointer), newValue) }
    }

    /// The values it moves between.
    public var range: ClosedRange<Double> {
        get {
            let adjustment = gtk_range_get_adjustment(vf_range(pointer))
            return gtk_adjustment_get_lower(adjustment)...gtk_adjustment_get_upper(adjustment)
        }
        set { gtk_range_set_range(vf_range(pointer), newValue.lowerBound, newValue.upperBound) }
    }

    /// Runs `handler` with the new value whenever it changes.
    public func onChange(_ handler: @escaping @MainActor (Double) -> Void) {
        on("value-changed") { [unowned self] in handler(self.value) }
    }
}

/// A progress bar (GtkProgressBar): to a screen reader, a progress bar whose value is how much
/// of the work is done.
@MainActor
public final class ProgressBar: Widget {
    public init() {
        super.init(owning: raw(gtk_progress_bar_new()))
    }

    /// How much is done, 0...1.
    public var fraction: Double {
        get { gtk_progress_bar_get_fraction(vf_progress_bar(pointer)) }
        set { gtk_progress_bar_set_fraction(vf_progress_bar(pointer), min(max(newValue, 0), 1)) }
    }
}
