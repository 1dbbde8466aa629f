import Foundation
import Imaging
import MediaLibrary
import Testing
import ViewfinderCore
import ViewfinderTestSupport

extension StudioWindowTests {
    @Suite("Studio: library and camera")
    struct LibraryScreenTests {
        @Test("import a photo, a video and a broken file: two land in the grid with thumbnails, the broken one is reported; filters and groups narrow the grid; the video opens in the cover chooser (its cover goes to the Covers album), the photo in the avatar editor")
        func importBrowseOpen() async throws {
            let folder = TestPaths.scratchFolder("studio-library")
            let photo = try StudioHarness.copy(media: "images/progressive_beach_icc.jpg", to: folder, as: "beach.jpg")
            let video = try await CoverScreenTests.clip(in: folder, seconds: 2)
            let broken = folder.appendingPathComponent("broken.jpg")
            try Data("not a picture at all".utf8).write(to: broken)
            let grid = folder.appendingPathComponent("grid.png")
            let run = try await StudioHarness.run([
                "wait library",
                "import \(photo.path) \(video.path) \(broken.path)",
                "wait imported",
                "wait thumbnail",
                "wait thumbnail",
                "wait-hud hidden",
                "screenshot \(grid.path)",
                "filter photos",
                "filter videos",
                "filter all",
                "group Captures",
                "group All",
                "open-asset 0",
                "wait cover-ready",
                "press done",
                "wait cover-saved",
                "group Covers",
                "group All",
                "open-asset 2",
                "wait avatar-ready",
            ], arguments: ["--library", folder.appendingPathComponent("lib").path], in: folder)
            #expect(run.status == 0, "stderr: \(run.stderr)")
            let imported = try run.event("imported")
            #expect(imported["imported"] as? Int == 2 && imported["failed"] as? Int == 1)
            let failures = try #require(imported["failures"] as? [String])
            #expect(failures.count == 1 && failures[0].contains("broken.jpg"))
            let counts = run.events("library").map { ($0["filter"] as? String ?? "", $0["group"] as? String ?? "", $0["count"] as? Int ?? -1) }
            let initial = try #require(counts.first)
            #expect(initial == ("all", "all", 0))
            #expect(counts.contains { $0 == ("all", "all", 2) })
            #expect(counts.contains { $0 == ("photos", "all", 1) })
            #expect(counts.contains { $0 == ("videos", "all", 1) })
            #expect(counts.contains { $0 == ("all", "captures", 0) })
            // The sample clip was made after the photo's EXIF date, so it is first (newest first)…
            #expect(run.events("open").map { $0["kind"] as? String } == ["video", "photo"])
            #expect(run.events("screen").compactMap { $0["name"] as? String } == ["Library", "Set cover", "Library", "Choose avatar"])
            // The cover of a library video goes back into the library, in the Covers album.
            let cover = try #require(try run.event("cover-saved")["path"] as? String)
            #expect(cover.hasPrefix(folder.appendingPathComponent("lib/originals").path) && cover.hasSuffix(".jpg"))
            #expect(counts.contains { $0 == ("all", "album(\"Covers\")", 1) })
            // …and both cells show a picture, not the empty grid's white.
            let image = try StudioHarness.pixels(of: grid)
            let shot = try run.event("screenshot")
            #expect(shot["width"] as? Int == image.width)
            let cells = [image.meanColour(Rect(x: 240, y: 160, width: 120, height: 100)),
                         image.meanColour(Rect(x: 430, y: 160, width: 120, height: 100))]
            for cell in cells {
                #expect(cell.r + cell.g + cell.b < 3 * 235, "a grid cell is blank: \(cell)")
            }
        }

