import AvatarCrop
import Foundation
import Testing
import ViewfinderCore
import ViewfinderTestSupport

extension StudioWindowTests {
    /// Keyboard-only runs of `pick`: xdotool presses keys in the window, nothing else moves the
    /// pointer or calls the components, and the flow reaches Done.
    @Suite("Studio: keyboard only (xdotool)")
    struct KeyboardTests {
        /// Presses `keys` (xdotool names) one at a time, `delay` seconds apart, then `last`, the
        /// key that ends the pick: the app may quit (and its display with it) before xdotool
        /// has closed its connection, so that one call's failure is not the test's.
        static func press(_ signal: [String: Any], _ keys: [String], delay: Double = 0.5, last: String) throws {
            var steps = ["mousemove", "500", "12", "sleep", "0.3"]
            for key in keys { steps += ["key", "--clearmodifiers", key, "sleep", "\(delay)"] }
            try StudioHarness.xdotool(signal, steps)
            try? StudioHarness.xdotool(signal, ["key", "--clearmodifiers", last])
        }

        /// Runs `pick` with `arguments` on the library in `folder`/lib; after the script steps
        /// `before`, once its screen says `readyEvent`, presses `keys` and then `last` with
        /// xdotool, and returns the run once the pick has ended.
        static func pick(_ arguments: [String], before: [String] = [], when readyEvent: String, in folder: URL, keys: [String],
                         delay: Double = 0.5, last: String) async throws -> StudioRun {
            let ready = folder.appendingPathComponent("ready-\(UUID().uuidString.prefix(6)).json")
            return try await StudioHarness.runInteractive(before + [
                "wait \(readyEvent)", "sleep 0.3", "signal \(ready.path)", "wait pick-ended",
            ], arguments: ["pick"] + arguments + ["--library", folder.appendingPathComponent("lib").path],
               in: folder, readyFile: ready, pick: true) { signal in
                try press(signal, keys, delay: delay, last: last)
            }.run
        }

        @Test("cover: → twice then Enter, which no control takes there, is Done: frame 2, read from the image")
        func enterIsDone() async throws {
            let folder = TestPaths.scratchFolder("keys-enter")
            let video = try await CoverScreenTests.clip(in: folder, size: "320x180")
            let output = folder.appendingPathComponent("cover.jpg")
            let run = try await Self.pick(["cover", video.path, "-o", output.path], when: "cover-ready", in: folder,
                                          keys: ["Right", "Right"], last: "Return")
            #expect(run.status == 0, "stderr: \(run.stderr.suffix(1500))")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
            let image = try StudioHarness.pixels(of: output)
            #expect(object["frame"] as? Int == 2)
            #expect(image.cropped(Rect(x: 0, y: 0, width: Double(image.width), height: Double(image.height))).flatMap(FrameIndexPattern.readIndex) == 2)
        }

        @Test("cover: End, Home, → five times, Shift+→ (one cell), ← then Ctrl+Return picks frame 34, read from the image")
        func cover() async throws {
            let folder = TestPaths.scratchFolder("keys-cover")
            let video = try await CoverScreenTests.clip(in: folder, size: "320x180")
            let output = folder.appendingPathComponent("cover.jpg")
            let run = try await Self.pick(["cover", video.path, "-o", output.path], when: "cover-ready", in: folder,
                                          keys: ["End", "Home"] + Array(repeating: "Right", count: 5) + ["shift+Right", "Left"],
                                          last: "ctrl+Return")
            #expect(run.status == 0, "stderr: \(run.stderr.suffix(1500))")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
            let image = try StudioHarness.pixels(of: output)
            let read = image.cropped(Rect(x: 0, y: 0, width: Double(image.width), height: Double(image.height))).flatMap(FrameIndexPattern.readIndex)
            #expect(object["frame"] as? Int == 34)
            #expect(read == 34)
            // End reached the last frame before Home went back.
            let times = run.events("cover-preview").filter { $0["exact"] as? Bool == true }.compactMap { $0["time"] as? Double }
            #expect(times.contains { abs($0 - 179.0 / 30) < 1e-6 }, "\(times)")
        }

