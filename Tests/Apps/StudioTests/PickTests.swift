import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Capture
import Imaging
import Testing
import ViewfinderCore
import ViewfinderTestSupport

extension StudioWindowTests {
    /// `viewfinder-studio pick …` used as another program would: run it, drive it with a
    /// script, read the JSON on stdout and the exit status (0 done, 3 cancelled, 1 error, 2 usage).
    @Suite("Studio: pick for other programs")
    struct PickTests {
        /// The JSON a pick printed on stdout. It must also be one of the documented result
        /// types (`Capture.PickResult`), and say exactly what that type says when encoded again.
        static func result(_ run: StudioRun) throws -> Any {
            let data = Data(run.stdout.utf8)
            let object = try JSONSerialization.jsonObject(with: data)
            #expect(try Self.typed(data).map { try JSONSerialization.jsonObject(with: $0.json()) as? NSObject } == object as? NSObject,
                    "the printed JSON is not a documented pick result: \(run.stdout)")
            return object
        }

        /// The printed result decoded as the first of the documented types that reads it.
        static func typed(_ data: Data) throws -> PickResult? {
            let decoder = PickResult.decoder
            if let items = try? decoder.decode([PickedItem].self, from: data) { return .media(items) }
            if let cover = try? decoder.decode(PickedCover.self, from: data) { return .cover(cover) }
            if let avatar = try? decoder.decode(PickedAvatar.self, from: data) { return .avatar(avatar) }
            if let capture = try? decoder.decode(PickedCapture.self, from: data) { return .capture(capture) }
            return nil
        }

        /// The lines of stderr that are not events.
        static func messages(_ run: StudioRun) -> [Substring] {
            run.stderr.split(separator: "\n").filter { !$0.hasPrefix("{") }
        }

        /// A library of a photo, a 2 s clip and a 6 s clip, imported with the CLI; their ids
        /// oldest first, as `library list --sort oldest` says.
        static func library(in folder: URL) async throws -> (folder: URL, ids: [Int64], kinds: [String], durations: [Double]) {
            let library = folder.appendingPathComponent("lib")
            let short = try await CoverScreenTests.clip(in: folder, name: "short.mp4", seconds: 2, size: "160x90")
            let long = try await CoverScreenTests.clip(in: folder, name: "long.mp4", seconds: 6, size: "160x90")
            let photo = TestPaths.media.appendingPathComponent("images/exif_orient6_samsung_galaxyS.jpg")
            return try await StudioHarness.offThePool {
                for file in [photo, short, long] {
                    let imported = try Subprocess.run(TestPaths.tool, ["library", "--library", library.path, "import", file.path, "-q"])
                    try #require(imported.status == 0, "import failed: \(imported.stderr)")
                }
                let listed = try Subprocess.run(TestPaths.tool, ["library", "--library", library.path, "list", "--sort", "oldest", "--json"])
                let items = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
                return (library, items.compactMap { ($0["id"] as? NSNumber)?.int64Value }, items.compactMap { $0["kind"] as? String },
                        items.map { ($0["duration"] as? Double) ?? 0 })
            }
        }

        @Test("pick media --multiple 2 --max-duration 4: the long video is refused with its reason, a third item is refused, Done prints the two picked in the order picked")
        func multiple() async throws {
            let folder = TestPaths.scratchFolder("pick-media")
            let library = try await Self.library(in: folder)
            try #require(library.ids.count == 3, "\(library)")
            let longIndex = try #require(library.durations.firstIndex { $0 > 4 })
            let others = library.ids.indices.filter { $0 != longIndex }
            let run = try await StudioHarness.pick([
                "order oldest",
                "activate \(longIndex)",
                "wait selection",
                "activate \(others[1])",
                "activate \(others[0])",
                "activate \(longIndex)",
                "press done",
                "wait pick-ended",
            ], arguments: ["pick", "media", "--multiple", "2", "--max-duration", "4", "--library", library.folder.path], in: folder)
            #expect(run.status == 0, "stderr: \(run.stderr)")
            let refused = run.events("selection").compactMap { $0["refused"] as? String }.filter { !$0.isEmpty }
            #expect(refused == ["Longer than 0:04 (0:06)", "Longer than 0:04 (0:06)"])
            let picked = try #require(try Self.result(run) as? [[String: Any]])
            #expect(picked.compactMap { ($0["id"] as? NSNumber)?.int64Value } == [library.ids[others[1]], library.ids[others[0]]])
            #expect(picked.compactMap { $0["kind"] as? String } == [library.kinds[others[1]], library.kinds[others[0]]])
            for item in picked {
                #expect(FileManager.default.fileExists(atPath: item["file"] as? String ?? ""))
            }
        }

