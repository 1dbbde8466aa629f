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

/// Pages of which one shows at a time. The app animates page changes itself (Motion), so the
/// stack's own transitions are off.
@MainActor
public final class Stack: Widget {
    /// An empty stack.
    public init() {
        super.init(owning: raw(gtk_stack_new()))
        gtk_stack_set_transition_type(vf_stack(pointer), GTK_STACK_TRANSITION_TYPE_NONE)
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

/// A top-level window with a header bar.
@MainActor
public final class Window: Widget {
    private let header: UnsafeMutablePointer<GtkWidget>

    /// A window of `application` with a header bar, at `width` × `height` points to start with.
    public init(application: Application, title: String, width: Int, height: Int) {
        header = gtk_header_bar_new()
        super.init(owning: raw(gtk_application_window_new(vf_application(application.pointer))))
        gtk_window_set_title(vf_window(pointer), title)
        gtk_window_set_default_size(vf_window(pointer), Int32(width), Int32(height))
        gtk_window_set_titlebar(vf_window(pointer), header)
    }

    /// The window's content.
    public func setChild(_ child: Widget) {
        gtk_window_set_child(vf_window(pointer), child.widget)
    }

    /// Puts `widget` at the start (left) of the header bar.
    public func addToHeaderStart(_ widget: Widget) {
        gtk_header_bar_pack_start(vf_header_bar(UnsafeMutableRawPointer(header)), widget.widget)
    }

    /// Puts `widget` at the end (right) of the header bar.
    public func addToHeaderEnd(_ widget: Widget) {
        gtk_header_bar_pack_end(vf_header_bar(UnsafeMutableRawPointer(header)), widget.widget)
    }

    /// The title shown in the header bar.
    public var title: String {
        get { gtk_window_get_title(vf_window(pointer)).map { String(cString: $0) } ?? "" }
        set { gtk_window_set_title(vf_window(pointer), newValue) }
    }

    /// The icon every window shows, by its name in the icon theme (the app id once installed).
    public static func setDefaultIconName(_ name: String) {
        gtk_window_set_default_icon_name(name)
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
