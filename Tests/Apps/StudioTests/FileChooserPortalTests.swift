import Foundation
import Testing
import ViewfinderCore
import ViewfinderTestSupport

extension StudioWindowTests {
    /// `viewfinder-studio --portal`, the desktop portal's file chooser backend, end to end: the real
    /// `xdg-desktop-portal` (1.16, which picks a backend by `UseIn=` and `$XDG_CURRENT_DESKTOP`)
    /// on a session bus of the test's own, the backend started by D-Bus activation from the
    /// service file as installed, programs asking through `org.freedesktop.portal.FileChooser`
    /// (a Python client that knows nothing of Viewfinder, and zenity, a real GTK program), and
    /// the desktop's own chooser (xdg-desktop-portal-gtk) for what is not photos or videos.
    @Suite("Studio: the file chooser portal")
    struct FileChooserPortalTests {
        static let client = TestPaths.repository.appendingPathComponent("Tests/Apps/StudioTests/portal-client.py")
        static let tools = ["xdotool", "gdbus", "dbus-daemon", "/usr/libexec/xdg-desktop-portal", "/usr/libexec/xdg-desktop-portal-gtk"]

        /// A home with Pictures (a.jpg, b.png, c.jpg, notes.txt) and Videos (clip.mp4), the
        /// portals folder (ours and GTK's), and the service file pointing at a wrapper that keeps
        /// the backend's events.
        static func desktop(_ name: String) async throws -> URL {
            for tool in tools {
                try #require(StudioHarness.onPath(tool) || FileManager.default.isExecutableFile(atPath: tool),
                             "\(tool) is missing (scripts/install-deps installs xdg-desktop-portal, xdg-desktop-portal-gtk, xdotool)")
            }
            let folder = TestPaths.scratchFolder(name)
            let pictures = folder.appendingPathComponent("home/Pictures"), videos = folder.appendingPathComponent("home/Videos")
            for made in [pictures, videos, folder.appendingPathComponent("portals"), folder.appendingPathComponent("share/dbus-1/services")] {
                try FileManager.default.createDirectory(at: made, withIntermediateDirectories: true)
            }
            _ = try await CoverScreenTests.clip(in: videos, name: "clip.mp4", seconds: 1, size: "160x120")
            try await StudioHarness.offThePool {
                for (file, colour) in [("a.jpg", "255"), ("b.png", "128"), ("c.jpg", "64")] {
                    let made = try Subprocess.run("vips", ["black", pictures.appendingPathComponent(file).path, "64", "48", "--bands", "3"])
                    try #require(made.status == 0, "\(file) (\(colour)): \(made.stderr)")
                }
            }
            try Data("not a picture\n".utf8).write(to: pictures.appendingPathComponent("notes.txt"))
            let portals = folder.appendingPathComponent("portals")
            try FileManager.default.copyItem(at: TestPaths.repository.appendingPathComponent("data/viewfinder.portal"),
                                             to: portals.appendingPathComponent("viewfinder.portal"))
            try FileManager.default.copyItem(at: URL(fileURLWithPath: "/usr/share/xdg-desktop-portal/portals/gtk.portal"),
                                             to: portals.appendingPathComponent("gtk.portal"))
            let wrapper = folder.appendingPathComponent("backend.sh")
            try "#!/bin/sh\nexec \(TestPaths.studio.path) \"$@\" 2>>\(folder.path)/events.jsonl\n"
                .write(to: wrapper, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: wrapper.path)
            let service = try String(contentsOf: TestPaths.repository.appendingPathComponent("data/org.freedesktop.impl.portal.desktop.viewfinder.service.in"),
                                     encoding: .utf8).replacingOccurrences(of: "@bindir@/viewfinder-studio", with: wrapper.path)
            #expect(service.contains("Exec=\(wrapper.path) --portal\n"), "the service file as installed starts the backend with --portal")
            try service.write(to: folder.appendingPathComponent("share/dbus-1/services/org.freedesktop.impl.portal.desktop.viewfinder.service"),
                              atomically: true, encoding: .utf8)
            return folder
        }