        @Test("Done on a library video makes that frame its poster in the grid, and it stays after a restart")
        func posterFromCover() async throws {
            let folder = TestPaths.scratchFolder("studio-poster")
            let video = try await CoverScreenTests.clip(in: folder, seconds: 6)
            let library = folder.appendingPathComponent("lib")
            let first = try await StudioHarness.run([
                "wait library",
                "import \(video.path)",
                "wait imported",
                "wait thumbnail",
                "open-asset 0",
                "wait cover-ready",
                "drag-slider 0 0.5",
                "wait-exact",
                "press done",
                "wait poster-set",
                "wait cover-saved",
                "wait thumbnail",
                "wait thumbnail",
            ], arguments: ["--library", library.path], in: folder)
            #expect(first.status == 0, "stderr: \(first.stderr)")
            let poster = try first.event("poster-set")
            #expect(poster["time"] as? Double == 3)
            let videoID = try #require(poster["id"] as? Int)
            #expect(first.events("thumbnail").contains { $0["id"] as? Int == videoID && $0["poster"] as? Double == 3 },
                    "the grid shows the new poster: \(first.events("thumbnail"))")

            let second = try await StudioHarness.run(["wait library", "wait thumbnail", "wait thumbnail"],
                                                     arguments: ["--library", library.path], in: folder)
            #expect(second.status == 0, "stderr: \(second.stderr)")
            #expect(second.events("thumbnail").contains { $0["id"] as? Int == videoID && $0["poster"] as? Double == 3 })
            // The poster is the exact frame 90 (3 s at 30 fps), read back from a fit thumbnail.
            let out = folder.appendingPathComponent("poster.png")
            let made = try await StudioHarness.offThePool {
                try Subprocess.run(TestPaths.tool, ["library", "--library", library.path, "thumbnail", "\(videoID)", "--size", "640", "-o", out.path])
            }
            #expect(made.status == 0, "\(made.stderr)")
            let image = try StudioHarness.pixels(of: out)
            #expect(image.cropped(Rect(x: 0, y: 0, width: Double(image.width), height: Double(image.height))).flatMap(FrameIndexPattern.readIndex) == 90)
        }

        @Test("with the virtual camera: live preview, a photo and a recording with its countdown land in Captures")
        func camera() async throws {
            let folder = TestPaths.scratchFolder("studio-camera")
            let shot = folder.appendingPathComponent("camera.png")
            let run = try await StudioHarness.run([
                "wait camera-preview",
                "press photo",
                "wait photo-saved",
                "press 10s",
                "press low",
                "press record",
                "wait countdown",
                "wait countdown",
                "wait countdown",
                "screenshot \(shot.path)",
                "press record",
                "wait recording-saved 30",
                "back",
                "group Captures",
            ], arguments: ["--library", folder.appendingPathComponent("lib").path, "--device", "virtual", "--camera"], in: folder)
            #expect(run.status == 0, "stderr: \(run.stderr)")
            let preview = try run.event("camera-preview")
            #expect(preview["width"] as? Int == 640 && preview["height"] as? Int == 480)
            let photo = try run.event("photo-saved")
            #expect((photo["path"] as? String)?.hasSuffix(".jpg") == true)
            let recording = try run.event("recording")
            #expect(recording["quality"] as? String == "low" && recording["limit"] as? Int == 10)
            let countdown = run.events("countdown").compactMap { $0["remaining"] as? Double }
            #expect(countdown.count >= 3)
            #expect(try #require(countdown.first) <= 10)
            #expect(zip(countdown, countdown.dropFirst()).allSatisfy { $0 >= $1 })
            let saved = try run.event("recording-saved")
            let duration = try #require(saved["duration"] as? Double)
            #expect(duration > 0.3 && duration < 10)
            let path = try #require(saved["path"] as? String)
            let frames = try FFprobe.frames(of: URL(fileURLWithPath: path))
            #expect(frames.timestamps.count >= 10)
            #expect(run.events("library").last?["count"] as? Int == 2)
            #expect(run.events("library").last?["group"] as? String == "captures")
            #expect(FileManager.default.fileExists(atPath: shot.path))
        }

        @Test("Cancel while recording throws the recording away: nothing lands in Captures")
        func cameraCancel() async throws {
            let folder = TestPaths.scratchFolder("studio-camera-cancel")
            let run = try await StudioHarness.run([
                "wait camera-preview",
                "press low",
                "press record",
                "wait countdown",
                "wait countdown",
                "press cancel",
                "wait recording-discarded 30",
                "back",
                "group Captures",
            ], arguments: ["--library", folder.appendingPathComponent("lib").path, "--device", "virtual", "--camera"], in: folder)
            #expect(run.status == 0, "stderr: \(run.stderr)")
            #expect(run.events("recording").count == 1)
            _ = try run.event("recording-discarded")
            #expect(run.events("recording-saved").isEmpty)
            #expect(run.events("library").last?["group"] as? String == "captures")
            #expect(run.events("library").last?["count"] as? Int == 0)
        }

