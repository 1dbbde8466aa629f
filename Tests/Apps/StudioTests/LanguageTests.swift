import Foundation
import Testing
import ViewfinderCore
import ViewfinderTestSupport

extension StudioWindowTests {
    /// The app in Russian and Chinese: what a screen reader hears (AT-SPI) and what fits on a
    /// 360-point screen, with the translations looked up by GNU gettext's own program.
    @Suite("Studio: in Russian and Chinese")
    struct LanguageTests {
        static let languages = ["ru_RU.UTF-8", "zh_CN.UTF-8"]

        /// `message` in `locale`, as the `gettext` program finds it (`TestLanguages.translation`).
        static func translation(_ message: String, _ locale: String) throws -> String {
            try TestLanguages.translation(message, locale)
        }

        /// The app's environment for `locale`, as `env` takes it.
        static func environment(_ locale: String) throws -> [String] {
            try TestLanguages.environment(locale).map { "\($0.key)=\($0.value)" }.sorted()
        }

        @Test("the cover screen heard in each language: its title the translation of Set cover, its strip the slider named as Cover frame translates", arguments: languages)
        func coverScreenHeard(_ locale: String) async throws {
            let folder = TestPaths.scratchFolder("language-cover")
            let video = try await CoverScreenTests.clip(in: folder, seconds: 3, size: "320x180")
            let title = try Self.translation("Set cover", locale), strip = try Self.translation("Cover frame", locale)
            let session = try AccessibilitySession(in: folder)
            defer { session.end() }
            let ready = folder.appendingPathComponent("ready.json"), read = folder.appendingPathComponent("read")
            let run = try await StudioHarness.runInteractive([
                "open-cover \(video.path)", "wait cover-ready", "signal \(ready.path)", "wait-file \(read.path)", "quit",
            ], arguments: ["--library", folder.appendingPathComponent("lib").path], in: folder, readyFile: ready,
               environment: session.environment + Self.environment(locale)) { _ in
                defer { _ = FileManager.default.createFile(atPath: read.path, contents: Data()) }
                return try session.read { objects in objects.contains { $0.name == title } && objects.contains { $0.role == "slider" } }
            }
            #expect(run.run.status == 0, "stderr: \(run.run.stderr.suffix(1500))")
            let objects = run.interaction
            #expect(objects.contains { $0.name == title }, "no \"\(title)\" heard: \(objects.map(\.name).filter { !$0.isEmpty })")
            #expect(objects.contains { $0.role == "slider" && $0.name == strip }, "\(objects.filter { $0.role == "slider" })")
            #expect(!objects.contains { $0.name == "Set cover" || $0.name == "Cover frame" }, "English left")
            // The frame's time as the locale writes numbers: 0,000 in Russian, 0.000 in Chinese.
            let zero = locale.hasPrefix("ru") ? "0,000" : "0.000"
            #expect(objects.contains { $0.role == "label" && $0.name.contains(zero) },
                    "\(objects.filter { $0.role == "label" }.map(\.name))")
        }

        @Test("a folder pick heard in each language: the items named in it, their day in the locale's words", arguments: languages)
        func gridHeard(_ locale: String) async throws {
            let folder = TestPaths.scratchFolder("language-grid")
            let media = folder.appendingPathComponent("media")
            try FileManager.default.createDirectory(at: media, withIntermediateDirectories: true)
            let made = try Subprocess.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=640x480", "-frames:v", "1",
                                                      media.appendingPathComponent("b.jpg").path])
            try #require(made.status == 0, "\(made.stderr)")
            let session = try AccessibilitySession(in: folder)
            defer { session.end() }
            let ready = folder.appendingPathComponent("ready.json")
            let run = try await StudioHarness.runInteractive([
                "wait thumbnail", "signal \(ready.path)", "wait pick-ended",
            ], arguments: ["pick", "media", "--folder", media.path], in: folder, readyFile: ready, pick: true,
               environment: session.environment + Self.environment(locale)) { signal in
                let objects = try session.read { AccessibilityTests.cells($0).count == 1 }
                try? StudioHarness.xdotool(signal, ["mousemove", "500", "12", "key", "--clearmodifiers", "Escape"])
                return AccessibilityTests.cells(objects).map(\.name)
            }
            let names = run.interaction
            try #require(names.count == 1, "\(names)")
            let format = DateFormatter()
            format.locale = Locale(identifier: String(locale.prefix { $0 != "." }))
            format.dateStyle = .long
            format.timeStyle = .none
            let day = format.string(from: Date())
            #expect(names[0].contains(day), "\(names[0]) does not say \(day)")
            #expect(names[0].contains("640 × 480"))
            #expect(TestLanguages.writtenIn(locale, names[0]), "\(names[0])")
        }

        @Test("each screen at 360 points in each language: every control on screen and inside the window (screenshots kept)", arguments: languages)
        func narrowScreens(_ locale: String) async throws {
            let folder = TestPaths.scratchFolder("language-narrow")
            let environment = try Self.environment(locale)
            let photo = try StudioHarness.copy(media: "images/progressive_beach_icc.jpg", to: folder, as: "beach.jpg")
            let video = try await CoverScreenTests.clip(in: folder, seconds: 3)
            let tag = String(locale.prefix(2))
            let screens: [(String, [String], String, [String])] = [
                ("avatar", ["--avatar", photo.path], "avatar-ready", ["editor", "back", "circle", "square", "done"]),
                ("cover", ["--cover", video.path], "cover-ready", ["preview", "strip", "back", "trim", "done"]),
                ("camera", ["--camera", "--device", "virtual,virtual-front"], "camera-preview",
                 ["preview", "back", "switch", "high", "medium", "low", "10s", "30s", "60s", "cancel", "record", "photo"]),
                ("library", ["--device", "virtual"], "library", ["empty", "newest", "oldest", "name", "camera", "import"]),
            ]
            for (screen, arguments, ready, names) in screens {
                let shot = folder.appendingPathComponent("\(screen)-\(tag).png")
                let layout = try await NarrowWindowTests.measure(arguments, ready: ready, names: names, in: folder,
                                                                 environment: environment, screenshot: shot)
                NarrowWindowTests.allShown(layout.narrow, "\(screen) in \(locale)")
                #expect(FileManager.default.fileExists(atPath: shot.path), "\(screen): no screenshot")
            }
        }
    }
}