        /// The shell lines that set up the session (a desktop named "viewfinder:GNOME", the
        /// portal folder, a bus of its own started after them, so activation sees them) and the
        /// helpers the steps use.
        static func session(_ folder: URL) -> String {
            """
            set -u
            F=\(folder.path)
            export HOME=$F/home XDG_CONFIG_HOME=$F/config XDG_CACHE_HOME=$F/cache XDG_DATA_HOME=$F/data XDG_RUNTIME_DIR=$F/run
            export XDG_DATA_DIRS=$F/share:/usr/share XDG_DESKTOP_PORTAL_DIR=$F/portals XDG_CURRENT_DESKTOP=viewfinder:GNOME
            export GSK_RENDERER=cairo GDK_BACKEND=x11 NO_AT_BRIDGE=1 GTK_A11Y=none VIEWFINDER_LIBRARY=$F/lib
            mkdir -p $XDG_RUNTIME_DIR && chmod 700 $XDG_RUNTIME_DIR
            \(PrivateBus.start(socket: folder.path + "/bus"))
            trap 'kill -KILL $BUS_PID' EXIT
            until_true() { for _ in $(seq 600); do "$@" && return 0; sleep 0.1; done; return 1; }
            events() { grep -c "\\"event\\":\\"$1\\"" $F/events.jsonl 2>/dev/null || true; }
            at_least() { [ "$(events $1)" -ge "$2" ]; }
            client() { /usr/bin/python3 \(client.path) "$@"; }
            """
        }

        /// Runs `shell` under a display of its own; its output, and what to show when it fails.
        static func play(_ shell: String, timeout: TimeInterval) async throws -> (stdout: String, log: String) {
            let result = try await StudioHarness.offThePool {
                try Subprocess.run("xvfb-run", ["-a", "-s", "-screen 0 1280x1024x24", "bash", "-c", shell], timeout: timeout)
            }
            return (result.stdout, "\(result.stdout)\n\(result.stderr.suffix(2000))")
        }

        static func events(_ folder: URL) throws -> [[String: Any]] {
            try String(contentsOf: folder.appendingPathComponent("events.jsonl"), encoding: .utf8).split(separator: "\n")
                .compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        }

