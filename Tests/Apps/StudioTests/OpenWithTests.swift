import Foundation
import Testing
import ViewfinderCore
import ViewfinderTestSupport

extension StudioWindowTests {
    /// "Open with Viewfinder Studio": files given on the command line (paths or the `file://`
    /// URIs a desktop passes) open on a screen of what can be done with each; on a session bus
    /// one Studio runs, and the desktop's `gio open` and a second start reach it (D-Bus
    /// activation through the installed service file when none runs).
    @Suite("Studio: open with")
    struct OpenWithTests {
        /// The entry as installed, read from the repository's data folder.
        static let desktopEntry = TestPaths.repository.appendingPathComponent("data/org.viewfinder.Studio.desktop")

        /// The types the entry claims.
        static func mimeTypes() throws -> [String] {
            let text = try String(contentsOf: desktopEntry, encoding: .utf8)
            let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("MimeType=") })
            return line.dropFirst("MimeType=".count).split(separator: ";").map(String.init)
        }

        @Test("FILE… and file:// URIs: each readable file offers its actions (a video's cover, trim and import; a photo's avatar and import), the others say why; the actions open their screens and Import All imports the readable ones")
        func openedFiles() async throws {
            let folder = TestPaths.scratchFolder("studio-open")
            let clip = try await CoverScreenTests.clip(in: folder, name: "clip.mp4", seconds: 2, size: "320x180")
            let photo = folder.appendingPathComponent("photo.jpg")
            try FileManager.default.copyItem(at: TestPaths.media.appendingPathComponent("images/exif_orient6_samsung_galaxyS.jpg"), to: photo)
            let notes = folder.appendingPathComponent("notes.txt")
            try Data("not a picture\n".utf8).write(to: notes)
            let missing = folder.appendingPathComponent("gone.mp4")
            let run = try await StudioHarness.run([
                "wait opened-ready 60",
                "screenshot \(folder.path)/opened.png",
                "press cover-1", "wait cover-ready 60", "back",
                "press trim-1", "wait trim-ready 60", "back",
                "press avatar-2", "wait avatar-ready 60", "back",
                "press import-all", "wait imported 120",
                "quit",
            ], arguments: ["--library", folder.appendingPathComponent("lib").path, clip.path, photo.absoluteString, notes.path, missing.path],
               in: folder)
            #expect(run.status == 0, "\(run.stderr)")
            let opened = try run.event("opened")
            #expect(opened["files"] as? [String] == [clip.path, photo.path, notes.path, missing.path])
            let ready = try run.event("opened-ready")
            #expect(ready["readable"] as? [String] == [clip.path, photo.path])
            let refused = ready["refused"] as? [[String: String]] ?? []
            #expect(refused.map { $0["path"] } == [notes.path, missing.path])
            #expect(refused.last?["message"] == "no such file")
            #expect(refused.first?["message"]?.hasPrefix("not a readable photo or video") == true)
            #expect(run.events("open-action").map { $0["action"] as? String } == ["cover", "trim", "avatar"])
            let screens = run.events("screen").compactMap { $0["name"] as? String }
            #expect(screens == ["Library", "4 Files", "Set cover", "4 Files", "Trim", "4 Files", "Choose avatar", "4 Files"], "\(screens)")
            let imported = try run.event("imported")
            #expect(imported["imported"] as? Int == 2)
            #expect(imported["failed"] as? Int == 0)
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("opened.png").path))
        }

        @Test("The desktop entry passes desktop-file-validate and takes files (%U) through D-Bus activation")
        func entryIsValid() throws {
            try #require(StudioHarness.onPath("desktop-file-validate"), "desktop-file-validate is not on PATH (apt-get install desktop-file-utils)")
            let validated = try Subprocess.run("desktop-file-validate", [Self.desktopEntry.path])
            #expect(validated.status == 0 && validated.stdout.isEmpty, "\(validated.stdout)\(validated.stderr)")
            let text = try String(contentsOf: Self.desktopEntry, encoding: .utf8)
            #expect(text.contains("\nExec=viewfinder-studio %U\n"))
            #expect(text.contains("\nDBusActivatable=true\n"))
        }

        @Test("The AppStream metainfo passes appstreamcli validate, launches the entry, and its release is the programs' version")
        func metainfo() throws {
            try #require(StudioHarness.onPath("appstreamcli"), "appstreamcli is not on PATH (apt-get install appstream)")
            let file = TestPaths.repository.appendingPathComponent("data/org.viewfinder.Studio.metainfo.xml")
            let validated = try Subprocess.run("appstreamcli", ["validate", "--no-net", file.path])
            #expect(validated.status == 0, "\(validated.stdout)\(validated.stderr)")
            #expect(!validated.stdout.contains("W:") && !validated.stdout.contains("E:"), "\(validated.stdout)")
            let text = try String(contentsOf: file, encoding: .utf8)
            #expect(text.contains("<launchable type=\"desktop-id\">org.viewfinder.Studio.desktop</launchable>"))
            let version = try Subprocess.run(TestPaths.studio, ["--version"]).stdout.split(separator: " ").last.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) } ?? ""
            #expect(text.contains("<release version=\"\(version)\""), "the metainfo's release is not \(version)")
        }

        @Test("The entry claims only types Viewfinder reads: for each, a file GLib types so is read by `viewfinder info`")
        func claimedTypes() async throws {
            try #require(StudioHarness.onPath("gio"), "gio is not on PATH (apt-get install libglib2.0-bin)")
            let folder = TestPaths.scratchFolder("studio-mime")
            let types = try Self.mimeTypes()
            #expect(types.count >= 10)
            // One file per type, made by the ffmpeg CLI (videos) and the vips CLI (photos).
            let makers: [String: (String, [String])] = [
                "video/mp4": ("a.mp4", []), "video/quicktime": ("a.mov", []),
                "video/3gpp": ("a.3gp", ["-s", "176x144"]), "video/x-matroska": ("a.mkv", []),
                "video/webm": ("a.webm", ["-c:v", "libvpx-vp9"]), "video/mp2t": ("a.ts", []), "video/x-flv": ("a.flv", ["-c:v", "flv"]),
                "image/jpeg": ("a.jpg", []), "image/png": ("a.png", []), "image/webp": ("a.webp", []), "image/gif": ("a.gif", []),
                "image/heif": ("a.heic", []), "image/avif": ("a.avif", []), "image/tiff": ("a.tif", []),
            ]
            try await StudioHarness.offThePool {
                let source = folder.appendingPathComponent("source.png")
                let drawn = try Subprocess.run("vips", ["black", source.path, "64", "48", "--bands", "3"])
                try #require(drawn.status == 0, "\(drawn.stderr)")
                for type in types {
                    let (name, extra) = try #require(makers[type], "no sample maker for \(type): add one when the entry claims a new type")
                    let file = folder.appendingPathComponent(name)
                    let made: RunResult
                    if type.hasPrefix("video/") {
                        made = try Subprocess.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=160x120:rate=10:duration=1"]
                                                  + extra + ["-pix_fmt", "yuv420p", file.path])
                    } else {
                        made = try Subprocess.run("vips", ["copy", source.path, file.path])
                    }
                    try #require(made.status == 0, "making \(name): \(made.stderr)")
                    let typed = try Subprocess.run("gio", ["info", "-a", "standard::content-type", file.path])
                    #expect(typed.stdout.contains("standard::content-type: \(type)\n"), "\(name): \(typed.stdout)")
                    let info = try Subprocess.run(TestPaths.tool, ["info", file.path])
                    #expect(info.status == 0, "\(type) (\(name)) is claimed but not read: \(info.stderr)")
                }
            }
        }

        @Test("On a session bus: gio open starts the Studio through its D-Bus service with the file shown; a second start and gio open hand files to the one running; xdg-mime names it the default")
        func desktopOpens() async throws {
            for tool in ["gio", "gdbus", "dbus-daemon", "xdg-mime", "xdotool"] {
                try #require(StudioHarness.onPath(tool), "\(tool) is not on PATH (scripts/install-deps installs it)")
            }
            let folder = TestPaths.scratchFolder("studio-open-dbus")
            let clip = try await CoverScreenTests.clip(in: folder, name: "clip.mp4", seconds: 2, size: "320x180")
            let photo = folder.appendingPathComponent("photo.jpg")
            try FileManager.default.copyItem(at: TestPaths.media.appendingPathComponent("images/exif_orient6_samsung_galaxyS.jpg"), to: photo)
            // The desktop entry and the D-Bus service as `make install` writes them, pointing at
            // the programs built here.
            let share = folder.appendingPathComponent("share")
            let applications = share.appendingPathComponent("applications"), services = share.appendingPathComponent("dbus-1/services")
            try FileManager.default.createDirectory(at: applications, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: services, withIntermediateDirectories: true)
            let entry = try String(contentsOf: Self.desktopEntry, encoding: .utf8)
                .replacingOccurrences(of: "Exec=viewfinder-studio", with: "Exec=\(TestPaths.studio.path)")
            try entry.write(to: applications.appendingPathComponent("org.viewfinder.Studio.desktop"), atomically: true, encoding: .utf8)
            let service = try String(contentsOf: TestPaths.repository.appendingPathComponent("data/org.viewfinder.Studio.service.in"), encoding: .utf8)
                .replacingOccurrences(of: "@bindir@/viewfinder-studio", with: TestPaths.studio.path)
            try service.write(to: services.appendingPathComponent("org.viewfinder.Studio.service"), atomically: true, encoding: .utf8)
            let script = folder.appendingPathComponent("first.txt")
            try "wait opened 60\nwait opened 60\nquit\n".write(to: script, atomically: true, encoding: .utf8)
            let shell = """
            set -u
            export XDG_DATA_HOME=\(share.path) XDG_CONFIG_HOME=\(folder.path)/config XDG_CACHE_HOME=\(folder.path)/cache
            export XDG_DATA_DIRS=/usr/share GSK_RENDERER=cairo GDK_BACKEND=x11 NO_AT_BRIDGE=1 GTK_A11Y=none
            export VIEWFINDER_LIBRARY=\(folder.path)/lib
            \(PrivateBus.start(socket: folder.path + "/bus"))
            trap 'kill -KILL $BUS_PID' EXIT
            owned() { gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \\
                --method org.freedesktop.DBus.NameHasOwner org.viewfinder.Studio 2>/dev/null | grep -q true; }
            until_true() { for _ in $(seq 600); do "$@" && return 0; sleep 0.1; done; return 1; }
            xdg-mime default org.viewfinder.Studio.desktop video/mp4 image/jpeg
            echo "default: $(xdg-mime query default video/mp4)"
            # Nothing runs: gio open asks D-Bus, which starts the Studio from its service file.
            gio open \(clip.path); echo "gio open (none running): $?"
            until_true xdotool search --name '^clip.mp4$' >/dev/null && echo "window: clip.mp4"
            gdbus call --session --dest org.viewfinder.Studio --object-path /org/viewfinder/Studio \\
                --method org.freedesktop.Application.ActivateAction quit '[]' '{}' >/dev/null; echo "quit: $?"
            until_true sh -c '! owned' && echo "service ended"
            # A Studio runs (playing a script): a second start and gio open hand it their files.
            \(TestPaths.studio.path) --script \(script.path) > \(folder.path)/events.jsonl 2> \(folder.path)/first.err &
            first=$!
            until_true owned && echo "first owns the name"
            \(TestPaths.studio.path) \(photo.path); echo "second start: $?"
            gio open \(clip.path); echo "gio open (running): $?"
            wait $first; echo "first: $?"
            """
            let result = try await StudioHarness.offThePool {
                try Subprocess.run("xvfb-run", ["-a", "-s", "-screen 0 1280x1024x24", "bash", "-c", shell], timeout: 240)
            }
            let lines = result.stdout.split(separator: "\n").map(String.init)
            for expected in ["default: org.viewfinder.Studio.desktop", "gio open (none running): 0", "window: clip.mp4", "quit: 0",
                             "service ended", "first owns the name", "second start: 0", "gio open (running): 0", "first: 0"] {
                #expect(lines.contains(expected), "missing '\(expected)' in:\n\(result.stdout)\n\(result.stderr)")
            }
            let events = try String(contentsOf: folder.appendingPathComponent("events.jsonl"), encoding: .utf8)
                .split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            let opened = events.filter { $0["event"] as? String == "opened" }.compactMap { $0["files"] as? [String] }
            #expect(opened == [[photo.path], [clip.path]], "\(events)")
        }
    }
}
