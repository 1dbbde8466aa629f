internal import CGtk

/// A GObject this Swift object owns one reference to.
///
/// Widgets start "floating" in GTK; taking ownership sinks that reference, so the wrapper holds
/// exactly one and releases it in `deinit`. A container holds its own reference to a child, so
/// a widget stays alive on screen after its wrapper is gone, and the other way round.
@MainActor
open class Object {
    /// The GObject (a `GObject *` as an untyped pointer; StudioKit casts it where it calls GTK).
    public let pointer: UnsafeMutableRawPointer

    /// Takes ownership of `pointer`: sinks a floating reference or adds one.
    public init(owning pointer: UnsafeMutableRawPointer) {
        self.pointer = pointer
        g_object_ref_sink(pointer)
    }

    /// Takes over a reference the caller already owns (a `*_new` that returns a full reference
    /// to a non-floating object, such as a texture or a list model).
    public init(adopting pointer: UnsafeMutableRawPointer) {
        self.pointer = pointer
    }

    isolated deinit {
        g_object_unref(pointer)
    }

    var object: UnsafeMutablePointer<GObject> { vf_object(pointer) }

    /// Keeps `value` alive exactly as long as this object (for boxes that GTK does not own).
    public func retain(_ value: AnyObject) {
        retained.append(value)
    }

    private var retained: [AnyObject] = []
}
