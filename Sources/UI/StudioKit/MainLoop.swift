internal import CAdwaita
internal import CGtk
import Foundation
import ViewfinderCore

/// The application (libadwaita's, so it looks and behaves as a GNOME app and follows the
/// desktop's light or dark style): one window, the GLib main loop, actions with shortcuts.
///
/// GTK owns the main thread through the GLib loop, so Foundation's main run loop — which carries
/// `DispatchQueue.main` and `@MainActor` tasks on Linux — would never run. A GLib timeout
/// services it every few milliseconds while the application runs.
@MainActor
public final class Application: Object {
    /// Makes the application; `id` is its reverse-DNS id (the .desktop file's name and the D-Bus
    /// name a unique application owns). A `unique` application is one per desktop session: a
    /// second start hands its files (or its activation) to the running one over D-Bus and ends;
    /// without a session bus every start is its own. Files reach `run`'s `open` either way.
    /// With no `id` the application stays off D-Bus altogether (GTK then asks no desktop
    /// service anything as it starts, which a portal backend needs: the portal waits for it).
    public init(id: String?, unique: Bool = false) {
        Self.keepNumbersInCLocale
        let flags = G_APPLICATION_HANDLES_OPEN.rawValue | (unique ? 0 : G_APPLICATION_NON_UNIQUE.rawValue)
        guard let app = adw_application_new(id, GApplicationFlags(rawValue: flags)) else {
            preconditionFailure("adw_application_new returned NULL for a valid id")
        }
        super.init(adopting: raw(app))
    }

    /// Whether this start handed its work to an instance already running (a unique application
    /// whose D-Bus name another process owns). Valid once `run` has registered it.
    public var isRemote: Bool {
        g_application_get_is_registered(vf_gapplication(pointer)) != 0 && g_application_get_is_remote(vf_gapplication(pointer)) != 0
    }

    /// True when GTK can open a display (`$DISPLAY` or `$WAYLAND_DISPLAY` reachable).
    public static func canOpenDisplay() -> Bool {
        keepNumbersInCLocale
        return gtk_init_check() != 0
    }

    /// GTK would set every locale category from the environment when it starts; the program
    /// has already done so (`Localization.start`) except for numbers, which stay in the C
    /// locale for the C libraries that parse them (FFmpeg, libvips). Must run before GTK starts.
    private static let keepNumbersInCLocale: Void = { gtk_disable_setlocale() }()