        @Test("avatar: →, →, ↓, +, +, − and Ctrl+Return give CropSession's crop for the same steps, and the CLI's replay of it byte for byte")
        func avatar() async throws {
            let folder = TestPaths.scratchFolder("keys-avatar")
            let photo = try StudioHarness.copy(media: "images/exif_orient6_samsung_galaxyS.jpg", to: folder, as: "face.jpg")
            let output = folder.appendingPathComponent("me.png")
            let run = try await Self.pick(["avatar", photo.path, "-o", output.path], when: "avatar-ready", in: folder,
                                          keys: ["Right", "Right", "Down", "plus", "plus", "minus"], delay: 0.2, last: "ctrl+Return")
            #expect(run.status == 0, "stderr: \(run.stderr.suffix(1500))")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
            let specObject = try #require(object["spec"] as? [String: Any])
            let specData = try JSONSerialization.data(withJSONObject: specObject)
            let spec = try CropSpec.parse(specData)

            let viewport = try AvatarScreenTests.viewport(run)
            let session = await CropSession(viewportSize: viewport, shape: .circle)
            try await session.load(photo)
            let centre = Point(x: viewport.width / 2, y: viewport.height / 2)
            await session.pan(by: Point(x: 10, y: 0))
            await session.pan(by: Point(x: 10, y: 0))
            await session.pan(by: Point(x: 0, y: 10))
            await session.zoom(by: 1.1, at: centre)
            await session.zoom(by: 1.1, at: centre)
            await session.zoom(by: 1 / 1.1, at: centre)
            let expected = try #require(await session.spec(side: 512))
            #expect(abs(spec.rect.minX - expected.rect.minX) < 1e-9 && abs(spec.rect.minY - expected.rect.minY) < 1e-9)
            #expect(abs(spec.rect.width - expected.rect.width) < 1e-9)

            #expect(try StudioHarness.matchesReplay(output, photo: photo, spec: specData, in: folder))
        }

        @Test("avatar: ], ], ], [ and Shift+] turn the photo 0.5° a press and a quarter with Shift, as CropSession does; the CLI replays the turned crop byte for byte")
        func straighten() async throws {
            let folder = TestPaths.scratchFolder("keys-straighten")
            let photo = try StudioHarness.copy(media: "exif_orientation/Landscape_6.jpg", to: folder, as: "tilted.jpg")
            let output = folder.appendingPathComponent("straight.png")
            let run = try await Self.pick(["avatar", photo.path, "--shape", "square", "-o", output.path], when: "avatar-ready", in: folder,
                                          keys: ["bracketright", "bracketright", "bracketright", "bracketleft", "shift+bracketright"],
                                          delay: 0.2, last: "ctrl+Return")
            #expect(run.status == 0, "stderr: \(run.stderr.suffix(1500))")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
            let specObject = try #require(object["spec"] as? [String: Any])
            let specData = try JSONSerialization.data(withJSONObject: specObject)
            let spec = try CropSpec.parse(specData)
            #expect(spec.rotation == 91, "\(spec.rotation)")

            // CropSession, given the same turns, makes the same crop.
            let viewport = try AvatarScreenTests.viewport(run)
            let session = await CropSession(viewportSize: viewport, shape: .square)
            try await session.load(photo)
            for turn in [0.5, 0.5, 0.5, -0.5, 90] { await session.rotate(by: turn) }
            let expected = try #require(await session.spec(side: 512))
            #expect(abs(spec.rect.width - expected.rect.width) < 1e-9 && abs(spec.rect.midX - expected.rect.midX) < 1e-9)
            #expect(try StudioHarness.matchesReplay(output, photo: photo, spec: specData, in: folder))
        }

        @Test("media: the grid starts focused; →, Space, ←, Space, Enter picks items 2 then 1 (oldest first); Escape or Ctrl+Q cancels")
        func media() async throws {
            let folder = TestPaths.scratchFolder("keys-media")
            let library = try await PickTests.library(in: folder)
            let run = try await Self.pick(["media", "--multiple", "2"], before: ["order oldest"], when: "thumbnail", in: folder,
                                          keys: ["Right", "space", "Left", "space"], delay: 0.3, last: "Return")
            #expect(run.status == 0, "stderr: \(run.stderr.suffix(1500))")
            let picked = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
            #expect(picked.compactMap { ($0["id"] as? NSNumber)?.int64Value } == [library.ids[1], library.ids[0]])

            let cancelled = try await Self.pick(["media"], when: "thumbnail", in: folder, keys: [], last: "Escape")
            #expect(cancelled.status == 3, "stderr: \(cancelled.stderr.suffix(800))")
            #expect(cancelled.stdout.isEmpty)
            // Quitting (Ctrl+Q, as closing the window) before anything is picked is a cancel too.
            let quit = try await Self.pick(["media"], when: "thumbnail", in: folder, keys: [], last: "ctrl+q")
            #expect(quit.status == 3, "stderr: \(quit.stderr.suffix(800))")
            #expect(quit.stdout.isEmpty)
        }
    }
}
