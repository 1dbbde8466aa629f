import Foundation
import Testing

/// A desktop's media session of a test's own: a private session bus, a PipeWire daemon with
/// WirePlumber and its Pulse server, and on request the Camera portal (xdg-desktop-portal with
/// its GTK backend on an Xvfb display of its own) — all in one runtime folder, one process
/// group, ended together by `stop()`. Cameras are published into it with GStreamer's
/// pipewiresink, as a libcamera or V4L2 camera shows in PipeWire: a Video/Source node.
public final class PipeWireSession: @unchecked Sendable {
    /// The folder that is XDG_RUNTIME_DIR (and every other XDG folder) for the session.
    public let folder: URL
    private let group: RunningProcess
    private var groupID: pid_t = 0
    private var publishers: [(RunningProcess, pid_t)] = []

    /// What a program must be given to live in the session.
    public var environment: [String: String] { Self.environment(in: folder) }

    static func environment(in folder: URL) -> [String: String] {
        [
            "XDG_RUNTIME_DIR": folder.path, "PIPEWIRE_RUNTIME_DIR": folder.path,
            "DBUS_SESSION_BUS_ADDRESS": "unix:path=\(folder.path)/bus",
            "XDG_CONFIG_HOME": folder.path + "/config", "XDG_STATE_HOME": folder.path + "/state",
            "XDG_DATA_HOME": folder.path + "/data", "PULSE_SERVER": "unix:\(folder.path)/pulse/native",
        ]
    }

