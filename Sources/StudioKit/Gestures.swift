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