        @Test("without a camera the camera screen is refused with a clear error")
        func noCamera() async throws {
            let folder = TestPaths.scratchFolder("studio-no-camera")
            let run = try await StudioHarness.run(["open-camera", "wait error"],
                                            arguments: ["--library", folder.appendingPathComponent("lib").path], in: folder)
            #expect(run.status == 0, "stderr: \(run.stderr)")
            #expect((try run.event("error")["message"] as? String)?.contains("--device virtual") == true)
            #expect(run.events("camera-preview").isEmpty)
        }
    
        @Test("a grid of 1000 photos makes cells only for what is near the screen; scrolled to the end, the oldest show their own thumbnails")
        func thousandItems() async throws {
            let folder = TestPaths.scratchFolder("studio-thousand")
            let source = folder.appendingPathComponent("photos")
            try FileManager.default.createDirectory(at: source, withIntermediateDirectories: true)
            // Photo k is taken k minutes after the first, and draws its k as the index bar.
            let library = folder.appendingPathComponent("lib")
            let report = try await StudioHarness.offThePool {
                let files = try (0..<1000).map { k in
                    let url = source.appendingPathComponent("p\(k).jpg")
                    try ImageEncoder.writePhoto(FrameIndexPattern.render(index: k, size: PixelSize(width: 96, height: 96)), to: url,
                                                takenAt: Date(timeIntervalSince1970: 1_700_000_000 + Double(k) * 60))
                    return url
                }
                return LibraryImporter(folder: library).run(files, progress: Progress(totalUnitCount: 1))
            }
            try #require(report.imported.count == 1000, "\(report.duplicates) duplicates, \(report.failures.prefix(3))")
            let end = folder.appendingPathComponent("end.png")
            let run = try await StudioHarness.run([
                "wait library",
                "scroll-grid 1",
                "sleep 1.5",
                "screenshot \(end.path) grid",
            ], arguments: ["--library", library.path], in: folder)
            #expect(run.status == 0, "stderr: \(run.stderr)")
            let scrolled = try run.event("scrolled")
            let cells = try #require(scrolled["cells"] as? Int)
            #expect(cells > 0 && cells < 500, "\(cells) cells for 1000 items")
            // Newest first, the last row ends with photos 1 and 0; each cell shows its own
            // picture (the index bar read back from the screenshot).
            let image = try StudioHarness.pixels(of: end)
            let shot = try run.event("screenshot")
            #expect(shot["width"] as? Int == image.width)
            let last = try #require(Self.picture(in: image, endingBefore: image.width - 12))
            #expect(image.cropped(last).flatMap(FrameIndexPattern.readIndex) == 0)
            let before = try #require(Self.picture(in: image, endingBefore: Int(last.minX) - 1))
            #expect(image.cropped(before).flatMap(FrameIndexPattern.readIndex) == 1)
        }

        /// The bottom row's picture whose right edge is the first non-white column left of `x`
        /// (the grid's cells are separated by white gutters).
        static func picture(in image: RasterImage, endingBefore x: Int) -> Rect? {
            func isWhite(_ px: Int, _ py: Int) -> Bool {
                let p = image[px, py]
                return p[p.startIndex] > 245 && p[p.startIndex + 1] > 245 && p[p.startIndex + 2] > 245
            }
            let probeY = image.height - 60
            guard var right = (0..<x).reversed().first(where: { !isWhite($0, probeY) }) else { return nil }
            var left = right
            while left > 0, !isWhite(left - 1, probeY) { left -= 1 }
            right += 1
            let probeX = (left + right) / 2
            guard var bottom = (0..<image.height).reversed().first(where: { !isWhite(probeX, $0) }) else { return nil }
            var top = bottom
            while top > 0, !isWhite(probeX, top - 1) { top -= 1 }
            bottom += 1
            return Rect(x: Double(left), y: Double(top), width: Double(right - left), height: Double(bottom - top))
        }
    }
}
