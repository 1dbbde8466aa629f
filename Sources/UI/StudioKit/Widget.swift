internal import CGtk
import Foundation
import ViewfinderCore

/// A GTK widget. Subclasses make the widget; this class holds what every widget does.
@MainActor
open class Widget: Object {
    var widget: UnsafeMutablePointer<GtkWidget> { vf_widget(pointer) }

    /// Shown or hidden.
    public var isVisible: Bool {
        get { gtk_widget_get_visible(widget) != 0 }
        set { gtk_widget_set_visible(widget, newValue ? 1 : 0) }
    }

    /// Shown on screen now: visible, and every widget above it too (GTK's "drawable").
    public var isDrawn: Bool { gtk_widget_is_drawable(widget) != 0 }

    /// Accepts input (buttons grey out when false).
    public var isSensitive: Bool {
        get { gtk_widget_get_sensitive(widget) != 0 }
        set { gtk_widget_set_sensitive(widget, newValue ? 1 : 0) }
    }

    /// Receives pointer input; an overlay that is off turns this off so clicks pass through.
    public var canTarget: Bool {
        get { gtk_widget_get_can_target(widget) != 0 }
        set { gtk_widget_set_can_target(widget, newValue ? 1 : 0) }
    }

    /// Whole-widget opacity, 0...1 (the transitions drive it).
    public var opacity: Double {
        get { gtk_widget_get_opacity(widget) }
        set { gtk_widget_set_opacity(widget, newValue) }
    }

    /// Takes spare room horizontally / vertically.
    public func expand(horizontally: Bool = true, vertically: Bool = true) {
        gtk_widget_set_hexpand(widget, horizontally ? 1 : 0)
        gtk_widget_set_vexpand(widget, vertically ? 1 : 0)
    }

    /// The smallest size the widget asks for, in points (-1: natural).
    public func setMinimumSize(width: Int = -1, height: Int = -1) {
        gtk_widget_set_size_request(widget, Int32(width), Int32(height))
    }

    /// Margins on all four sides.
    public func setMargins(_ points: Int) {
        gtk_widget_set_margin_top(widget, Int32(points))
        gtk_widget_set_margin_bottom(widget, Int32(points))
        gtk_widget_set_margin_start(widget, Int32(points))
        gtk_widget_set_margin_end(widget, Int32(points))
    }

    /// Horizontal and vertical placement inside the space given.
    public func align(horizontal: Alignment = .fill, vertical: Alignment = .fill) {
        gtk_widget_set_halign(widget, horizontal.gtk)
        gtk_widget_set_valign(widget, vertical.gtk)
    }

    /// Adds a style class (e.g. "suggested-action", "title-1", "dim-label").
    public func addStyleClass(_ name: String) {
        gtk_widget_add_css_class(widget, name)
    }

    /// Removes a style class.
    public func removeStyleClass(_ name: String) {
        gtk_widget_remove_css_class(widget, name)
    }

    /// The tooltip shown on hover.
    public func setTooltip(_ text: String) {
        gtk_widget_set_tooltip_text(widget, text)
    }

    /// The name tests and the inspector find the widget by.
    public var name: String {
        get { gtk_widget_get_name(widget).map { String(cString: $0) } ?? "" }
        set { gtk_widget_set_name(widget, newValue) }
    }

    /// Allocated width in points.
    public var width: Int { Int(gtk_widget_get_width(widget)) }
    /// Allocated height in points.
    public var height: Int { Int(gtk_widget_get_height(widget)) }

    /// Where this widget lies in its window's surface, in points: what a pointer on the window
    /// must hit to reach it (the surface includes client-side decorations such as the shadow).
    public var frameInSurface: Rect? {
        guard let native = gtk_widget_get_native(widget) else { return nil }
        var bounds = graphene_rect_t()
        let nativeWidget = vf_widget(UnsafeMutableRawPointer(native))
        guard gtk_widget_compute_bounds(widget, nativeWidget, &bounds) != 0 else { return nil }
        var dx = 0.0, dy = 0.0
        gtk_native_get_surface_transform(native, &dx, &dy)
        return Rect(x: Double(bounds.origin.x) + dx, y: Double(bounds.origin.y) + dy,
                    width: Double(bounds.size.width), height: Double(bounds.size.height))
    }

    /// Asks for a redraw on the next frame.
    public func queueDraw() {
        gtk_widget_queue_draw(widget)
    }

