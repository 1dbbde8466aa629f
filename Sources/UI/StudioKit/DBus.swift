internal import CGtk
import Foundation
import ViewfinderCore

/// A D-Bus value (a GVariant this wrapper holds one reference to): read what a caller sent,
/// build what to answer. Values never change once made.
public final class Variant: @unchecked Sendable {
    let raw: OpaquePointer

    /// Takes a reference to `value`, sinking a floating one (what `g_variant_new_*` return).
    init(_ value: OpaquePointer) {
        raw = g_variant_ref_sink(value)
    }

    /// Takes over a full reference the caller owns (what `*_finish` calls return).
    init(adopting value: OpaquePointer) {
        raw = value
    }

    deinit {
        g_variant_unref(raw)
    }

    /// The D-Bus type signature ("s", "a{sv}", "(sa(us))", …).
    public var type: String { String(cString: g_variant_get_type_string(raw)) }

    /// A string, object path or signature; nil for any other type.
    public var string: String? {
        guard ["s", "o", "g"].contains(type), let text = g_variant_get_string(raw, nil) else { return nil }
        return String(cString: text)
    }

    /// A boolean; nil for any other type.
    public var bool: Bool? { type == "b" ? g_variant_get_boolean(raw) != 0 : nil }

    /// An unsigned 32-bit integer; nil for any other type.
    public var uint32: UInt32? { type == "u" ? g_variant_get_uint32(raw) : nil }

    /// The bytes of an `ay` (a path as the portals send it, often ending in a NUL); nil for any
    /// other type.
    public var bytes: [UInt8]? {
        guard type == "ay" else { return nil }
        var count = 0
        guard let data = g_variant_get_fixed_array(raw, &count, 1) else { return [] }
        return Array(UnsafeRawBufferPointer(start: data, count: count))
    }

    /// The items of an array, tuple, dictionary entry or boxed variant; empty for a plain value.
    public var children: [Variant] {
        guard g_variant_is_container(raw) != 0 else { return [] }
        return (0..<g_variant_n_children(raw)).compactMap { index in
            g_variant_get_child_value(raw, index).map { Variant(adopting: $0) }
        }
    }

    /// The value under `key` in an `a{sv}` dictionary (unboxed), nil when absent or when this is
    /// no such dictionary.
    public subscript(key: String) -> Variant? {
        guard type == "a{sv}", let value = g_variant_lookup_value(raw, key, nil) else { return nil }
        return Variant(adopting: value)
    }

    /// The value as D-Bus tools print it (`gdbus`'s text form), for logs and errors.
    public var text: String {
        guard let printed = g_variant_print(raw, 1) else { return "" }
        defer { g_free(printed) }
        return String(cString: printed)
    }

    // MARK: - Making values

    /// A string.
    public convenience init(_ string: String) { self.init(g_variant_new_string(string)) }

    /// A boolean.
    public convenience init(_ bool: Bool) { self.init(g_variant_new_boolean(bool ? 1 : 0)) }

    /// An unsigned 32-bit integer.
    public convenience init(_ number: UInt32) { self.init(g_variant_new_uint32(number)) }

    /// An array of strings (`as`).
    public convenience init(strings: [String]) {
        var cStrings: [UnsafePointer<CChar>?] = strings.map { UnsafePointer(strdup($0)) }
        defer { cStrings.forEach { free(UnsafeMutablePointer(mutating: $0)) } }
        self.init(g_variant_new_strv(&cStrings, cStrings.count))
    }

    /// A tuple of `items` (a method's arguments or its reply).
    public convenience init(tuple items: [Variant]) {
        var raws: [OpaquePointer?] = items.map(\.raw)
        self.init(g_variant_new_tuple(&raws, gsize(raws.count)))
    }

    /// An `a{sv}` dictionary of `entries`, in their order.
    public convenience init(dictionary entries: [(String, Variant)]) {
        var raws: [OpaquePointer?] = entries.map { key, value in
            g_variant_new_dict_entry(g_variant_new_string(key), g_variant_new_variant(value.raw))
        }
        let entryType = g_variant_type_new("{sv}")
        defer { g_variant_type_free(entryType) }
        self.init(g_variant_new_array(entryType, &raws, gsize(raws.count)))
    }

    /// Reads a value in `gdbus`'s text form with the type signature `type` (for tests and
    /// fixed replies); nil when the text is not such a value.
    public convenience init?(parsing text: String, type: String) {
        // g_variant_type_new asserts a valid signature: check it first.
        guard g_variant_type_string_is_valid(type) != 0 else { return nil }
        let variantType = g_variant_type_new(type)
        defer { g_variant_type_free(variantType) }
        var error: UnsafeMutablePointer<GError>?
        guard let value = g_variant_parse(variantType, text, nil, nil, &error) else {
            g_clear_error(&error)
            return nil
        }
        self.init(adopting: value)
    }
}