        @Test("OpenFile through xdg-desktop-portal: photo requests get Viewfinder's picker (Return picks one; Space, →, Done picks several, refusing a type the program did not ask for; Escape cancels), a request closed (late or at once) takes the picker away, a plain-text request and a save get the desktop's chooser; each answer reaches the program, and GTK never complains")
        func throughThePortal() async throws {
            let folder = try await Self.desktop("portal-open")
            let pictures = folder.appendingPathComponent("home/Pictures")
            let notes = pictures.appendingPathComponent("notes.txt").path
            let saved = pictures.appendingPathComponent("saved notes.txt").path
            let shell = Self.session(folder) + """

            # One photo: the picker opens on Pictures; Return takes the focused first item.
            client 'Open Image' '[["Images", [[1, "image/*"]]]]' > $F/one.json &
            c=$!
            until_true at_least probed 1 && echo "picker 1 ready"
            xdotool key Return
            wait $c; echo "one: $(cat $F/one.json)"
            # Several, JPEG only: a.jpg chosen, b.png refused, c.jpg chosen, then Done.
            client 'Open Photos' '[["JPEG", [[1, "image/jpeg"]]]]' --multiple --token second > $F/two.json &
            c=$!
            until_true at_least probed 2 && echo "picker 2 ready"
            xdotool key space Right space Right space Return
            wait $c; echo "two: $(cat $F/two.json)"
            # Escape on the picker's first screen cancels: the program hears "cancelled" (1).
            client 'Open Image' '[["Images", [[1, "image/*"]]]]' --token cancelled > $F/cancel.json &
            c=$!
            until_true at_least probed 3 && echo "picker 3 ready"
            xdotool key Escape
            wait $c; echo "cancel: $(cat $F/cancel.json)"
            # The program gives up while the picker shows.
            client 'Open Image' '[["Images", [[0, "*.jpg"], [0, "*.png"]]]]' --close-when $F/close --token third > $F/three.json &
            c=$!
            until_true at_least probed 4 && touch $F/close
            wait $c; echo "three: $(cat $F/three.json)"
            until_true at_least portal-closed 1 && echo "picker closed"
            # ... and one that gives up at once, while the window is still being made.
            touch $F/close-now
            client 'Open Image' '[["Images", [[1, "image/png"]]]]' --close-when $F/close-now --token third_b > $F/three-b.json
            echo "three-b: $(cat $F/three-b.json)"
            until_true at_least portal-closed 2 && echo "picker closed at once"
            # Text files are the desktop's chooser's: xdg-desktop-portal-gtk's dialog, answered
            # by typing the file's path.
            client 'Open Notes' '[["Notes", [[0, "*.txt"]]]]' --token fourth > $F/four.json &
            c=$!
            focused() { xdotool search --name '^Open Notes$' windowfocus --sync >/dev/null 2>&1 \
                && [ "$(xdotool getwindowfocus getwindowname)" = 'Open Notes' ]; }
            until_true focused && echo "desktop chooser shown"
            # A path typed from "/" opens GTK's location entry. GTK 3's chooser drops keys while
            # it is still filling its first view, and shows nothing a test can wait for without
            # an accessibility bus; so, as a person would, the path is typed again (the entry
            # emptied first) while the chooser has not answered.
            answered() { [ -s $F/$1.json ]; }
            for attempt in 1 2 3 4 5 6; do
                focused || break
                xdotool key ctrl+l ctrl+a; xdotool type --delay 20 '\(notes)'; xdotool key Return
                for _ in $(seq 100); do answered four && break; sleep 0.1; done
                answered four && break
                echo "chooser retyped ($attempt)"
            done
            wait $c; echo "four: $(cat $F/four.json)"
            # Saving is the desktop's chooser's too.
            client 'Save Notes' '[]' --save 'notes copy.txt' --token fifth > $F/five.json &
            c=$!
            saving() { xdotool search --name '^Save Notes$' windowfocus --sync >/dev/null 2>&1 \
                && [ "$(xdotool getwindowfocus getwindowname)" = 'Save Notes' ]; }
            until_true saving && echo "desktop save dialog shown"
            for attempt in 1 2 3 4 5 6; do
                saving || break
                xdotool key ctrl+a; xdotool type --delay 20 '\(saved)'; xdotool key Return
                for _ in $(seq 100); do answered five && break; sleep 0.1; done
                answered five && break
                echo "save dialog retyped ($attempt)"
            done
            wait $c; echo "five: $(cat $F/five.json)"
            """
            let (stdout, log) = try await Self.play(shell, timeout: 300)
            let lines = stdout.split(separator: "\n").map(String.init)
            let answer = { (name: String) -> [String: Any]? in
                lines.first { $0.hasPrefix(name + ": ") }.flatMap {
                    try? JSONSerialization.jsonObject(with: Data($0.dropFirst(name.count + 2).utf8)) as? [String: Any]
                }
            }
            let url = { (name: String) in pictures.appendingPathComponent(name).absoluteString }
            #expect(answer("one")?["response"] as? Int == 0, "\(log)")
            #expect(answer("one")?["uris"] as? [String] == [url("a.jpg")], "\(log)")
            #expect(answer("two")?["response"] as? Int == 0, "\(log)")
            #expect(answer("two")?["uris"] as? [String] == [url("a.jpg"), url("c.jpg")], "\(log)")
            #expect(answer("cancel")?["response"] as? Int == 1, "\(log)")
            #expect(answer("cancel")?["uris"] as? [String] == [], "\(log)")
            #expect(answer("three")?["closed"] as? Bool == true, "\(log)")
            #expect(lines.contains("picker closed"), "\(log)")
            #expect(lines.contains("desktop chooser shown"), "\(log)")
            #expect(answer("four")?["response"] as? Int == 0, "\(log)")
            #expect(answer("four")?["uris"] as? [String] == [URL(fileURLWithPath: notes).absoluteString], "\(log)")
            #expect(answer("three-b")?["closed"] as? Bool == true, "\(log)")
            #expect(lines.contains("picker closed at once"), "\(log)")
            #expect(lines.contains("desktop save dialog shown"), "\(log)")
            #expect(answer("five")?["response"] as? Int == 0, "\(log)")
            #expect(answer("five")?["uris"] as? [String] == [URL(fileURLWithPath: saved).absoluteString], "\(log)")
            // Nothing went wrong inside GTK (a picker taken away at once once made it touch a freed widget).
            let backendLog = try String(contentsOf: folder.appendingPathComponent("events.jsonl"), encoding: .utf8)
            #expect(!backendLog.contains("CRITICAL") && !backendLog.contains("WARNING"), "\(backendLog.suffix(1500))")

            let events = try Self.events(folder)
            let requests = events.filter { $0["event"] as? String == "portal-request" }.map { "\($0["kind"] ?? "")" }
            #expect(requests == ["media", "media", "media", "media", "media", "forwarded", "forwarded"], "\(events)")
            let picks = events.filter { $0["event"] as? String == "portal-pick" }
            #expect(picks.map { $0["title"] as? String } == ["Open Image", "Open Photos", "Open Image", "Open Image", "Open Image"])
            #expect(picks.first?["sources"] as? [String] == ["pictures", "videos"])
            #expect(picks.first?["source"] as? String == "pictures")
            #expect(picks.dropFirst().first?["extensions"] as? [String] == ["jpe", "jpeg", "jpg"])
            // Globs take exactly the extensions they match.
            #expect(picks.dropFirst(3).first?["extensions"] as? [String] == ["jpg", "png"])
            let refused = events.filter { $0["event"] as? String == "selection" }.compactMap { $0["refused"] as? String }
            #expect(refused.contains("Not a type the app takes"), "\(refused)")
            let ended = events.filter { $0["event"] as? String == "portal-ended" }.map { $0["response"] as? Int }
            #expect(ended == [0, 0, 1], "\(events)")
            // The backend started once, through the service file, and said where it forwards.
            let ready = events.filter { $0["event"] as? String == "portal-ready" }
            #expect(ready.count == 1)
            #expect(ready.first?["forward"] as? String == "org.freedesktop.impl.portal.desktop.gtk")
        }

