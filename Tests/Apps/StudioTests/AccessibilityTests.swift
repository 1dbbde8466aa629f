import Foundation
import Testing
import ViewfinderCore
import ViewfinderTestSupport

/// One accessible object as a screen reader reads it.
struct AccessibleObject: Sendable {
    let depth: Int
    let role: String
    let name: String
    let description: String
    let states: [String]
    /// For a ranged object (a slider, a progress bar): its value and bounds.
    let value: Double?
    let minimum: Double?
    let maximum: Double?

    init?(json: Any) {
        guard let object = json as? [String: Any], let role = object["role"] as? String else { return nil }
        depth = object["depth"] as? Int ?? 0
        self.role = role
        name = object["name"] as? String ?? ""
        description = object["description"] as? String ?? ""
        states = object["states"] as? [String] ?? []
        value = object["value"] as? Double
        minimum = object["minimum"] as? Double
        maximum = object["maximum"] as? Double
    }

    var isFocused: Bool { states.contains("focused") }
    var isSelected: Bool { states.contains("selected") }
    /// GTK 4.8 marks only windows "showing"; a widget on screen is "visible".
    var isVisible: Bool { states.contains("visible") }
}

/// A session bus with the accessibility bus behind it, as a desktop session has: the app under
/// test registers its accessible objects there and a reader (pyatspi, what Orca uses) reads them.
struct AccessibilitySession {
    let address: String
    private let daemon: Int32
    private static let reader = TestPaths.repository.appendingPathComponent("Tests/Apps/StudioTests/atspi-read.py")

    /// Where the accessibility bus puts its socket: a folder of this session's own, or every
    /// session's bus would be the one in the user's cache.
    private let runtime: URL

    init(in folder: URL) throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/dbus-daemon"), "dbus-daemon is missing (apt-get install dbus-daemon)")
        // Found, not imported: importing it looks for a bus, which this one is not yet.
        let probe = try Subprocess.run("/usr/bin/python3", ["-c", "import importlib.util, sys; sys.exit(importlib.util.find_spec('pyatspi') is None)"])
        try #require(probe.status == 0, "pyatspi is missing (apt-get install python3-pyatspi; scripts/install-deps does)")
        let tag = UUID().uuidString.prefix(8)
        runtime = folder.appendingPathComponent("run-\(tag)")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        // A socket of its own: a daemon cannot take over the path of one that ended.
        let socket = folder.appendingPathComponent("bus-\(tag)").path
        // The accessibility bus's launcher is started by this bus and takes its environment.
        let started = try Subprocess.run("bash", ["-c", "export XDG_RUNTIME_DIR=\(runtime.path) XDG_CACHE_HOME=\(runtime.path)\n"
                                                  + PrivateBus.start(socket: socket) + "\n[ -S \(socket) ] && echo $BUS_PID"])
        let pid = try #require(Int32(started.stdout.trimmingCharacters(in: .whitespacesAndNewlines)), "no session bus: \(started.stderr)")
        daemon = pid
        address = "unix:path=\(socket)"
    }

    /// What the app is started with: this bus, and GTK's AT-SPI bridge on.
    var environment: [String] { ["DBUS_SESSION_BUS_ADDRESS=\(address)", "GTK_A11Y=atspi", "NO_AT_BRIDGE=0"] }

    /// Ends the bus and everything it started: the accessibility bus's launcher, that bus and
    /// its registry (all have this session's `runtime` in their environment).
    func end() {
        kill(daemon, SIGKILL)
        // The registry outlives its buses: every process started with this session's folder ends.
        _ = try? Subprocess.run("bash", ["-c", "for p in /proc/[0-9]*; do grep -qsxz 'XDG_RUNTIME_DIR=\(runtime.path)' $p/environ && kill -KILL ${p#/proc/}; done; true"])
    }

    /// Every accessible object of `viewfinder-studio`, in tree order.
    func read() throws -> [AccessibleObject] {
        let result = try Subprocess.run("env", ["DBUS_SESSION_BUS_ADDRESS=\(address)", "/usr/bin/python3", Self.reader.path, "viewfinder-studio"])
        guard result.status == 0 else { throw SubprocessError.failed("atspi-read", result.stderr) }
        return result.stdout.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))).flatMap(AccessibleObject.init(json:))
        }
    }

    /// Reads until `holds` is true of what is read (the app answers key presses on its own
    /// loop), for at most `seconds`; returns the last reading either way, so that the test's
    /// expectations say what was wrong (a reading that fails after the first keeps the one before).
    func read(until holds: ([AccessibleObject]) -> Bool, seconds: TimeInterval = 20) throws -> [AccessibleObject] {
        var objects: [AccessibleObject]?
        Poll.until(within: seconds, every: 0.1) {
            // Until the app is on the bus a reading fails; after, a failed one keeps the last.
            guard let again = try? read() else { return false }
            objects = again
            return holds(again)
        }
        if let objects { return objects }
        do { return try read() } catch {
            let names = try? Subprocess.run("env", ["DBUS_SESSION_BUS_ADDRESS=\(address)", "dbus-send", "--session", "--dest=org.freedesktop.DBus",
                                                    "--type=method_call", "--print-reply", "/org/freedesktop/DBus", "org.freedesktop.DBus.ListNames"])
            throw SubprocessError.failed("atspi-read", "\(error); on the session bus: \(names?.stdout ?? "") \(names?.stderr ?? "")")
        }
    }
}

