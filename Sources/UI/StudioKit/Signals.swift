internal import CGtk

/// Holds a Swift closure for a C callback. GTK gets it retained (`passRetained`) and gives it back
/// through `release`, which it calls when the handler is disconnected or the object finalized.
final class CallbackBox {
    let handler: Any
    init(_ handler: Any) { self.handler = handler }

    /// The retained pointer GTK carries as user data.
    var retainedPointer: UnsafeMutableRawPointer { Unmanaged.passRetained(self).toOpaque() }

    static func from<Handler>(_ data: UnsafeMutableRawPointer?, as type: Handler.Type) -> Handler? {
        guard let data else { return nil }
        return Unmanaged<CallbackBox>.fromOpaque(data).takeUnretainedValue().handler as? Handler
    }

    /// The destroy notify for GClosure-based connections.
    static let closureNotify: GClosureNotify = { data, _ in
        guard let data else { return }
        Unmanaged<CallbackBox>.fromOpaque(data).release()
    }

    /// The destroy notify for GDestroyNotify-based registrations (draw funcs, timeouts, ticks).
    static let destroyNotify: GDestroyNotify = { data in
        guard let data else { return }
        Unmanaged<CallbackBox>.fromOpaque(data).release()
    }
}

/// An untyped pointer to any GTK object, whichever way Swift imported its type.
func raw(_ pointer: OpaquePointer) -> UnsafeMutableRawPointer { UnsafeMutableRawPointer(pointer) }
func raw<T>(_ pointer: UnsafeMutablePointer<T>) -> UnsafeMutableRawPointer { UnsafeMutableRawPointer(pointer) }

typealias VoidHandler = @MainActor () -> Void
typealias PointHandler = @MainActor (Double, Double) -> Void
typealias BoolHandler = @MainActor () -> Bool

extension Object {
    /// Connects a handler with the C signature `(instance, data)` (e.g. "clicked", "destroy").
    @discardableResult
    public func on(_ signal: String, _ handler: @escaping @MainActor () -> Void) -> UInt {
        let callback: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, data in
            MainActor.assumeIsolated { CallbackBox.from(data, as: VoidHandler.self)?() }
        }
        return connect(signal, unsafeBitCast(callback, to: GCallback.self), CallbackBox(handler as VoidHandler))
    }

    /// Connects a handler with the C signature `(instance, data) -> gboolean` (e.g. "close-request").
    @discardableResult
    public func onReturning(_ signal: String, _ handler: @escaping @MainActor () -> Bool) -> UInt {
        let callback: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> gboolean = { _, data in
            MainActor.assumeIsolated { (CallbackBox.from(data, as: BoolHandler.self)?() ?? false) ? 1 : 0 }
        }
        return connect(signal, unsafeBitCast(callback, to: GCallback.self), CallbackBox(handler as BoolHandler))
    }

    /// Calls `handler` whenever the GObject property `property` changes ("notify::PROPERTY",
    /// whose C signature is `(instance, pspec, data)`).
    @discardableResult
    public func onNotify(_ property: String, _ handler: @escaping @MainActor () -> Void) -> UInt {
        let callback: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, _, data in
            MainActor.assumeIsolated { CallbackBox.from(data, as: VoidHandler.self)?() }
        }
        return connect("notify::\(property)", unsafeBitCast(callback, to: GCallback.self), CallbackBox(handler as VoidHandler))
    }

    /// Connects a handler with the C signature `(instance, double, double, data)` (drags, motion).
    @discardableResult
    public func onPoint(_ signal: String, _ handler: @escaping @MainActor (Double, Double) -> Void) -> UInt {
        let callback: @convention(c) (UnsafeMutableRawPointer?, Double, Double, UnsafeMutableRawPointer?) -> Void = { _, x, y, data in
            MainActor.assumeIsolated { CallbackBox.from(data, as: PointHandler.self)?(x, y) }
        }
        return connect(signal, unsafeBitCast(callback, to: GCallback.self), CallbackBox(handler as PointHandler))
    }

    func connect(_ signal: String, _ callback: GCallback, _ box: CallbackBox) -> UInt {
        UInt(vf_signal_connect(pointer, signal, callback, box.retainedPointer, CallbackBox.closureNotify))
    }

    /// Disconnects a handler `on…` returned; its closure is released.
    public func disconnect(_ handlerID: UInt) {
        g_signal_handler_disconnect(pointer, gulong(handlerID))
    }
}
