internal import CAdwaita
internal import CGtk

/// A row or column of widgets.
@MainActor
public final class Box: Widget {
    /// Which way the children are laid out.
    public enum Axis: Sendable { case horizontal, vertical }

    /// An empty box laying children out along `axis`, `spacing` points apart.
    public init(_ axis: Axis, spacing: Int = 0) {
        let orientation = axis == .horizontal ? GTK_ORIENTATION_HORIZONTAL : GTK_ORIENTATION_VERTICAL
        super.init(owning: raw(gtk_box_new(orientation, Int32(spacing))))
    }

    /// Appends `child` at the end.
    public func append(_ child: Widget) {
        gtk_box_append(vf_box(pointer), child.widget)
    }

    /// Removes `child`.
    public func remove(_ child: Widget) {
        gtk_box_remove(vf_box(pointer), child.widget)
    }

    /// Makes all children the same size.
    public func setHomogeneous(_ on: Bool) {
        gtk_box_set_homogeneous(vf_box(pointer), on ? 1 : 0)
    }
}

/// One child over another: the HUD sits over a screen.
@MainActor
public final class Overlay: Widget {
    /// An empty overlay.
    public init() {
        super.init(owning: raw(gtk_overlay_new()))
    }

    /// The widget underneath.
    public func setChild(_ child: Widget) {
        gtk_overlay_set_child(vf_overlay(pointer), child.widget)
    }

    /// Lays `child` over the base widget.
    public func addOverlay(_ child: Widget) {
        gtk_overlay_add_overlay(vf_overlay(pointer), child.widget)
    }
}

/// Groups of controls side by side that wrap onto further lines when the window is too narrow
/// for one (GTK's flow box, with nothing selectable): a narrow window still shows them all. The
/// wrappers GTK puts around each group take no focus, so Tab goes straight to the controls.
@MainActor
public final class WrappingRow: Widget {
    /// An empty row, `spacing` points between groups and between lines.
    public init(spacing: Int = 8) {
        super.init(owning: raw(gtk_flow_box_new()))
        let box = vf_flow_box(pointer)
        gtk_flow_box_set_selection_mode(box, GTK_SELECTION_NONE)
        gtk_flow_box_set_homogeneous(box, 0)
        gtk_flow_box_set_column_spacing(box, UInt32(spacing))
        gtk_flow_box_set_row_spacing(box, UInt32(spacing))
        gtk_flow_box_set_max_children_per_line(box, 32)
    }

    /// Adds `child` at the end.
    public func append(_ child: Widget) {
        gtk_flow_box_append(vf_flow_box(pointer), child.widget)
        if let wrapper = gtk_widget_get_parent(child.widget) { gtk_widget_set_focusable(wrapper, 0) }
    }
}

/// Pages of which one shows at a time. The app animates page changes itself (Motion), so the
/// stack's own transitions are off. The stack needs only the room the page shown needs: a
/// wide page under it does not keep a narrow window from shrinking around the one on top.
@MainActor
public final class Stack: Widget {
    /// An empty stack.
    public init() {
        super.init(owning: raw(gtk_stack_new()))
        gtk_stack_set_transition_type(vf_stack(pointer), GTK_STACK_TRANSITION_TYPE_NONE)
        gtk_stack_set_hhomogeneous(vf_stack(pointer), 0)
        gtk_stack_set_vhomogeneous(vf_stack(pointer), 0)
    }

    /// Adds `child` as page `name`.
    public func add(_ child: Widget, name: String) {
        _ = gtk_stack_add_named(vf_stack(pointer), child.widget, name)
    }

    /// Removes a page.
    public func remove(_ child: Widget) {
        gtk_stack_remove(vf_stack(pointer), child.widget)
    }

    /// The page shown.
    public var visiblePage: String {
        get { gtk_stack_get_visible_child_name(vf_stack(pointer)).map { String(cString: $0) } ?? "" }
        set { gtk_stack_set_visible_child_name(vf_stack(pointer), newValue) }
    }
}

/// A scrolling view around one child.
@MainActor
public final class ScrolledWindow: Widget {
    /// A scrolling view around `child`.
    public init(_ child: Widget) {
        super.init(owning: raw(gtk_scrolled_window_new()))
        gtk_scrolled_window_set_child(vf_scrolled(pointer), child.widget)
    }