extension StudioWindowTests {
    /// The components as a screen reader hears them, read through AT-SPI with pyatspi while
    /// xdotool presses keys: names, roles, states and values, and a pick made by keyboard alone.
    @Suite("Studio: what a screen reader hears (AT-SPI)")
    struct AccessibilityTests {
        /// The grid's items (GTK's flow boxes elsewhere are cells named by their type).
        static func cells(_ objects: [AccessibleObject]) -> [AccessibleObject] {
            objects.filter { $0.role == "table cell" && !$0.name.hasPrefix("Gtk") }
        }

        /// Runs `pick arguments` with the app on an accessibility bus; once `readyEvent`, calls
        /// `interact` with the session and the display's signal.
        static func pick<Value: Sendable>(_ arguments: [String], when readyEvent: String, in folder: URL,
                                          interact: @escaping @Sendable (AccessibilitySession, [String: Any]) throws -> Value) async throws -> StudioRunWith<Value> {
            let session = try AccessibilitySession(in: folder)
            defer { session.end() }
            let ready = folder.appendingPathComponent("ready-\(UUID().uuidString.prefix(6)).json")
            return try await StudioHarness.runInteractive([
                "wait \(readyEvent)", "signal \(ready.path)", "wait pick-ended",
            ], arguments: ["pick"] + arguments, in: folder, readyFile: ready, pick: true, environment: session.environment) { signal in
                try interact(session, signal)
            }
        }

