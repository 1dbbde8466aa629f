internal import CGtk

/// Something that turns input events into calls: a gesture, the scroll wheel, a drop target.
/// Attach it with `Widget.add(_:)`.
@MainActor
open class EventController: Object {}

/// Press, move, release. The handlers get the offset from where the drag began.
@MainActor
public final class DragGesture: EventController {
    /// Where the drag began, in the widget's coordinates.
    public private(set) var startPoint = (x: 0.0, y: 0.0)

    /// `began` gets the press point, `moved` and `ended` the offset from it.
    public init(began: @escaping @MainActor (Double, Double) -> Void = { _, _ in },
                moved: @escaping @MainActor (Double, Double) -> Void,
                ended: @escaping @MainActor (Double, Double) -> Void = { _, _ in }) {
        super.init(owning: raw(gtk_gesture_drag_new()))
        onPoint("drag-begin") { [unowned self] x, y in
            self.startPoint = (x, y)
            began(x, y)
        }
        onPoint("drag-update", moved)
        onPoint("drag-end", ended)
    }
}

/// Clicks: the handler gets the click count (2 for a double-click) and the point.
@MainActor
public final class ClickGesture: EventController {
    /// `pressed` gets the click count and the point.
    public init(pressed: @escaping @MainActor (Int, Double, Double) -> Void) {
        super.init(owning: raw(gtk_gesture_click_new()))
        typealias PressHandler = @MainActor (Int, Double, Double) -> Void
        let callback: @convention(c) (UnsafeMutableRawPointer?, Int32, Double, Double, UnsafeMutableRawPointer?) -> Void = { _, count, x, y, data in
            MainActor.assumeIsolated { CallbackBox.from(data, as: PressHandler.self)?(Int(count), x, y) }
        }
        _ = connect("pressed", unsafeBitCast(callback, to: GCallback.self), CallbackBox(pressed as PressHandler))
    }
}

/// Two-finger pinch: the handler gets the scale since the pinch began and its centre.
@MainActor
public final class ZoomGesture: EventController {
    /// `began` hears a new pinch; `changed` gets its scale and centre.
    public init(began: @escaping @MainActor () -> Void, changed: @escaping @MainActor (Double, Double, Double) -> Void) {
        super.init(owning: raw(gtk_gesture_zoom_new()))
        // "begin" passes the event sequence before the user data.
        let begin: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, _, data in
            MainActor.assumeIsolated { CallbackBox.from(data, as: VoidHandler.self)?() }
        }
        _ = connect("begin", unsafeBitCast(begin, to: GCallback.self), CallbackBox(began as VoidHandler))
        typealias ScaleHandler = @MainActor (Double) -> Void
        let callback: @convention(c) (UnsafeMutableRawPointer?, Double, UnsafeMutableRawPointer?) -> Void = { _, scale, data in
            MainActor.assumeIsolated { CallbackBox.from(data, as: ScaleHandler.self)?(scale) }
        }
        let gesture = pointer
        let handler: ScaleHandler = { scale in
            var x = 0.0, y = 0.0
            _ = gtk_gesture_get_bounding_box_center(vf_gesture(gesture), &x, &y)
            changed(scale, x, y)
        }
        _ = connect("scale-changed", unsafeBitCast(callback, to: GCallback.self), CallbackBox(handler))
    }
}

/// The scroll wheel (or touchpad scrolling): the handler gets the deltas and returns whether it
/// used them.
@MainActor
public final class ScrollController: EventController {
    /// The pointer's last position over the widget, so a wheel zoom can centre on it.
    public private(set) var pointerPosition = (x: 0.0, y: 0.0)