        @Test("A second backend on the same bus exits 1 saying the name is taken; with no session bus, exit 1 in one line")
        func refusals() async throws {
            let folder = try await Self.desktop("portal-refusals")
            let shell = Self.session(folder) + """

            \(TestPaths.studio.path) --portal 2> $F/first.err &
            first=$!
            owned() { gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \\
                --method org.freedesktop.DBus.NameHasOwner org.freedesktop.impl.portal.desktop.viewfinder 2>/dev/null | grep -q true; }
            until_true owned && echo "first owns the name"
            \(TestPaths.studio.path) --portal 2> $F/second.err; echo "second: $?"
            kill -KILL $first
            DBUS_SESSION_BUS_ADDRESS=unix:path=$F/nothing-here \(TestPaths.studio.path) --portal 2> $F/nobus.err; echo "no bus: $?"
            """
            let (stdout, log) = try await Self.play(shell, timeout: 120)
            #expect(stdout.contains("first owns the name\nsecond: 1\n"), "\(log)")
            #expect(stdout.contains("no bus: 1\n"), "\(log)")
            let second = try String(contentsOf: folder.appendingPathComponent("second.err"), encoding: .utf8)
            #expect(second.hasSuffix("viewfinder-studio: another file chooser portal backend owns org.freedesktop.impl.portal.desktop.viewfinder\n"), "\(second)")
            let noBus = try String(contentsOf: folder.appendingPathComponent("nobus.err"), encoding: .utf8)
                .split(separator: "\n").filter { !$0.hasPrefix("{") }
            #expect(noBus.count == 1 && noBus.first?.hasPrefix("viewfinder-studio: cannot serve the file chooser portal: ") == true, "\(noBus)")
        }

        @Test("A real GTK program (zenity, GTK_USE_PORTAL=1) asking for pictures gets Viewfinder's picker, on the library when it holds something, and the chosen file")
        func gtkProgram() async throws {
            try #require(StudioHarness.onPath("zenity"), "zenity is not on PATH (scripts/install-deps installs it)")
            let folder = try await Self.desktop("portal-zenity")
            let shell = Self.session(folder) + """

            \(TestPaths.tool.path) library import $F/home/Pictures/c.jpg > /dev/null && echo "imported"
            GTK_USE_PORTAL=1 zenity --file-selection --title 'Choose a picture' --file-filter='Pictures | *.jpg *.png' > $F/zenity.txt 2> $F/zenity.err &
            z=$!
            until_true at_least thumbnail 1 && echo "picker ready"
            xdotool key Return
            wait $z; echo "zenity: $?"
            """
            let (stdout, log) = try await Self.play(shell, timeout: 240)
            #expect(stdout.contains("imported\npicker ready\n"), "\(log)")
            #expect(stdout.contains("zenity: 0\n"), "\(log)")
            // A library holding something is where the picker opens: the chosen file is its copy.
            let chosen = try String(contentsOf: folder.appendingPathComponent("zenity.txt"), encoding: .utf8)
            #expect(chosen.hasPrefix(folder.appendingPathComponent("lib").path + "/") && chosen.hasSuffix(".jpg\n"), "\(chosen)")
            let copy = try Data(contentsOf: URL(fileURLWithPath: chosen.trimmingCharacters(in: .newlines)))
            #expect(copy == (try Data(contentsOf: folder.appendingPathComponent("home/Pictures/c.jpg"))))
            let picks = try Self.events(folder).filter { $0["event"] as? String == "portal-pick" }
            #expect(picks.first?["title"] as? String == "Choose a picture")
            #expect(picks.first?["kinds"] as? [String] == ["photo"])
            #expect(picks.first?["sources"] as? [String] == ["library", "pictures", "videos"])
            #expect(picks.first?["source"] as? String == "library")
        }
    }
}