        @Test("a folder pick: each grid item named by kind, length or size and day; the first item has the focus at once; Space, →, Space, →, Space, Enter picks three, each heard as selected with its number")
        func folderGrid() async throws {
            let folder = TestPaths.scratchFolder("a11y-folder")
            let media = folder.appendingPathComponent("media")
            try FileManager.default.createDirectory(at: media, withIntermediateDirectories: true)
            for (name, arguments) in [("a.mp4", ["-f", "lavfi", "-i", "testsrc2=s=160x90:r=30:d=12", "-pix_fmt", "yuv420p"]),
                                      ("b.jpg", ["-f", "lavfi", "-i", "testsrc2=s=640x480", "-frames:v", "1"]),
                                      ("c.png", ["-f", "lavfi", "-i", "smptebars=s=400x300", "-frames:v", "1"])] {
                let made = try Subprocess.run("ffmpeg", ["-v", "error", "-y"] + arguments + [media.appendingPathComponent(name).path])
                try #require(made.status == 0, "\(made.stderr)")
            }
            let run = try await Self.pick(["media", "--multiple", "3", "--folder", media.path], when: "thumbnail", in: folder) { session, signal in
                let first = try session.read { Self.cells($0).first?.isFocused == true }
                try StudioHarness.xdotool(signal, ["mousemove", "500", "12", "key", "--clearmodifiers", "space", "sleep", "0.3",
                                                    "key", "--clearmodifiers", "Right", "sleep", "0.3", "key", "--clearmodifiers", "space"])
                let marked = try session.read { Self.cells($0).filter(\.isSelected).count == 2 }
                try StudioHarness.xdotool(signal, ["key", "--clearmodifiers", "Right", "sleep", "0.3", "key", "--clearmodifiers", "space", "sleep", "0.3"])
                try? StudioHarness.xdotool(signal, ["key", "--clearmodifiers", "Return"])
                return (Self.cells(first), Self.cells(marked))
            }
            #expect(run.run.status == 0, "stderr: \(run.run.stderr.suffix(1500))")
            let picked = try #require(try JSONSerialization.jsonObject(with: Data(run.run.stdout.utf8)) as? [[String: Any]])
            #expect(picked.compactMap { ($0["file"] as? String).map { URL(fileURLWithPath: $0).lastPathComponent } } == ["a.mp4", "b.jpg", "c.png"])

            let (first, marked) = run.interaction
            try #require(first.count == 3, "\(first)")
            let day = try #require(first.first?.name.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) })
            #expect(first.map(\.name) == ["Video, 12 s, \(day)", "Photo, 640 × 480, \(day)", "Photo, 400 × 300, \(day)"])
            #expect(first[0].isFocused, "the first item has the focus before any key: \(first)")
            #expect(first.allSatisfy { !$0.isSelected })
            #expect(marked.map(\.name) == ["Video, 12 s, \(day), chosen 1", "Photo, 640 × 480, \(day), chosen 2", "Photo, 400 × 300, \(day)"])
            #expect(marked.map(\.isSelected) == [true, true, false])
            #expect(marked.count == 3 && marked[1].isFocused)
        }

        @Test("a library pick: Space, →, Space, →, Space, Enter picks three items too")
        func libraryGrid() async throws {
            let folder = TestPaths.scratchFolder("a11y-library")
            let library = try await PickTests.library(in: folder)
            let run = try await StudioHarness.runInteractive([
                "order oldest", "wait thumbnail", "signal \(folder.appendingPathComponent("ready.json").path)", "wait pick-ended",
            ], arguments: ["pick", "media", "--multiple", "3", "--library", library.folder.path], in: folder,
               readyFile: folder.appendingPathComponent("ready.json"), pick: true) { signal in
                try KeyboardTests.press(signal, ["space", "Right", "space", "Right", "space"], delay: 0.3, last: "Return")
            }.run
            #expect(run.status == 0, "stderr: \(run.stderr.suffix(1500))")
            let picked = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
            #expect(picked.compactMap { ($0["id"] as? NSNumber)?.int64Value } == library.ids)
        }