/// A D-Bus call this process failed to make or that the other side answered with an error.
public struct DBusError: ReadableError, Sendable {
    /// The error's D-Bus name when the other side gave one ("org.freedesktop.DBus.Error.…").
    public let name: String?
    public let message: String
    public var description: String { message }

    /// Takes over and frees `error`.
    init(consuming error: UnsafeMutablePointer<GError>?) {
        if let error {
            let remote = g_dbus_error_get_remote_error(error)
            name = remote.map { String(cString: $0) }
            g_free(remote)
            g_dbus_error_strip_remote_error(error)
            message = error.pointee.message.map { String(cString: $0) } ?? "unknown D-Bus error"
            g_error_free(error)
        } else {
            name = nil
            message = "unknown D-Bus error"
        }
    }
}

/// One method call this process received, to be answered once: with a value, an error, or by
/// relaying it to another service. One never answered is answered with an error when it goes.
@MainActor
public final class DBusMethodCall {
    /// Who called (a unique bus name).
    public let sender: String
    public let path: String
    public let interface: String
    public let method: String
    /// The arguments as a tuple.
    public let parameters: Variant
    private var invocation: OpaquePointer?

    init(invocation: OpaquePointer, sender: String, path: String, interface: String, method: String, parameters: Variant) {
        self.invocation = invocation
        self.sender = sender
        self.path = path
        self.interface = interface
        self.method = method
        self.parameters = parameters
    }

    isolated deinit {
        fail("org.freedesktop.DBus.Error.Failed", "the call was dropped without an answer")
    }

    /// Whether it was answered already.
    public var isAnswered: Bool { invocation == nil }

    /// Answers with `value` (a tuple of the method's out arguments).
    public func reply(_ value: Variant) {
        guard let invocation else { return }
        self.invocation = nil
        g_dbus_method_invocation_return_value(invocation, value.raw)
    }

    /// Answers with the D-Bus error `name` saying `message`.
    public func fail(_ name: String, _ message: String) {
        guard let invocation else { return }
        self.invocation = nil
        g_dbus_method_invocation_return_dbus_error(invocation, name, message)
    }

    /// Makes the same call (same path, interface, method and arguments) to `destination` on
    /// `connection` with no time limit, and answers with whatever it answers, its errors
    /// included; `then` is told when the answer came.
    public func relay(to destination: String, on connection: DBusConnection, then: @escaping @MainActor () -> Void = {}) {
        connection.call(destination: destination, path: path, interface: interface, method: method, parameters: parameters) {
            [self] result in
            switch result {
            case .success(let value): self.reply(value)
            case .failure(let error): self.fail(error.name ?? "org.freedesktop.DBus.Error.Failed", error.message)
            }
            then()
        }
    }
}

/// This process's connection to the session bus: objects it serves, names it owns, calls it
/// makes. Method calls arrive on the main thread's main loop.
@MainActor
public final class DBusConnection {
    let raw: OpaquePointer

    private init(adopting connection: OpaquePointer) {
        raw = connection
    }

    isolated deinit {
        g_object_unref(UnsafeMutableRawPointer(raw))
    }

    /// The session bus (`$DBUS_SESSION_BUS_ADDRESS`); throws when there is none. The process
    /// ends when the bus goes away, as a desktop service should.
    public static func session() throws(DBusError) -> DBusConnection {
        var error: UnsafeMutablePointer<GError>?
        guard let connection = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else { throw DBusError(consuming: error) }
        return DBusConnection(adopting: connection)
    }

    /// Whether the bus went away (then every name it owned is lost with it).
    public var isClosed: Bool { g_dbus_connection_is_closed(raw) != 0 }

    /// A served object: unexported when `unexport` is called (or never, for the life of the
    /// process).
    public final class Export {
        fileprivate let id: UInt32
        fileprivate weak var connection: DBusConnection?
        fileprivate init(id: UInt32, connection: DBusConnection) {
            self.id = id
            self.connection = connection
        }

        /// Stops serving the object; calls to it then get D-Bus's "unknown object" error.
        @MainActor public func unexport() {
            guard let connection else { return }
            g_dbus_connection_unregister_object(connection.raw, id)
            self.connection = nil
        }
    }

    private typealias CallHandler = @MainActor (DBusMethodCall) -> Void