        @Test("pick media --folder: a plain folder's photos and videos (oldest first, the long one refused) come back in the order picked, with their own paths")
        func folder() async throws {
            let folder = TestPaths.scratchFolder("pick-folder")
            let source = folder.appendingPathComponent("shots")
            try FileManager.default.createDirectory(at: source, withIntermediateDirectories: true)
            // Name order (the ids) differs from date order (the grid, oldest first).
            let late = source.appendingPathComponent("a-late.jpg")
            let early = source.appendingPathComponent("b-early.mp4")
            let long = source.appendingPathComponent("c-long.mp4")
            // Made with the CLIs (an #expect inside the closure would be seen by no test).
            let failures = try await StudioHarness.offThePool { () -> [String] in
                var failures: [String] = []
                for (file, seconds, date) in [(early, 2, "2020-01-01T10:00:00Z"), (long, 6, "2021-01-01T10:00:00Z")] {
                    let made = try Subprocess.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc=size=160x90:rate=30:duration=\(seconds)",
                                                             "-pix_fmt", "yuv420p", "-metadata", "creation_time=\(date)", file.path])
                    if made.status != 0 { failures.append("ffmpeg: \(made.stderr)") }
                }
                let photo = try Subprocess.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "color=c=red:size=64x48", "-frames:v", "1", late.path])
                if photo.status != 0 { failures.append("ffmpeg: \(photo.stderr)") }
                let dated = try Subprocess.run("exiftool", ["-q", "-overwrite_original", "-DateTimeOriginal=2022:01:01 10:00:00", late.path])
                if dated.status != 0 { failures.append("exiftool: \(dated.stderr)") }
                return failures
            }
            try #require(failures.isEmpty, "\(failures)")
            try Data("not a picture".utf8).write(to: source.appendingPathComponent("notes.txt"))
            try FileManager.default.copyItem(at: late, to: source.appendingPathComponent(".hidden.jpg"))
            let run = try await StudioHarness.pick([
                "order oldest", "wait library",
                "activate 1", "wait selection",
                "activate 2", "activate 0", "press done", "wait pick-ended",
            ], arguments: ["pick", "media", "--folder", source.path, "--multiple", "3", "--max-duration", "4"], in: folder)
            #expect(run.status == 0, "stderr: \(run.stderr)")
            #expect(run.events("library").last?["count"] as? Int == 3)
            #expect(run.events("selection").first?["refused"] as? String == "Longer than 0:04 (0:06)")
            let picked = try #require(try Self.result(run) as? [[String: Any]])
            #expect(picked.compactMap { $0["file"] as? String } == [late.path, early.path])
            #expect(picked.compactMap { ($0["id"] as? NSNumber)?.int64Value } == [1, 2])
            #expect(picked.compactMap { $0["kind"] as? String } == ["photo", "video"])
            #expect(picked.compactMap { $0["width"] as? Int } == [64, 160])
            #expect(picked.compactMap { $0["date"] as? String } == ["2022-01-01T10:00:00Z", "2020-01-01T10:00:00Z"])
            #expect(abs((picked.last?["duration"] as? Double ?? 0) - 2) < 0.05)
            // The folder was only read: nothing added to it.
            let names = try FileManager.default.contentsOfDirectory(atPath: source.path).sorted()
            #expect(names == [".hidden.jpg", "a-late.jpg", "b-early.mp4", "c-long.mp4", "notes.txt"])

            // A missing folder, or a file given as one: exit 1 with one line naming it, nothing on stdout.
            for bad in [folder.appendingPathComponent("nowhere"), late] {
                let failed = try await StudioHarness.pick(["wait pick-ended"], arguments: ["pick", "media", "--folder", bad.path], in: folder)
                #expect(failed.status == 1 && failed.stdout.isEmpty, "stderr: \(failed.stderr)")
                let lines = Self.messages(failed)
                #expect(lines.count == 1 && lines.first?.contains(bad.path) == true, "\(lines)")
            }
        }

        @Test("pick media --folder over 60 photos and a broken one: the window opens before the files are probed, the grid fills in name order, an item picked while it fills comes back, the broken file is refused")
        func folderFills() async throws {
            let folder = TestPaths.scratchFolder("pick-folder-fills")
            let source = folder.appendingPathComponent("shots")
            let made = try await StudioHarness.offThePool { try FixtureFactory.shotFolder(source, count: 60, brokenAfter: 30) }
            let run = try await StudioHarness.pick([
                "order oldest", "activate 0", "wait selection", "wait probed", "activate 59", "press done", "wait pick-ended",
            ], arguments: ["pick", "media", "--folder", source.path, "--multiple", "2"], in: folder)
            #expect(run.status == 0, "stderr: \(run.stderr.suffix(1000))")
            let names = run.events.compactMap { $0["event"] as? String }
            let started = try #require(names.firstIndex(of: "started"), "\(names)")
            let probed = try #require(names.firstIndex(of: "probed"), "\(names)")
            #expect(started < probed)
            // The grid was drawn half filled after the window opened: batches of 16 files, the
            // second holding the broken one.
            let libraries = run.events.enumerated().filter { $0.element["event"] as? String == "library" }
            var pending: [Int] = []
            for (_, event) in libraries {
                if let left = event["pending"] as? Int, left != pending.last { pending.append(left) }
            }
            #expect(pending == [61, 45, 29, 13, 0])
            let firstFilled = try #require(libraries.first { ($0.element["pending"] as? Int ?? 61) < 61 })
            #expect(firstFilled.offset > started)
            #expect(run.events("probed").first?["count"] as? Int == 60)
            #expect(run.events("probed").first?["refused"] as? [String] == [made.broken.lastPathComponent])
            // Picked while the grid was filling, the first item is still the first shot.
            #expect(run.events("selection").first?["ids"] as? [Int] == [1])
            let picked = try #require(try Self.result(run) as? [[String: Any]])
            #expect(picked.compactMap { ($0["id"] as? NSNumber)?.int64Value } == [1, 60])
            #expect(picked.compactMap { $0["file"] as? String } == [made.shots[0].path, made.shots[59].path])
        }

        @Test("pick media --folder --print paths: the grid starts in name order, so ids follow it; the files picked print one per line; a step failing after the pick ended leaves its exit 0")
        func printPaths() async throws {
            let folder = TestPaths.scratchFolder("pick-paths")
            let source = folder.appendingPathComponent("shots")
            // Dated oldest to newest in name order: newest first would show them reversed.
            let made = try await StudioHarness.offThePool { try FixtureFactory.shotFolder(source, count: 4, brokenAfter: 2) }
            let run = try await StudioHarness.pick([
                "wait probed", "activate 2", "activate 0", "press done", "wait pick-ended",
                "press no-such-button",
            ], arguments: ["pick", "media", "--folder", source.path, "--multiple", "2", "--print", "paths"], in: folder)
            #expect(run.status == 0, "stderr: \(run.stderr.suffix(800))")
            #expect(run.stdout == made.shots[2].path + "\n" + made.shots[0].path + "\n")
            #expect(run.events("selection").last?["ids"] as? [Int] == [3, 1])
            // The later step did fail, and said so.
            #expect(run.events("script-failed").count == 1)
            let usage = try await StudioHarness.offThePool { try Subprocess.run(TestPaths.studio, ["pick", "media", "--print", "yaml"]) }
            #expect(usage.status == 2 && usage.stderr.contains("json or paths, not 'yaml'"), "\(usage.stderr)")
        }

        @Test("a third item over --multiple 2 is refused: Up to 2 items")
        func limit() async throws {
            let folder = TestPaths.scratchFolder("pick-limit")
            let library = try await Self.library(in: folder)
            let run = try await StudioHarness.pick([
                "activate 0", "activate 1", "activate 2", "press done", "wait pick-ended",
            ], arguments: ["pick", "media", "--multiple", "2", "--library", library.folder.path], in: folder)
            #expect(run.status == 0, "stderr: \(run.stderr)")
            #expect(run.events("selection").last?["refused"] as? String == "Up to 2 items")
            let picked = try #require(try Self.result(run) as? [[String: Any]])
            #expect(picked.count == 2)
        }

        @Test("pick cover: Done writes the cover; its frame index, read from the image, is the JSON's frame")
        func cover() async throws {
            let folder = TestPaths.scratchFolder("pick-cover")
            let video = try await CoverScreenTests.clip(in: folder)
            let output = folder.appendingPathComponent("chosen.jpg")
            let run = try await StudioHarness.pick([
                "wait cover-ready", "drag-slider 0 0.5", "wait-exact", "press done", "wait pick-ended",
            ], arguments: ["pick", "cover", video.path, "-o", output.path, "--library", folder.appendingPathComponent("lib").path], in: folder)
            #expect(run.status == 0, "stderr: \(run.stderr)")
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("lib").path),
                    "a cover of a video given opens no library, and makes none")
            let object = try #require(try Self.result(run) as? [String: Any])
            #expect(object["cover"] as? String == output.path)
            #expect(object["video"] as? String == video.path)
            let frame = try #require(object["frame"] as? Int)
            let image = try StudioHarness.pixels(of: output)
            let read = image.cropped(Rect(x: 0, y: 0, width: Double(image.width), height: Double(image.height))).flatMap(FrameIndexPattern.readIndex)
            #expect(read == frame)
            #expect(frame > 0)
            let time = try #require(object["time"] as? Double)
            #expect(abs(time - Double(frame) / 30) < 1e-6)
        }

        @Test("pick cover VIDEO opens the video at most twice (one reader for frames, probe and suggestions, one keyframe demuxer) and no library, making none")
        func coverOpens() async throws {
            try #require(StudioHarness.onPath("strace"), "strace is not on PATH (apt-get install strace)")
            let folder = TestPaths.scratchFolder("pick-cover-opens")
            let video = try await CoverScreenTests.clip(in: folder)
            let home = folder.appendingPathComponent("home"), data = folder.appendingPathComponent("data")
            let log = folder.appendingPathComponent("openat.log")
            // No --library: the default one, under a fresh $XDG_DATA_HOME, is what a cover must not touch.
            let run = try await StudioHarness.pick([
                "wait cover-ready", "wait cover-suggestions", "wait cover-strip-exact", "drag-slider 0 0.5", "wait-exact",
                "press done", "wait pick-ended",
            ], arguments: ["pick", "cover", video.path, "-o", folder.appendingPathComponent("chosen.jpg").path], in: folder,
               environment: ["HOME=\(home.path)", "XDG_DATA_HOME=\(data.path)", "VIEWFINDER_LIBRARY="],
               wrapper: ["strace", "-f", "-e", "trace=openat", "-o", log.path])
            #expect(run.status == 0, "stderr: \(run.stderr.suffix(600))")
            let opens = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").filter { $0.contains("openat(") }
            let ofVideo = opens.filter { $0.contains("\"\(video.path)\"") }
            #expect(ofVideo.count >= 1 && ofVideo.count <= 2, "the video was opened \(ofVideo.count) times:\n\(ofVideo.joined(separator: "\n"))")
            // A catalogue (catalogue.sqlite, its -wal and -shm), not the SQLite library itself.
            let ofLibrary = opens.filter { $0.contains(".sqlite\"") || $0.contains(".sqlite-") || $0.contains("\(data.path)/viewfinder") }
            #expect(ofLibrary.isEmpty, "a library was opened:\n\(ofLibrary.joined(separator: "\n"))")
            #expect(!FileManager.default.fileExists(atPath: data.appendingPathComponent("viewfinder").path), "a library folder was made")
        }

        @Test("Back, Escape or a video over the limit: cancelled is exit 3 with nothing on stdout; an error is exit 1 with one line")
        func cancelAndError() async throws {
            let folder = TestPaths.scratchFolder("pick-cancel")
            let video = try await CoverScreenTests.clip(in: folder, seconds: 3)
            let lib = folder.appendingPathComponent("lib").path
            let back = try await StudioHarness.pick(["wait cover-ready", "press back", "wait pick-ended"],
                                                    arguments: ["pick", "cover", video.path, "--library", lib], in: folder)
            #expect(back.status == 3, "stderr: \(back.stderr)")
            #expect(back.stdout.isEmpty)
            let escape = try await StudioHarness.pick(["wait library", "back", "wait pick-ended"],
                                                      arguments: ["pick", "media", "--library", lib], in: folder)
            #expect(escape.status == 3, "stderr: \(escape.stderr)")
            #expect(escape.stdout.isEmpty)
            let long = try await StudioHarness.pick(["wait pick-ended"],
                                                    arguments: ["pick", "cover", video.path, "--max-duration", "2", "--library", lib], in: folder)
            #expect(long.status == 1, "stderr: \(long.stderr)")
            #expect(long.stdout.isEmpty)
            let lines = Self.messages(long)
            #expect(lines.count == 1 && lines.first?.hasPrefix("viewfinder-studio: Cannot choose a cover") == true, "\(lines)")
            // A file that is not there is refused before any window opens.
            let missing = try Subprocess.run(TestPaths.studio, ["pick", "cover", folder.appendingPathComponent("nothing.mp4").path])
            #expect(missing.status == 1 && missing.stdout.isEmpty)
            #expect(missing.stderr.split(separator: "\n").count == 1, "\(missing.stderr)")
            // A named pipe too: a reader would wait on it for ever.
            let fifo = folder.appendingPathComponent("photo.jpg")
            #expect(mkfifo(fifo.path, 0o644) == 0)
            for kind in ["avatar", "cover"] {
                let piped = try Subprocess.run(TestPaths.studio, ["pick", kind, fifo.path], timeout: 30)
                #expect(piped.status == 1 && piped.stdout.isEmpty, "pick \(kind): \(piped.status)")
                #expect(piped.stderr.split(separator: "\n").count == 1 && piped.stderr.contains("\(fifo.lastPathComponent) is not a regular file"), "\(piped.stderr)")
            }
        }

        @Test("bad usage is exit 2 with nothing on stdout; --help is exit 0", arguments: [
            ["pick"], ["pick", "gif"], ["pick", "media", "--type", "gif"], ["pick", "media", "--multiple", "0"],
            ["pick", "photo"], ["pick", "cover", "a.mp4", "b.mp4"], ["pick", "avatar", "--shape", "star"],
            ["pick", "media", "--max-duration", "-1"], ["pick", "media", "--folder", "a", "--library", "b"],
            ["pick", "media", "--folder", "a", "--camera"],
        ])
        func usage(_ arguments: [String]) throws {
            let run = try Subprocess.run(TestPaths.studio, arguments)
            #expect(run.status == 2, "\(arguments): \(run.stderr)")
            #expect(run.stdout.isEmpty)
            #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
        }

        @Test("pick --help lists the four kinds and the exit statuses")
        func help() throws {
            let run = try Subprocess.run(TestPaths.studio, ["pick", "--help"])
            #expect(run.status == 0)
            for word in ["pick media", "pick cover", "pick avatar", "pick photo --camera", "pick video --camera", "--folder DIR", "--edit", "exit 3", "exit 1", "exit 2"] {
                #expect(run.stdout.contains(word), "\(word)")
            }
        }

        @Test("pick avatar: the avatar written is byte-equal to the CLI's replay of the returned spec")
        func avatar() async throws {
            let folder = TestPaths.scratchFolder("pick-avatar")
            let photo = try StudioHarness.copy(media: "images/exif_orient6_samsung_galaxyS.jpg", to: folder, as: "face.jpg")
            let output = folder.appendingPathComponent("me.png")
            let run = try await StudioHarness.pick([
                "wait avatar-ready", "pan 40 -25", "zoom 1.5 240 240", "press done", "wait pick-ended",
            ], arguments: ["pick", "avatar", photo.path, "--size", "256", "-o", output.path,
                           "--library", folder.appendingPathComponent("lib").path], in: folder)
            #expect(run.status == 0, "stderr: \(run.stderr)")
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("lib").path),
                    "an avatar of a photo given opens no library, and makes none")
            let object = try #require(try Self.result(run) as? [String: Any])
            #expect(object["original"] as? String == photo.path)
            #expect(object["avatar"] as? String == output.path)
            let spec = try #require(object["spec"] as? [String: Any])
            #expect(try StudioHarness.matchesReplay(output, photo: photo, spec: JSONSerialization.data(withJSONObject: spec), in: folder))
            let pixels = try StudioHarness.pixels(of: output)
            #expect(pixels.width == 256 && pixels.height == 256)
        }

        @Test("pick photo --camera: Take Photo prints the info object (media type, original, metadata)")
        func cameraPhoto() async throws {
            let folder = TestPaths.scratchFolder("pick-photo")
            let run = try await StudioHarness.pick([
                "wait camera-preview", "press photo", "wait pick-ended",
            ], arguments: ["pick", "photo", "--camera", "--device", "virtual", "--library", folder.appendingPathComponent("lib").path],
               in: folder)
            #expect(run.status == 0, "stderr: \(run.stderr)")
            let object = try #require(try Self.result(run) as? [String: Any])
            #expect(object["mediaType"] as? String == "photo")
            let original = try #require(object["original"] as? String)
            let photo = try Photo(url: URL(fileURLWithPath: original))
            let metadata = try #require(object["metadata"] as? [String: Any])
            #expect(metadata["width"] as? Int == photo.size.width && metadata["height"] as? Int == photo.size.height)
            #expect(metadata["device"] as? String == "virtual")
        }

        @Test("pick photo --camera --print paths: the photo's path (a photo's result has no `file`, and nothing was printed)")
        func cameraPhotoPath() async throws {
            let folder = TestPaths.scratchFolder("pick-photo-path")
            let run = try await StudioHarness.pick([
                "wait camera-preview", "press photo", "wait pick-ended",
            ], arguments: ["pick", "photo", "--camera", "--device", "virtual", "--print", "paths",
                           "--library", folder.appendingPathComponent("lib").path], in: folder)
            #expect(run.status == 0, "stderr: \(run.stderr)")
            let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.count == 2 && lines[1].isEmpty, "one path, one line: \(run.stdout)")
            let photo = try Photo(url: URL(fileURLWithPath: String(lines[0])))
            #expect(photo.size.width > 0)
        }

        @Test("pick video --camera --max-duration 1 --quality low: Record stops itself after a second and prints the video's info")
        func cameraVideo() async throws {
            let folder = TestPaths.scratchFolder("pick-video")
            let run = try await StudioHarness.pick([
                "wait camera-preview", "press record", "wait pick-ended 30",
            ], arguments: ["pick", "video", "--camera", "--device", "virtual", "--max-duration", "1", "--quality", "low",
                           "--library", folder.appendingPathComponent("lib").path], in: folder)
            #expect(run.status == 0, "stderr: \(run.stderr)")
            #expect(try run.event("recording")["quality"] as? String == "low")
            #expect(try run.event("recording")["limit"] as? Int == 1)
            let object = try #require(try Self.result(run) as? [String: Any])
            #expect(object["mediaType"] as? String == "video")
            let file = try #require(object["file"] as? String)
            #expect(object["original"] as? String == file)
            let probe = try FFprobe.description(of: URL(fileURLWithPath: file))
            let format = try #require(probe["format"] as? [String: Any])
            let seconds = try #require((format["duration"] as? String).flatMap(Double.init))
            #expect(seconds > 0.5 && seconds <= 1.1, "\(seconds) s")
        }
    }
}