        @Test("the crop editor is the slider Avatar crop with the focus at once: its value the zoom (+ twice: 121 % of where it opened), its description where the crop is (→ moves it)")
        func cropSlider() async throws {
            let folder = TestPaths.scratchFolder("a11y-avatar")
            let photo = try StudioHarness.copy(media: "images/exif_orient6_samsung_galaxyS.jpg", to: folder, as: "face.jpg")
            let output = folder.appendingPathComponent("me.png")
            let run = try await Self.pick(["avatar", photo.path, "-o", output.path], when: "avatar-ready", in: folder) { session, signal in
                func slider(_ objects: [AccessibleObject]) -> AccessibleObject? {
                    objects.first { $0.role == "slider" && $0.name == "Avatar crop" }
                }
                let first = try session.read { slider($0)?.isFocused == true && slider($0)?.description.hasPrefix("Zoom ") == true }
                let opened = slider(first)?.value ?? 0
                try StudioHarness.xdotool(signal, ["mousemove", "500", "12", "key", "--clearmodifiers", "plus", "sleep", "0.3",
                                                    "key", "--clearmodifiers", "plus"])
                let zoomed = try session.read { (slider($0)?.value ?? 0) > opened * 1.2 }
                try StudioHarness.xdotool(signal, ["key", "--clearmodifiers", "Right"])
                let moved = try session.read { slider($0)?.description != slider(zoomed)?.description }
                try? StudioHarness.xdotool(signal, ["key", "--clearmodifiers", "ctrl+Return"])
                return [first, zoomed, moved].map(slider)
            }
            #expect(run.run.status == 0, "stderr: \(run.run.stderr.suffix(1500))")
            let (first, zoomed, moved) = (run.interaction[0], run.interaction[1], run.interaction[2])
            try #require(first != nil && zoomed != nil && moved != nil, "\(run.interaction)")
            #expect(first?.isFocused == true)
            #expect(first?.minimum == 100)
            let opened = first?.value ?? 0
            #expect(opened >= 100)
            // Each + zooms by 10 % about the centre: two make 121 % of the zoom it opened at.
            #expect(abs((zoomed?.value ?? 0) - (opened * 1.21).rounded()) <= 1, "\(opened) → \(zoomed?.value ?? 0)")
            #expect(first?.description.contains("Arrows move the photo") == true)
            #expect(moved?.description.hasPrefix("Zoom \(Int(zoomed?.value ?? 0)) %") == true, "\(moved?.description ?? "")")
            #expect(moved?.description != zoomed?.description, "→ moves the crop across the photo")
        }

        @Test("the trimmer's handles are the sliders Trim start and Trim end, in seconds, the start with the focus at once: → three times and Tab, ← twice move them")
        func trimSliders() async throws {
            let folder = TestPaths.scratchFolder("a11y-trim")
            let video = try await CoverScreenTests.clip(in: folder, seconds: 6, size: "320x180")
            let session = try AccessibilitySession(in: folder)
            defer { session.end() }
            let ready = folder.appendingPathComponent("ready.json"), read = folder.appendingPathComponent("read")
            let run = try await StudioHarness.runInteractive([
                "open-trim \(video.path)", "wait trim-ready", "signal \(ready.path)", "wait-file \(read.path)", "quit",
            ], arguments: ["--library", folder.appendingPathComponent("lib").path], in: folder, readyFile: ready,
               environment: session.environment) { signal in
                defer { _ = FileManager.default.createFile(atPath: read.path, contents: Data()) }
                func handles(_ objects: [AccessibleObject]) -> [AccessibleObject] {
                    objects.filter { $0.role == "slider" && $0.name.hasPrefix("Trim ") }
                }
                let first = try session.read { handles($0).first?.isFocused == true }
                try StudioHarness.xdotool(signal, ["mousemove", "500", "12"] + ["Right", "Right", "Right", "Tab", "Left", "Left"].flatMap {
                    ["key", "--clearmodifiers", $0, "sleep", "0.3"]
                })
                let moved = try session.read { handles($0).last?.isFocused == true && (handles($0).last?.value ?? 6) < 5.9 }
                return (handles(first), handles(moved))
            }
            #expect(run.run.status == 0, "stderr: \(run.run.stderr.suffix(1500))")
            let (first, moved) = run.interaction
            #expect(first.map(\.name) == ["Trim start", "Trim end"])
            #expect(first.map(\.value) == [0, 6])
            #expect(first.map(\.isFocused) == [true, false])
            #expect(first.allSatisfy { $0.minimum == 0 && $0.maximum == 6 })
            try #require(moved.count == 2, "\(moved)")
            #expect(abs((moved[0].value ?? 0) - 0.3) <= 1.0 / 30 + 1e-9, "three steps of 0.1 s, to a frame: \(moved[0].value ?? -1)")
            #expect(abs((moved[1].value ?? 0) - 5.8) <= 1.0 / 30 + 1e-9, "two steps back: \(moved[1].value ?? -1)")
            #expect(moved.map(\.isFocused) == [false, true])
        }