    /// Activates the widget as a click or Enter would: a button's "clicked" handlers run, a
    /// toggle button toggles.
    /// Takes the widget out of the box or wrapping row that holds it (nothing else is moved).
    public func detachFromParent() {
        guard let parent = gtk_widget_get_parent(widget) else { return }
        if vf_is_box(parent) != 0 {
            gtk_box_remove(vf_box(UnsafeMutableRawPointer(parent)), widget)
        } else if vf_is_flow_box_child(parent) != 0, let flow = gtk_widget_get_parent(parent) {
            gtk_flow_box_remove(vf_flow_box(UnsafeMutableRawPointer(flow)), parent)
        }
    }

    public func activate() {
        _ = gtk_widget_activate(widget)
    }

    /// Moves keyboard focus here; `visibly` also turns on the window's focus ring, which GTK
    /// otherwise shows only after a key was pressed (a keyboard user sees where they start).
    public func grabFocus(visibly: Bool = false) {
        _ = gtk_widget_grab_focus(widget)
        if visibly { vf_show_focus_ring(widget) }
    }

    /// Whether the widget takes keyboard focus itself (a drawing area does not unless told).
    public var isFocusable: Bool {
        get { gtk_widget_get_focusable(widget) != 0 }
        set {
            gtk_widget_set_focusable(widget, newValue ? 1 : 0)
            gtk_widget_set_can_focus(widget, newValue ? 1 : 0)
        }
    }

    /// Whether a click moves the keyboard focus here (a toolbar button acting on the focused
    /// item of a grid must leave the focus there).
    public var takesFocusOnClick: Bool {
        get { gtk_widget_get_focus_on_click(widget) != 0 }
        set { gtk_widget_set_focus_on_click(widget, newValue ? 1 : 0) }
    }

    /// Whether the widget (not a child) has the keyboard focus now.
    public var hasFocus: Bool { gtk_widget_has_focus(widget) != 0 }

    /// The name a screen reader says for the widget (GTK's accessible label).
    public func setAccessibleName(_ name: String) {
        vf_set_accessible_label(widget, name)
    }

    /// What a screen reader adds after the name (how to use the widget).
    public func setAccessibleDescription(_ text: String) {
        vf_set_accessible_description(widget, text)
    }

    /// The value of a widget in a ranged role (a slider, a progress bar): where it stands in
    /// `range`, and the words a screen reader says for it (GTK 4.8's bridge passes on the
    /// value of its own range widgets only, and not the words; later bridges pass on both).
    public func setAccessibleValue(_ now: Double, in range: ClosedRange<Double>, text: String) {
        vf_set_accessible_value(widget, range.lowerBound, range.upperBound, now, text)
    }

    /// Attaches an input controller (gesture, scroll, drop target); the widget owns it after.
    public func add(_ controller: EventController) {
        g_object_ref(controller.pointer)
        gtk_widget_add_controller(widget, vf_controller(controller.pointer))
        retain(controller)
    }

    /// Calls `handler` once per frame of the widget's frame clock, with the frame time in
    /// seconds, until it returns false.
    @discardableResult
    public func addTickCallback(_ handler: @escaping @MainActor (Double) -> Bool) -> UInt32 {
        typealias TickHandler = @MainActor (Double) -> Bool
        let callback: @convention(c) (UnsafeMutablePointer<GtkWidget>?, OpaquePointer?, UnsafeMutableRawPointer?) -> gboolean = { _, clock, data in
            let micros = clock.map { gdk_frame_clock_get_frame_time($0) } ?? 0
            return MainActor.assumeIsolated {
                (CallbackBox.from(data, as: TickHandler.self)?(Double(micros) / 1_000_000) ?? false) ? 1 : 0
            }
        }
        let box = CallbackBox(handler as TickHandler)
        return UInt32(gtk_widget_add_tick_callback(widget, callback, box.retainedPointer, CallbackBox.destroyNotify))
    }

    /// Stops a tick callback before it returns false.
    public func removeTickCallback(_ id: UInt32) {
        gtk_widget_remove_tick_callback(widget, guint(id))
    }
}

/// Where a widget sits in the space its parent gives it.
public enum Alignment: Sendable {
    case fill, start, end, center

    var gtk: GtkAlign {
        switch self {
        case .fill: GTK_ALIGN_FILL
        case .start: GTK_ALIGN_START
        case .end: GTK_ALIGN_END
        case .center: GTK_ALIGN_CENTER
        }
    }
}
