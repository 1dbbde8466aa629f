import Capture
import Foundation
import StudioKit
import ViewfinderCore

/// `viewfinder-studio --portal`: a backend of the XDG desktop portal's file chooser
/// (`org.freedesktop.impl.portal.FileChooser`). `OpenFile` requests that ask only for photos
/// and videos Viewfinder reads are answered with its media picker (`Studio.openPortalPick`);
/// every other request — other files, a folder, `SaveFile`, `SaveFiles` — is relayed unchanged
/// to the desktop's own backend, whose answer goes back as it came, so installing this loses
/// nothing. Media requests are shown one at a time, in the order they came.
@MainActor
final class FileChooserPortal {
    static let busName = "org.freedesktop.impl.portal.desktop.viewfinder"
    static let objectPath = "/org/freedesktop/portal/desktop"
    static let interface = "org.freedesktop.impl.portal.FileChooser"
    static let requestInterface = "org.freedesktop.impl.portal.Request"
    /// The `.portal` file's own name's stem, which xdg-desktop-portal's `portals.conf` and
    /// `UseIn=` name it by.
    static let portalName = "viewfinder"

    /// Portal responses: chosen, cancelled by the user, ended another way.
    enum Response: UInt32 {
        case chosen = 0, cancelled = 1, other = 2
    }

    /// A media request waiting for, or shown in, the picker.
    final class MediaPick {
        let call: DBusMethodCall
        /// The request object's path (`handle`), where the portal sends `Close`.
        let handle: String
        /// The title the program asked for ("Open Image"), or empty.
        let title: String
        let request: FileChooserRequest
        fileprivate var requestObject: DBusConnection.Export?

        fileprivate init(call: DBusMethodCall, handle: String, title: String, request: FileChooserRequest) {
            self.call = call
            self.handle = handle
            self.title = title
            self.request = request
        }
    }

    private let connection: DBusConnection
    /// The desktop's own file chooser backend (a bus name), which every other request goes to.
    let desktopChooser: String?
    private var waiting: [MediaPick] = []
    /// The request the picker shows now.
    private(set) var showing: MediaPick?
    /// Opens the picker for a media request; `finish` must follow, once.
    var present: (MediaPick) -> Void = { _ in }
    /// Takes the picker away (the portal closed the request).
    var dismiss: () -> Void = {}
    /// Told what happened, for the app's events: "media" or "forwarded", with the method.
    var onRequest: (String, String) -> Void = { _, _ in }

    init(connection: DBusConnection, desktopChooser: String?) {
        self.connection = connection
        self.desktopChooser = desktopChooser
    }

    /// Serves the interface, then owns the bus name (in that order: a caller whose request
    /// started this process through D-Bus activation is answered at once); `lost` is told when
    /// the name cannot be had or is taken away, with whether the bus itself went away.
    func start(lost: @escaping @MainActor (_ busClosed: Bool) -> Void) throws(DBusError) {
        try connection.export(path: Self.objectPath, interface: Self.interface, xml: Self.introspection) { [unowned self] call in
            self.handle(call)
        }
        connection.own(Self.busName) { [unowned self] owned in if !owned { lost(self.connection.isClosed) } }
    }

    private func handle(_ call: DBusMethodCall) {
        let arguments = call.parameters.children
        guard arguments.count == 5, let handle = arguments[0].string else {
            return call.fail("org.freedesktop.DBus.Error.InvalidArgs", "expected (o handle, s app_id, s parent_window, s title, a{sv} options)")
        }
        if call.method == "OpenFile" {
            let request = Self.request(from: arguments[4])
            if request.mediaKinds != nil {
                onRequest("media", call.method)
                let pick = MediaPick(call: call, handle: handle, title: arguments[3].string ?? "", request: request)
                pick.requestObject = try? connection.export(path: handle, interface: Self.requestInterface, xml: Self.requestIntrospection) {
                    [unowned self, unowned pick] close in
                    close.reply(Variant(tuple: []))
                    self.close(pick)
                }
                waiting.append(pick)
                return showNext()
            }
        }
        forward(call, handle: handle)
    }

    /// Relays `call` to the desktop's chooser, and the portal's `Close` of its request too.
    private func forward(_ call: DBusMethodCall, handle: String) {
        guard let desktopChooser else {
            return call.fail("org.freedesktop.DBus.Error.NotSupported",
                             "Viewfinder's file chooser answers only photo and video requests, and no other file chooser backend is installed")
        }
        onRequest("forwarded", call.method)
        let closer = try? connection.export(path: handle, interface: Self.requestInterface, xml: Self.requestIntrospection) {
            [unowned self] close in
            close.relay(to: desktopChooser, on: self.connection)
        }
        call.relay(to: desktopChooser, on: connection) { closer?.unexport() }
    }

    private func showNext() {
        guard showing == nil, !waiting.isEmpty else { return }
        let next = waiting.removeFirst()
        showing = next
        present(next)
    }