    /// `environment` as env(1) takes it.
    public var environmentArguments: [String] { environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" } }

    /// The programs a session needs, by what provides them on Debian.
    static let tools = [
        ("pipewire", "pipewire-bin"), ("wireplumber", "wireplumber"), ("pipewire-pulse", "pipewire-pulse"),
        ("gst-launch-1.0", "gstreamer1.0-tools"), ("pw-dump", "pipewire-bin"), ("dbus-daemon", "dbus-daemon"),
        ("gdbus", "libglib2.0-bin"),
    ]
    static let portalTools = [
        ("/usr/libexec/xdg-desktop-portal", "xdg-desktop-portal"), ("/usr/libexec/xdg-desktop-portal-gtk", "xdg-desktop-portal-gtk"),
        ("Xvfb", "xvfb"),
    ]

    /// Which of `tools` is missing, as "program (Debian package)"; empty when none is.
    static func missing(_ tools: [(String, String)]) -> [String] {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(String.init)
        return tools.filter { tool, _ in
            tool.hasPrefix("/") ? !FileManager.default.isExecutableFile(atPath: tool)
                : !paths.contains { FileManager.default.isExecutableFile(atPath: $0 + "/" + tool) }
        }.map { "\($0.0) (\($0.1))" }
    }

    /// Starts the session (with the Camera portal when `portal`); waits until PipeWire's and
    /// the Pulse server's sockets are there. A missing program fails the test with its package.
    public init(portal: Bool = false) throws {
        let absent = Self.missing(Self.tools + (portal ? Self.portalTools : []))
        try #require(absent.isEmpty, "missing for the PipeWire tests: \(absent.joined(separator: ", ")); run scripts/install-deps")
        folder = URL(fileURLWithPath: "/tmp/vf-pw-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let runtime = folder.path
        let exports = Self.environment(in: folder).map { "export \($0.key)='\($0.value)'" }.sorted().joined(separator: "\n")
        // Xvfb first: the portal's GTK backend, started by the bus, finds its display in the
        // bus's environment.
        let display = portal ? """
            Xvfb -displayfd 3 -nolisten tcp 3>\(runtime)/display >/dev/null 2>&1 </dev/null &
            for _ in $(seq 200); do [ -s \(runtime)/display ] && break; sleep 0.05; done
            export DISPLAY=:$(cat \(runtime)/display)
            """ : "unset DISPLAY WAYLAND_DISPLAY"
        let portalStart = portal ? """
            /usr/libexec/xdg-desktop-portal >\(runtime)/portal.log 2>&1 </dev/null &
            """ : ""
        let script = """
            echo $$ >\(runtime)/group
            \(exports)
            mkdir -p \(runtime)/config \(runtime)/state \(runtime)/data
            \(display)
            \(PrivateBus.start(socket: runtime + "/bus"))
            pipewire >\(runtime)/pipewire.log 2>&1 </dev/null &
            for _ in $(seq 200); do [ -S \(runtime)/pipewire-0 ] && break; sleep 0.05; done
            wireplumber >\(runtime)/wireplumber.log 2>&1 </dev/null &
            pipewire-pulse >\(runtime)/pulse.log 2>&1 </dev/null &
            \(portalStart)
            touch \(runtime)/started
            wait
            """
        // setsid: the script and everything it starts form one process group, ended at once; the
        // script writes the group's id (its own) first.
        group = try Subprocess.start(URL(fileURLWithPath: "/usr/bin/setsid"), ["-w", "bash", "-c", script])
        groupID = try Self.groupID(in: folder.appendingPathComponent("group"))
        try waitFor("the PipeWire daemon, WirePlumber and the Pulse server to start", timeout: 20) {
            FileManager.default.fileExists(atPath: runtime + "/started")
                && FileManager.default.fileExists(atPath: runtime + "/pipewire-0")
                && FileManager.default.fileExists(atPath: runtime + "/pulse/native")
        }
        if portal {
            try waitFor("the Camera portal to answer on the session bus", timeout: 30) {
                let found = try? run("gdbus", ["introspect", "--session", "--dest", "org.freedesktop.portal.Desktop",
                                               "--object-path", "/org/freedesktop/portal/desktop"])
                return found?.stdout.contains("org.freedesktop.portal.Camera") == true
            }
        }
    }

    deinit { stop() }

    /// Ends every program of the session and its cameras (their process groups) and removes
    /// its folder.
    public func stop() {
        for (process, id) in publishers {
            kill(-id, SIGKILL)
            _ = try? process.finish(timeout: 10)
        }
        publishers = []
        if groupID > 0 { kill(-groupID, SIGKILL) }
        groupID = 0
        _ = try? group.finish(timeout: 10)
        // The document portal, which the portal starts, mounts a FUSE folder in the runtime
        // folder; its end leaves the mount behind.
        let documents = folder.appendingPathComponent("doc")
        if (try? String(contentsOfFile: "/proc/mounts", encoding: .utf8))?.contains(" \(documents.path) ") == true {
            _ = try? Subprocess.run("fusermount3", ["-u", "-z", documents.path], timeout: 10)
        }
        try? FileManager.default.removeItem(at: folder)
    }

    /// Runs a program on PATH inside the session.
    public func run(_ name: String, _ arguments: [String], timeout: TimeInterval = 30) throws -> RunResult {
        try Subprocess.run(URL(fileURLWithPath: "/usr/bin/env"), environmentArguments + [name] + arguments, timeout: timeout)
    }

    /// Runs the built `viewfinder` inside the session, with `extra` in its environment.
    public func viewfinder(_ arguments: [String], extra: [String: String] = [:], timeout: TimeInterval = 120) throws -> RunResult {
        let more = extra.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        return try Subprocess.run(URL(fileURLWithPath: "/usr/bin/env"), environmentArguments + more + [TestPaths.tool.path] + arguments,
                                  timeout: timeout)
    }

    /// Publishes a camera: a GStreamer pipeline `source` (a video source and its caps) into
    /// pipewiresink as a Video/Source node named `name`, with `properties` added to the node's;
    /// returns once PipeWire lists the node.
    public func publishCamera(name: String, description: String, source: String, properties: [String] = []) throws {
        // gst-launch joins its arguments and parses them again: a value with spaces is quoted
        // for it (and the whole property for the shell).
        let props = (["media.class=Video/Source", "node.name=\(name)", "node.description=\\\"\(description)\\\"", "media.role=Camera"]
            + properties).joined(separator: ",")
        try publish("\(source) ! pipewiresink mode=provide 'stream-properties=\"props,\(props)\"'", node: name)
    }

    /// Publishes a microphone: a GStreamer audio `source` into pipewiresink as an Audio/Source
    /// node named `name` (the Pulse server lists it as a source).
    public func publishMicrophone(name: String, source: String) throws {
        try publish("\(source) ! pipewiresink mode=provide 'stream-properties=\"props,media.class=Audio/Source,node.name=\(name),node.description=\(name)\"'",
                    node: name)
    }

    /// Starts `gst-launch-1.0` with `pipeline` in a process group of its own and waits until
    /// PipeWire lists `node`.
    public func publish(_ pipeline: String, node: String) throws {
        let exports = environment.map { "export \($0.key)='\($0.value)'" }.sorted().joined(separator: "\n")
        let file = folder.appendingPathComponent("publisher-\(node)")
        let log = folder.appendingPathComponent("publisher-\(node).log")
        let started = try Subprocess.start(URL(fileURLWithPath: "/usr/bin/setsid"),
                                           ["-w", "bash", "-c", "echo $$ >\(file.path)\n\(exports)\nexec gst-launch-1.0 \(pipeline) </dev/null >\(log.path) 2>&1"])
        publishers.append((started, try Self.groupID(in: file)))
        // Listed, and its pipeline playing (a consumer that comes earlier may get no picture).
        try waitFor("PipeWire to list the node \(node) and its pipeline to play (gst-launch-1.0 \(pipeline))", timeout: 30) {
            let said = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            guard said.contains("Setting pipeline to PLAYING") else { return false }
            return try nodeNames().contains(node)
        }
    }

    /// The names of the nodes PipeWire lists now (pw-dump, an independent client).
    public func nodeNames() throws -> [String] {
        let dump = try run("pw-dump", [])
        let objects = (try? JSONSerialization.jsonObject(with: dump.stdoutData)) as? [[String: Any]] ?? []
        return objects.compactMap { (($0["info"] as? [String: Any])?["props"] as? [String: Any])?["node.name"] as? String }
    }

    /// Stores the portal's answer for cameras (the permission store's table `devices`, entry
    /// `camera`) for programs outside a sandbox (app id ""), as Settings › Privacy does.
    public func setCameraPermission(_ allowed: Bool) throws {
        let result = try run("gdbus", ["call", "--session", "--dest", "org.freedesktop.impl.portal.PermissionStore",
                                       "--object-path", "/org/freedesktop/impl/portal/PermissionStore",
                                       "--method", "org.freedesktop.impl.portal.PermissionStore.SetPermission",
                                       "devices", "true", "camera", "", allowed ? "['yes']" : "['no']"])
        try #require(result.status == 0, "the permission store refused: \(result.stderr)")
    }

    /// The process group id a script wrote into `file` (waited for, at most 10 s).
    private static func groupID(in file: URL) throws -> pid_t {
        func written(_ file: URL) -> pid_t? {
            (try? String(contentsOf: file, encoding: .utf8)).flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }
        if try FileAppears.wait(for: file, before: Date().addingTimeInterval(10), until: { written($0) != nil }), let id = written(file) {
            return id
        }
        Issue.record("a script of the PipeWire session did not start (no \(file.lastPathComponent))")
        throw SubprocessError.timedOut(file.lastPathComponent, [])
    }

    /// Polls `condition` until it holds; fails with what was waited for after `timeout`.
    private func waitFor(_ what: String, timeout: TimeInterval, _ condition: () throws -> Bool) throws {
        if try Poll.until(within: timeout, every: 0.05, condition) { return }
        let logs = ["pipewire.log", "wireplumber.log", "pulse.log", "portal.log"].compactMap { name in
            (try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)).map { "\(name): \($0.suffix(400))" }
        }
        Issue.record("timed out after \(Int(timeout)) s waiting for \(what)\n\(logs.joined(separator: "\n"))")
        throw SubprocessError.timedOut(what, [])
    }
}