        /// Runs a media pick on `folder`/lib (once its grid shows a thumbnail) playing `lines` on
        /// an accessibility bus; once the script
        /// signals, reads until `holds` (the bridge tells the bus of a change a moment after
        /// GTK makes it) and returns what a reader found; the script then goes on to its end
        /// and leaves the pick.
        static func readDuring(_ lines: [String], in folder: URL,
                               until holds: @escaping @Sendable ([AccessibleObject]) -> Bool) async throws -> [AccessibleObject] {
            let session = try AccessibilitySession(in: folder)
            defer { session.end() }
            let ready = folder.appendingPathComponent("ready-\(UUID().uuidString.prefix(6)).json")
            let signal = lines.firstIndex(of: "signal") ?? lines.count
            let read = folder.appendingPathComponent("read-\(UUID().uuidString.prefix(6))")
            var script = lines
            // The script goes on past a signal at once: it waits for the reading to be done.
            script[signal...signal] = ["signal \(ready.path)", "wait-file \(read.path)"]
            // A media pick that the script leaves by Back: cancelled.
            let run = try await StudioHarness.runInteractive(["wait thumbnail"] + script + ["back"],
                                                             arguments: ["pick", "media", "--library", folder.appendingPathComponent("lib").path],
                                                             in: folder, readyFile: ready, pick: true, environment: session.environment) { _ in
                defer { _ = FileManager.default.createFile(atPath: read.path, contents: Data()) }
                return try session.read(until: holds)
            }
            #expect(run.status == 3, "stderr: \(run.stderr.suffix(1500))")
            return run.interaction
        }

        @Test("a confirmation (a toast) and an error (the HUD's cross) reach a reader as alerts holding their words while they show, the focus left where it was")
        func announcements() async throws {
            let folder = TestPaths.scratchFolder("a11y-announce")
            let session = try AccessibilitySession(in: folder)
            defer { session.end() }
            let ready = folder.appendingPathComponent("ready.json"), heard = folder.appendingPathComponent("heard"),
                toasted = folder.appendingPathComponent("toasted"), done = folder.appendingPathComponent("done")
            // Each announcement lasts a few seconds: made once a reader can read the app.
            let run = try await StudioHarness.runInteractive([
                "wait library", "signal \(ready.path)", "wait-file \(heard.path)", "toggle-theme", "wait-file \(toasted.path)",
                "hud-flash error Cannot import holiday.mov", "wait-file \(done.path)", "quit",
            ], arguments: ["--library", folder.appendingPathComponent("lib").path, "--light"], in: folder, readyFile: ready,
               environment: session.environment) { _ in
                defer { _ = FileManager.default.createFile(atPath: done.path, contents: Data()) }
                func alerts(_ objects: [AccessibleObject]) -> [String] {
                    objects.filter { $0.role == "alert" && !$0.name.isEmpty }.map(\.name)
                }
                let before = try session.read { $0.contains { $0.role == "frame" } }
                _ = FileManager.default.createFile(atPath: heard.path, contents: Data())
                let confirmation = try session.read { alerts($0) == ["Dark style"] }
                _ = FileManager.default.createFile(atPath: toasted.path, contents: Data())
                let error = try session.read { alerts($0).contains("Cannot import holiday.mov") }
                let focusBefore = confirmation.first(where: \.isFocused)?.name, focusAfter = error.first(where: \.isFocused)?.name
                return [alerts(before), alerts(confirmation), alerts(error), [focusBefore ?? "", focusAfter ?? ""]]
            }
            #expect(run.run.status == 0, "stderr: \(run.run.stderr.suffix(1500))")
            try #require(run.interaction.count == 4)
            #expect(run.interaction[0].isEmpty, "nothing announced, no alert: \(run.interaction[0])")
            #expect(run.interaction[1] == ["Dark style"])
            #expect(run.interaction[2].contains("Cannot import holiday.mov"), "\(run.interaction[2])")
            #expect(run.interaction[3][0] == run.interaction[3][1], "an announcement moves no focus: \(run.interaction[3])")
        }