    /// Answers the request shown with `response` and the files chosen, and shows the next.
    func finish(_ response: Response, files: [URL] = []) {
        guard let pick = showing else { return }
        showing = nil
        answer(pick, response, files: files)
        showNext()
    }

    private func answer(_ pick: MediaPick, _ response: Response, files: [URL]) {
        pick.requestObject?.unexport()
        pick.requestObject = nil
        let results: [(String, Variant)] = response == .chosen ? [("uris", Variant(strings: files.map(\.absoluteString)))] : []
        pick.call.reply(Variant(tuple: [Variant(response.rawValue), Variant(dictionary: results)]))
    }

    /// The portal closed `pick` (its program went away or gave up): a waiting one is dropped,
    /// the one shown taken off the screen.
    private func close(_ pick: MediaPick) {
        if let index = waiting.firstIndex(where: { $0 === pick }) {
            waiting.remove(at: index)
            return answer(pick, .other, files: [])
        }
        guard showing === pick else { return }
        dismiss()
        finish(.other)
    }

    /// What an `OpenFile` call's options ask for (unknown keys are ignored, as the portal
    /// specification says; a malformed filter is left out).
    static func request(from options: Variant) -> FileChooserRequest {
        FileChooserRequest(filters: (options["filters"]?.children ?? []).compactMap(filter),
                           currentFilter: options["current_filter"].flatMap(filter),
                           multiple: options["multiple"]?.bool ?? false, directory: options["directory"]?.bool ?? false)
    }

    /// A `(sa(us))` filter: its name and its rules, 0 a glob and 1 a MIME type.
    private static func filter(_ value: Variant) -> FileChooserRequest.Filter? {
        let parts = value.children
        guard value.type == "(sa(us))", parts.count == 2, let name = parts[0].string else { return nil }
        let rules: [FileChooserRequest.Rule] = parts[1].children.compactMap { rule in
            let fields = rule.children
            guard fields.count == 2, let kind = fields[0].uint32, let text = fields[1].string else { return nil }
            return kind == 0 ? .glob(text) : kind == 1 ? .mimeType(text) : nil
        }
        return FileChooserRequest.Filter(name: name, rules: rules)
    }

    // MARK: - The desktop's own chooser

    /// The backend xdg-desktop-portal would choose for the file chooser if this one were not
    /// installed, by its own rule (version 1.16): the `.portal` files in
    /// `$XDG_DESKTOP_PORTAL_DIR` (else /usr/share/xdg-desktop-portal/portals) that offer the
    /// interface, for the first desktop of `$XDG_CURRENT_DESKTOP` one of them is used in (by file
    /// name), else the first by file name. `$VIEWFINDER_PORTAL_FORWARD` names a bus name instead.
    static func desktopChooser(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let named = environment["VIEWFINDER_PORTAL_FORWARD"], !named.isEmpty { return named }
        let folder = URL(fileURLWithPath: environment["XDG_DESKTOP_PORTAL_DIR"].flatMap { $0.isEmpty ? nil : $0 }
                         ?? "/usr/share/xdg-desktop-portal/portals")
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".portal") }.sorted()
        let portals: [(busName: String, useIn: [String])] = names.compactMap { name in
            guard let text = try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8) else { return nil }
            var fields: [String: String] = [:]
            for line in text.split(separator: "\n") {
                guard let equals = line.firstIndex(of: "=") else { continue }
                fields[line[..<equals].trimmingCharacters(in: .whitespaces)] = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            }
            let list = { (key: String) in (fields[key] ?? "").split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) } }
            guard let busName = fields["DBusName"], busName != Self.busName, list("Interfaces").contains(interface) else { return nil }
            return (busName, list("UseIn").map { $0.lowercased() })
        }
        for desktop in (environment["XDG_CURRENT_DESKTOP"] ?? "").split(separator: ":").map({ $0.lowercased() }) {
            if let used = portals.first(where: { $0.useIn.contains(desktop) }) { return used.busName }
        }
        return portals.first?.busName
    }

    // MARK: - Introspection

    private static let introspection = """
        <node>
          <interface name="org.freedesktop.impl.portal.FileChooser">
            \(["OpenFile", "SaveFile", "SaveFiles"].map { method in """
            <method name="\(method)">
              <arg type="o" name="handle" direction="in"/>
              <arg type="s" name="app_id" direction="in"/>
              <arg type="s" name="parent_window" direction="in"/>
              <arg type="s" name="title" direction="in"/>
              <arg type="a{sv}" name="options" direction="in"/>
              <arg type="u" name="response" direction="out"/>
              <arg type="a{sv}" name="results" direction="out"/>
            </method>
            """ }.joined(separator: "\n"))
          </interface>
        </node>
        """

    private static let requestIntrospection = """
        <node>
          <interface name="org.freedesktop.impl.portal.Request">
            <method name="Close"/>
          </interface>
        </node>
        """
}