    /// `scrolled` gets the deltas and says whether it used them.
    public init(scrolled: @escaping @MainActor (Double, Double) -> Bool) {
        super.init(owning: raw(gtk_event_controller_scroll_new(GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES)))
        typealias ScrollHandler = @MainActor (Double, Double) -> Bool
        let callback: @convention(c) (UnsafeMutableRawPointer?, Double, Double, UnsafeMutableRawPointer?) -> gboolean = { _, dx, dy, data in
            MainActor.assumeIsolated { (CallbackBox.from(data, as: ScrollHandler.self)?(dx, dy) ?? false) ? 1 : 0 }
        }
        _ = connect("scroll", unsafeBitCast(callback, to: GCallback.self), CallbackBox(scrolled as ScrollHandler))
    }
}

/// Tracks where the pointer is over a widget.
@MainActor
public final class MotionController: EventController {
    /// `moved` gets the pointer position as it enters and moves.
    public init(moved: @escaping @MainActor (Double, Double) -> Void) {
        super.init(owning: raw(gtk_event_controller_motion_new()))
        onPoint("motion", moved)
        onPoint("enter", moved)
    }
}

/// Accepts files dropped from a file manager.
@MainActor
public final class FileDropTarget: EventController {
    /// `dropped` gets the paths of the files dropped.
    public init(dropped: @escaping @MainActor ([String]) -> Void) {
        super.init(owning: raw(vf_file_drop_target_new()))
        typealias DropHandler = @MainActor ([String]) -> Void
        let callback: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<GValue>?, Double, Double, UnsafeMutableRawPointer?) -> gboolean = { _, value, _, _, data in
            guard let value else { return 0 }
            var paths: [String] = []
            var index: UInt32 = 0
            while let file = vf_dropped_file(value, index) {
                if let path = g_file_get_path(file) {
                    paths.append(String(cString: path))
                    g_free(path)
                }
                index += 1
            }
            let found = paths
            MainActor.assumeIsolated { CallbackBox.from(data, as: DropHandler.self)?(found) }
            return found.isEmpty ? 0 : 1
        }
        _ = connect("drop", unsafeBitCast(callback, to: GCallback.self), CallbackBox(dropped as DropHandler))
    }
}

/// A key pressed while the widget or one of its children has the keyboard focus.
public struct KeyPress: Sendable, Equatable {
    /// GDK's name of the key: "Left", "Right", "Home", "End", "space", "Return", "plus", "0"…
    public let name: String
    /// Shift was held.
    public let shift: Bool
    /// Control was held.
    public let control: Bool

    /// A key press as `name` with these modifiers (tests make them too).
    public init(_ name: String, shift: Bool = false, control: Bool = false) {
        self.name = name
        self.shift = shift
        self.control = control
    }
}

/// Keys pressed over a widget; the handler returns whether it used the key (else it goes on to
/// the widget's own bindings and then its parents). `early` sees keys before the focused child
/// does (GTK's capture phase), so a container can take keys its children would use.
@MainActor
public final class KeyController: EventController {
    public init(early: Bool = false, pressed: @escaping @MainActor (KeyPress) -> Bool) {
        super.init(owning: raw(gtk_event_controller_key_new()))
        if early { gtk_event_controller_set_propagation_phase(vf_controller(pointer), GTK_PHASE_CAPTURE) }
        typealias KeyHandler = @MainActor (UInt32, UInt32) -> Bool
        let callback: @convention(c) (UnsafeMutableRawPointer?, guint, guint, GdkModifierType, UnsafeMutableRawPointer?) -> gboolean = {
            _, keyval, _, state, data in
            MainActor.assumeIsolated { (CallbackBox.from(data, as: KeyHandler.self)?(keyval, state.rawValue) ?? false) ? 1 : 0 }
        }
        let handler: KeyHandler = { keyval, state in
            let name = gdk_keyval_name(keyval).map { String(cString: $0) } ?? ""
            return pressed(KeyPress(name, shift: state & GDK_SHIFT_MASK.rawValue != 0, control: state & GDK_CONTROL_MASK.rawValue != 0))
        }
        _ = connect("key-pressed", unsafeBitCast(callback, to: GCallback.self), CallbackBox(handler))
    }
}