        @Test("the HUD is a progress bar named by its label and described by its details, its value the work done; hidden, a reader finds none")
        func hudProgress() async throws {
            let folder = TestPaths.scratchFolder("a11y-hud")
            _ = try await PickTests.library(in: folder)
            @Sendable func bars(_ objects: [AccessibleObject]) -> [AccessibleObject] {
                objects.filter { $0.role == "progress bar" && $0.isVisible }
            }
            let shown = bars(try await Self.readDuring(["hud bar fade solid", "wait-hud visible", "signal", "hud-hide", "wait-hud hidden"],
                                                      in: folder) { !bars($0).isEmpty })
            try #require(shown.count == 1, "\(shown)")
            #expect(shown[0].name == "Bar")
            #expect(shown[0].description == "fade, solid")
            #expect(abs((shown[0].value ?? -1) - 0.6) < 1e-9)
            #expect(shown[0].minimum == 0 && shown[0].maximum == 1)
            let text = bars(try await Self.readDuring(["hud text fade blur", "wait-hud visible", "signal", "hud-hide", "wait-hud hidden"],
                                                     in: folder) { !bars($0).isEmpty })
            #expect(text.map(\.name) == ["Text"], "a text HUD's words reach a reader too")
            let hidden = try await Self.readDuring(["hud bar fade solid", "wait-hud visible", "hud-hide", "wait-hud hidden", "signal"],
                                                   in: folder) { $0.contains { $0.role == "frame" } && bars($0).isEmpty }
            #expect(hidden.contains { $0.role == "frame" })
            #expect(bars(hidden).isEmpty, "no HUD on screen, none heard: \(bars(hidden))")
        }

        @Test("the cover strip is a slider named Cover frame with the focus at once, its value the frame number: three → make it frame 4 of 180")
        func coverSlider() async throws {
            let folder = TestPaths.scratchFolder("a11y-cover")
            let video = try await CoverScreenTests.clip(in: folder, seconds: 6, size: "320x180")
            let output = folder.appendingPathComponent("cover.jpg")
            let run = try await Self.pick(["cover", video.path, "-o", output.path], when: "cover-ready", in: folder) { session, signal throws -> [[Double]] in
                func slider(_ objects: [AccessibleObject]) -> AccessibleObject? {
                    objects.first { $0.role == "slider" && $0.name == "Cover frame" }
                }
                let first = try session.read { slider($0)?.value == 1 }
                try StudioHarness.xdotool(signal, ["mousemove", "500", "12"] + Array(repeating: ["key", "--clearmodifiers", "Right", "sleep", "0.3"], count: 3).flatMap { $0 })
                let moved = try session.read { slider($0)?.value == 4 }
                try? StudioHarness.xdotool(signal, ["key", "--clearmodifiers", "ctrl+Return"])
                return [slider(first), slider(moved)].map { (object: AccessibleObject?) -> [Double] in
                    guard let object else { return [] }
                    return [object.value ?? -1, object.minimum ?? -1, object.maximum ?? -1, object.isFocused ? 1 : 0]
                }
            }
            #expect(run.run.status == 0, "stderr: \(run.run.stderr.suffix(1500))")
            #expect(run.interaction == [[1, 1, 180, 1], [4, 1, 180, 1]])
            let result = try #require(try JSONSerialization.jsonObject(with: Data(run.run.stdout.utf8)) as? [String: Any])
            #expect((result["frame"] as? NSNumber)?.intValue == 3, "frame 4 counted from 1 is frame 3 counted from 0: \(result)")
        }
    }
}