    /// The one table of C functions every served object uses (GDBus keeps the pointer).
    nonisolated(unsafe) private static let table: UnsafeMutablePointer<GDBusInterfaceVTable> = {
        let table = UnsafeMutablePointer<GDBusInterfaceVTable>.allocate(capacity: 1)
        table.initialize(to: GDBusInterfaceVTable())
        table.pointee.method_call = { _, sender, path, interface, method, parameters, invocation, data in
            guard let invocation, let parameters else { return }
            // GDBus hands over one reference to the invocation, which the answer uses up; it
            // calls on the thread that exported the object, the main one.
            nonisolated(unsafe) let handed = invocation, box = data
            let names = [sender, path, interface, method].map { $0.map { String(cString: $0) } ?? "" }
            let arguments = Variant(parameters)
            MainActor.assumeIsolated {
                let call = DBusMethodCall(invocation: handed, sender: names[0], path: names[1], interface: names[2],
                                          method: names[3], parameters: arguments)
                // With no property handler GDBus hands the properties interface over too: the
                // objects served here have no properties.
                if call.interface == "org.freedesktop.DBus.Properties" {
                    if call.method == "GetAll" { return call.reply(Variant(tuple: [Variant(dictionary: [])])) }
                    return call.fail("org.freedesktop.DBus.Error.UnknownProperty", "no such property")
                }
                CallbackBox.from(box, as: CallHandler.self)?(call)
            }
        }
        return table
    }()

    /// Serves the interface `interface` (described by introspection `xml`) at `path`: every call
    /// to one of its methods goes to `handler`, which answers it (now or later). Throws when the
    /// XML does not describe the interface or another object is served there.
    @discardableResult
    public func export(path: String, interface: String, xml: String,
                       _ handler: @escaping @MainActor (DBusMethodCall) -> Void) throws(DBusError) -> Export {
        var error: UnsafeMutablePointer<GError>?
        guard let node = g_dbus_node_info_new_for_xml(xml, &error) else { throw DBusError(consuming: error) }
        defer { g_dbus_node_info_unref(node) }
        guard let info = g_dbus_node_info_lookup_interface(node, interface) else {
            throw DBusError(consuming: nil)
        }
        let box = CallbackBox(handler as CallHandler)
        let id = g_dbus_connection_register_object(raw, path, info, Self.table, box.retainedPointer, CallbackBox.destroyNotify, &error)
        guard id != 0 else { throw DBusError(consuming: error) }
        return Export(id: id, connection: self)
    }

    private typealias OwnerHandler = @MainActor (Bool) -> Void

    /// Asks for the well-known name `name`; `changed` is told `true` when this process owns it and
    /// `false` when it cannot have it or loses it. The objects it serves should be exported
    /// first: a caller that started this process through D-Bus activation is answered at once.
    public func own(_ name: String, replacing: Bool = false, _ changed: @escaping @MainActor (Bool) -> Void) {
        let acquired: GBusNameAcquiredCallback = { _, _, data in
            MainActor.assumeIsolated { CallbackBox.from(data, as: OwnerHandler.self)?(true) }
        }
        let lost: GBusNameLostCallback = { _, _, data in
            MainActor.assumeIsolated { CallbackBox.from(data, as: OwnerHandler.self)?(false) }
        }
        let flags = replacing ? G_BUS_NAME_OWNER_FLAGS_REPLACE : G_BUS_NAME_OWNER_FLAGS_NONE
        let box = CallbackBox(changed as OwnerHandler)
        _ = g_bus_own_name_on_connection(raw, name, flags, acquired, lost, box.retainedPointer, CallbackBox.destroyNotify)
    }

    private typealias ReplyHandler = @MainActor (Result<Variant, DBusError>) -> Void

    /// Calls `method` of `interface` on the object `path` of `destination` with `parameters` (a
    /// tuple), waiting as long as it takes (a file chooser waits for its user); `completion` gets
    /// the reply tuple or the error.
    public func call(destination: String, path: String, interface: String, method: String, parameters: Variant,
                     completion: @escaping @MainActor (Result<Variant, DBusError>) -> Void) {
        let done: GAsyncReadyCallback = { source, result, data in
            var error: UnsafeMutablePointer<GError>?
            let reply = g_dbus_connection_call_finish(OpaquePointer(source), result, &error)
            let outcome: Result<Variant, DBusError> = reply.map { .success(Variant(adopting: $0)) } ?? .failure(DBusError(consuming: error))
            guard let data else { return }
            let box = Unmanaged<CallbackBox>.fromOpaque(data).takeRetainedValue()
            MainActor.assumeIsolated { (box.handler as? ReplyHandler)?(outcome) }
        }
        g_dbus_connection_call(raw, destination, path, interface, method, parameters.raw, nil, G_DBUS_CALL_FLAGS_NONE,
                               Int32.max, nil, done, CallbackBox(completion as ReplyHandler).retainedPointer)
    }
}