    /// How far down it is scrolled, 0 (top) to 1 (bottom); setting it scrolls.
    public var verticalPosition: Double {
        get {
            guard let adjustment = gtk_scrolled_window_get_vadjustment(vf_scrolled(pointer)) else { return 0 }
            let range = gtk_adjustment_get_upper(adjustment) - gtk_adjustment_get_page_size(adjustment) - gtk_adjustment_get_lower(adjustment)
            return range > 0 ? (gtk_adjustment_get_value(adjustment) - gtk_adjustment_get_lower(adjustment)) / range : 0
        }
        set {
            guard let adjustment = gtk_scrolled_window_get_vadjustment(vf_scrolled(pointer)) else { return }
            let lower = gtk_adjustment_get_lower(adjustment)
            let range = gtk_adjustment_get_upper(adjustment) - gtk_adjustment_get_page_size(adjustment) - lower
            gtk_adjustment_set_value(adjustment, lower + max(0, range) * min(max(newValue, 0), 1))
        }
    }

    /// Scrolls vertically only; the width follows the child's.
    public func scrollVerticallyOnly() {
        gtk_scrolled_window_set_policy(vf_scrolled(pointer), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
    }
}

/// A top-level window in the GNOME style: libadwaita's application window holding a header bar
/// over the content, with toasts shown over both.
@MainActor
public final class Window: Widget {
    private let header: UnsafeMutablePointer<GtkWidget>
    private let toasts: UnsafeMutablePointer<GtkWidget>
    private let column: UnsafeMutablePointer<GtkWidget>
    private var content: UnsafeMutablePointer<GtkWidget>?
    /// What a screen reader is told without moving the focus: the toasts, and what `announce` says.
    private let announcer = Announcer()
    /// The header bar's title: libadwaita's own keeps room for several characters even when it
    /// ellipsizes, which with a long "Done" (Russian's «Готово») made a 360-point window wider.
    private let titleLabel = gtk_label_new(nil)

    /// A window of `application` with a header bar, at `width` × `height` points to start with.
    public init(application: Application, title: String, width: Int, height: Int) {
        header = adw_header_bar_new()
        toasts = adw_toast_overlay_new()
        column = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)
        super.init(owning: raw(adw_application_window_new(vf_application(application.pointer))))
        gtk_window_set_title(vf_window(pointer), title)
        if let titleLabel {
            gtk_label_set_text(vf_label(UnsafeMutableRawPointer(titleLabel)), title)
            gtk_label_set_ellipsize(vf_label(UnsafeMutableRawPointer(titleLabel)), PANGO_ELLIPSIZE_END)
            gtk_label_set_single_line_mode(vf_label(UnsafeMutableRawPointer(titleLabel)), 1)
            gtk_widget_add_css_class(titleLabel, "title")
            adw_header_bar_set_title_widget(vf_adw_header_bar(UnsafeMutableRawPointer(header)), titleLabel)
        }
        gtk_window_set_default_size(vf_window(pointer), Int32(width), Int32(height))
        gtk_box_append(vf_box(UnsafeMutableRawPointer(column)), header)
        // The announcer over the content: an overlay child takes no room of its own.
        let layers = gtk_overlay_new()
        gtk_overlay_set_child(vf_overlay(UnsafeMutableRawPointer(layers)), column)
        gtk_overlay_add_overlay(vf_overlay(UnsafeMutableRawPointer(layers)), announcer.widget)
        adw_toast_overlay_set_child(vf_adw_toast_overlay(UnsafeMutableRawPointer(toasts)), layers)
        adw_application_window_set_content(vf_adw_window(pointer), toasts)
    }

    /// The window's content, under the header bar.
    public func setChild(_ child: Widget) {
        if let content { gtk_box_remove(vf_box(UnsafeMutableRawPointer(column)), content) }
        gtk_widget_set_vexpand(child.widget, 1)
        gtk_box_append(vf_box(UnsafeMutableRawPointer(column)), child.widget)
        content = child.widget
    }

    /// Puts `widget` at the start (left) of the header bar.
    public func addToHeaderStart(_ widget: Widget) {
        adw_header_bar_pack_start(vf_adw_header_bar(UnsafeMutableRawPointer(header)), widget.widget)
    }

    /// Puts `widget` at the end (right) of the header bar.
    public func addToHeaderEnd(_ widget: Widget) {
        adw_header_bar_pack_end(vf_adw_header_bar(UnsafeMutableRawPointer(header)), widget.widget)
    }

