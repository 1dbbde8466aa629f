internal import CGtk
import Imaging
import ViewfinderCore

/// Children that are not laid out but placed, each by a mapping of its own: Motion moves,
/// turns and tilts widgets in it (`MotionStage` in ViewfinderUI).
///
/// A child is allocated at its natural size; `place(_:mapping:)` then says where each of its
/// points is drawn, a projective mapping so that a child turned in perspective really shows
/// its near edge larger. Children draw in the order they were put or `order(_:after:)` said.
@MainActor
public final class Fixed: Widget {
    /// An empty container.
    public init() {
        super.init(owning: raw(gtk_fixed_new()))
    }

    /// Adds `child` on top of the others, at the container's origin.
    public func put(_ child: Widget) {
        gtk_fixed_put(vf_fixed(pointer), child.widget, 0, 0)
    }

    /// Removes `child`.
    public func remove(_ child: Widget) {
        gtk_fixed_remove(vf_fixed(pointer), child.widget)
    }

    /// Draws `child`'s point p at `mapping(p)` in the container's coordinates.
    public func place(_ child: Widget, mapping: Homography) {
        mapping.m.withUnsafeBufferPointer { entries in
            guard let base = entries.baseAddress, entries.count == 9 else { return }
            vf_fixed_place(vf_fixed(pointer), child.widget, base)
        }
    }

    /// Moves `child` to draw just above `sibling`, or below every other child when nil.
    public func order(_ child: Widget, after sibling: Widget?) {
        gtk_widget_insert_after(child.widget, widget, sibling?.widget)
    }

    /// Whether the window's renderer draws projective (3D) mappings: GTK's GL and Vulkan
    /// renderers do; its Cairo renderer cannot, and paints such a child as a pink box, so a
    /// caller flattens mappings there instead. False until the container is in a window.
    public var rendersProjectiveMappings: Bool { vf_renders_projective(widget) != 0 }
}