    /// Runs `activate` once GTK is ready (or `open` with `files`, which are local paths),
    /// then the main loop until the last window closes or `quit()` is called. A unique
    /// application that finds itself already running hands the files (or an activation) to it
    /// and returns at once. `service` starts it for D-Bus activation (the desktop's "Open with"):
    /// it waits for the files or activation the desktop sends. Returns the process exit status.
    public func run(files: [String] = [], service: Bool = false, activate: @escaping @MainActor () -> Void,
                    open: @escaping @MainActor ([String]) -> Void = { _ in }) -> Int32 {
        on("activate", activate)
        let opened: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, Int32, UnsafePointer<CChar>?,
                                    UnsafeMutableRawPointer?) -> Void = { _, files, count, _, data in
            guard let files else { return }
            let list = files.assumingMemoryBound(to: OpaquePointer?.self)
            let names = (0..<Int(max(0, count))).compactMap { index -> String? in
                guard let file = list[index] else { return nil }
                let text = g_file_get_path(file) ?? g_file_get_uri(file)
                defer { g_free(text) }
                return text.map { String(cString: $0) }
            }
            MainActor.assumeIsolated { CallbackBox.from(data, as: FilesHandler.self)?(names) }
        }
        _ = connect("open", unsafeBitCast(opened, to: GCallback.self), CallbackBox(open as FilesHandler))
        // GApplication reads its command line: the files as URIs (never taken for options), and
        // its own service flag.
        let arguments = [CommandLine.arguments.first ?? "viewfinder-studio"] + (service ? ["--gapplication-service"] : [])
            + files.map { URL(fileURLWithPath: $0).standardizedFileURL.absoluteString }
        let servicing = Self.serviceFoundation()
        defer { servicing.cancel() }
        var cStrings = arguments.map { strdup($0) }
        defer { cStrings.forEach { free($0) } }
        return cStrings.withUnsafeMutableBufferPointer { buffer in
            g_application_run(vf_gapplication(pointer), Int32(buffer.count), buffer.baseAddress)
        }
    }

    /// Foundation's main run loop serviced from the GLib loop every few milliseconds.
    private static func serviceFoundation() -> Timer {
        Timer.repeating(milliseconds: 4) {
            _ = RunLoop.main.run(mode: .default, before: Date())
            return true
        }
    }

    /// The loop `serve` runs, while it runs.
    private var serviceLoop: OpaquePointer?

    /// Runs the main loop for a D-Bus service whose windows come later, calling `ready` once it
    /// runs, until `quit()`. The application itself is not started (GTK's start-up asks the
    /// desktop's session services over D-Bus, and waits for them, which a portal backend must
    /// not do while the portal starts it): `start()` does that before the first window.
    public func serve(_ ready: @escaping @MainActor () -> Void) {
        guard let loop = g_main_loop_new(nil, 0) else { return }
        serviceLoop = loop
        defer {
            serviceLoop = nil
            g_main_loop_unref(loop)
        }
        let servicing = Self.serviceFoundation()
        defer { servicing.cancel() }
        let first = Timer.repeating(milliseconds: 0) {
            ready()
            return false
        }
        withExtendedLifetime(first) { g_main_loop_run(loop) }
    }

    /// Starts the application (once) so that it can show windows, while `serve` runs.
    public func start() throws(ApplicationError) {
        guard g_application_get_is_registered(vf_gapplication(pointer)) == 0 else { return }
        var error: UnsafeMutablePointer<GError>?
        guard g_application_register(vf_gapplication(pointer), nil, &error) != 0 else {
            let message = error?.pointee.message.map { String(cString: $0) } ?? "unknown error"
            g_clear_error(&error)
            throw ApplicationError(message: message)
        }
    }

    /// Activates the application action `app.<name>`, as its menu entry or shortcut does; false
    /// when there is no such action.
    @discardableResult
    public func activateAction(_ name: String) -> Bool {
        let group = OpaquePointer(pointer)
        guard g_action_group_has_action(group, name) != 0 else { return false }
        g_action_group_activate_action(group, name, nil)
        return true
    }

    /// Ends the main loop (`run`'s or `serve`'s).
    public func quit() {
        if let serviceLoop { return g_main_loop_quit(serviceLoop) }
        g_application_quit(vf_gapplication(pointer))
    }

    /// Adds an application action `app.<name>` bound to `accelerators` (e.g. "<Control>q").
    public func addAction(_ name: String, accelerators: [String] = [], _ handler: @escaping @MainActor () -> Void) {
        guard let action = g_simple_action_new(name, nil) else { return }
        let wrapped = Object(adopting: raw(action))
        let callback: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, _, data in
            MainActor.assumeIsolated { CallbackBox.from(data, as: VoidHandler.self)?() }
        }
        _ = wrapped.connect("activate", unsafeBitCast(callback, to: GCallback.self), CallbackBox(handler as VoidHandler))
        g_action_map_add_action(OpaquePointer(pointer), OpaquePointer(wrapped.pointer))
        setAccelerators(accelerators, for: "app.\(name)")
    }

    private func setAccelerators(_ accelerators: [String], for action: String) {
        var cStrings: [UnsafeMutablePointer<CChar>?] = accelerators.map { strdup($0) } + [nil]
        defer { cStrings.forEach { free($0) } }
        cStrings.withUnsafeMutableBufferPointer { buffer in
            buffer.withMemoryRebound(to: UnsafePointer<CChar>?.self) { constBuffer in
                gtk_application_set_accels_for_action(vf_application(pointer), action, constBuffer.baseAddress)
            }
        }
    }

    /// Whether the dark style shows now: the desktop's preference until the app chooses one
    /// (setting this forces dark or light, as the app's own toggle does). Read and set once the
    /// application runs (libadwaita's style manager exists from then).
    public static var prefersDarkTheme: Bool {
        get { adw_style_manager_get_dark(adw_style_manager_get_default()) != 0 }
        set {
            adw_style_manager_set_color_scheme(adw_style_manager_get_default(),
                                               newValue ? ADW_COLOR_SCHEME_FORCE_DARK : ADW_COLOR_SCHEME_FORCE_LIGHT)
        }
    }

    /// The user's Pictures folder as the desktop names it (XDG user dirs), else ~/Pictures.
    public static var picturesFolder: URL { userFolder(G_USER_DIRECTORY_PICTURES, else: "Pictures") }

    /// The user's Videos folder as the desktop names it (XDG user dirs), else ~/Videos.
    public static var videosFolder: URL { userFolder(G_USER_DIRECTORY_VIDEOS, else: "Videos") }

    private static func userFolder(_ kind: GUserDirectory, else name: String) -> URL {
        if let path = g_get_user_special_dir(kind) {
            return URL(fileURLWithPath: String(cString: path), isDirectory: true)
        }
        return URL(fileURLWithPath: String(cString: g_get_home_dir()), isDirectory: true).appendingPathComponent(name, isDirectory: true)
    }

    /// Lets the desktop's light or dark preference decide again (the default).
    public static func followDesktopStyle() {
        adw_style_manager_set_color_scheme(adw_style_manager_get_default(), ADW_COLOR_SCHEME_DEFAULT)
    }
}

typealias FilesHandler = @MainActor ([String]) -> Void

/// The application could not be started.
public struct ApplicationError: ReadableError, Sendable {
    public let message: String
    public var description: String { message }
}

/// A GLib timeout on the main loop; cancel it, or return false from its handler, to stop it.
@MainActor
public final class Timer {
    private var sourceID: UInt32 = 0

    private init() {}

    /// Calls `handler` every `milliseconds` until it returns false or the timer is cancelled.
    public static func repeating(milliseconds: UInt32, _ handler: @escaping @MainActor () -> Bool) -> Timer {
        let timer = Timer()
        let callback: @convention(c) (UnsafeMutableRawPointer?) -> gboolean = { data in
            MainActor.assumeIsolated { (CallbackBox.from(data, as: BoolHandler.self)?() ?? false) ? 1 : 0 }
        }
        let box = CallbackBox(handler as BoolHandler)
        timer.sourceID = g_timeout_add_full(G_PRIORITY_DEFAULT, milliseconds, callback, box.retainedPointer,
                                            CallbackBox.destroyNotify)
        return timer
    }

    /// Calls `handler` once after `milliseconds`.
    @discardableResult
    public static func once(after milliseconds: UInt32, _ handler: @escaping @MainActor () -> Void) -> Timer {
        repeating(milliseconds: milliseconds) {
            handler()
            return false
        }
    }

    /// Stops the timer (its closure is released by GLib).
    public func cancel() {
        if sourceID != 0, g_main_context_find_source_by_id(nil, sourceID) != nil {
            g_source_remove(sourceID)
        }
        sourceID = 0
    }
}