    /// Moves `widget` from the box or wrapping row that holds it to the end of the header bar
    /// (a screen's Done, as GNOME places a view's main action).
    public func moveToHeaderEnd(_ widget: Widget) {
        widget.detachFromParent()
        addToHeaderEnd(widget)
    }

    /// Takes `widget` out of the header bar (it stays alive while its wrapper lives).
    public func removeFromHeader(_ widget: Widget) {
        guard gtk_widget_get_parent(widget.widget) != nil else { return }
        adw_header_bar_remove(vf_adw_header_bar(UnsafeMutableRawPointer(header)), widget.widget)
    }

    /// Shows a short confirmation at the bottom of the window for a few seconds (a toast).
    /// A screen reader speaks it too (libadwaita 1.2's toasts do not reach one).
    public func toast(_ title: String) {
        guard let toast = adw_toast_new(title) else { return }
        adw_toast_set_timeout(toast, 3)
        adw_toast_overlay_add_toast(vf_adw_toast_overlay(UnsafeMutableRawPointer(toasts)), toast)
        announce(title)
    }

    /// Tells a screen-reader user `text` (an error, a confirmation) without moving the focus.
    public func announce(_ text: String) {
        announcer.announce(text)
    }

    /// The title shown in the header bar.
    public var title: String {
        get { gtk_window_get_title(vf_window(pointer)).map { String(cString: $0) } ?? "" }
        set {
            gtk_window_set_title(vf_window(pointer), newValue)
            if let titleLabel { gtk_label_set_text(vf_label(UnsafeMutableRawPointer(titleLabel)), newValue) }
        }
    }

    /// The icon every window shows, by its name in the icon theme (the app id once installed).
    public static func setDefaultIconName(_ name: String) {
        gtk_window_set_default_icon_name(name)
    }

    /// Asks for another size (the window stays at least as large as its content needs).
    public func setSize(width: Int, height: Int) {
        gtk_window_set_default_size(vf_window(pointer), Int32(width), Int32(height))
    }

    /// The widget Enter activates when the focused control does not take it (the screen's Done),
    /// or nil for none.
    public func setDefaultWidget(_ widget: Widget?) {
        gtk_window_set_default_widget(vf_window(pointer), widget?.widget)
    }

    /// Shows the window.
    public func present() {
        gtk_window_present(vf_window(pointer))
    }

    /// Closes and destroys the window.
    public func destroy() {
        gtk_window_destroy(vf_window(pointer))
    }
}

/// Two panes side by side that fold into one when the window is too narrow for both
/// (libadwaita's leaflet): then only the `main` pane shows.
@MainActor
public final class FoldingPanes: Widget {
    private let side: Widget
    private let main: Widget

    /// `side` at the start (a sidebar) and `main`; folded, `main` shows.
    public init(side: Widget, main: Widget) {
        self.side = side
        self.main = main
        super.init(owning: raw(adw_leaflet_new()))
        let leaflet = vf_adw_leaflet(pointer)
        _ = adw_leaflet_append(leaflet, side.widget)
        _ = adw_leaflet_append(leaflet, main.widget)
        adw_leaflet_set_visible_child(leaflet, main.widget)
        adw_leaflet_set_can_unfold(leaflet, 1)
        // Folded, a swipe (or the pointer's back button) returns from the side pane.
        adw_leaflet_set_can_navigate_back(leaflet, 1)
    }

    /// True while the window is too narrow for both panes.
    public var isFolded: Bool { adw_leaflet_get_folded(vf_adw_leaflet(pointer)) != 0 }

    /// Folded, shows the side pane instead of the main one (unfolded, both show anyway).
    public func showSide() {
        adw_leaflet_set_visible_child(vf_adw_leaflet(pointer), side.widget)
    }

    /// Folded, shows the main pane.
    public func showMain() {
        adw_leaflet_set_visible_child(vf_adw_leaflet(pointer), main.widget)
    }

    /// Whether the side pane is the one shown while folded.
    public var showsSide: Bool {
        isFolded && adw_leaflet_get_visible_child(vf_adw_leaflet(pointer)) == side.widget
    }

    /// Called when the panes fold or unfold.
    public func onFold(_ handler: @escaping @MainActor (Bool) -> Void) {
        onNotify("folded") { [unowned self] in handler(self.isFolded) }
    }
}
