import Foundation
import Imaging
import Testing
import ViewfinderCore
import ViewfinderTestSupport

extension StudioWindowTests {
    @Suite("Studio: cover chooser")
    struct CoverScreenTests {
        /// A 6 s, 30 fps clip whose frames draw their index; keyframes every 2 s (frames 0, 60, 120).
        static func clip(in folder: URL, name: String = "clip.mp4", seconds: Int = 6, size: String = "640x360") async throws -> URL {
            let url = folder.appendingPathComponent(name)
            let made = try await StudioHarness.offThePool {
                try Subprocess.run(TestPaths.tool, ["sample", "-o", url.path, "--seconds", "\(seconds)", "--size", size])
            }
            try #require(made.status == 0, "sample failed: \(made.stderr)")
            return url
        }

        /// The frame index drawn in a preview screenshot, read from the picture's index bar.
        static func index(in screenshot: URL, imageRect: [Double]) throws -> Int? {
            let image = try StudioHarness.pixels(of: screenshot)
            let rect = Rect(x: imageRect[0], y: imageRect[1], width: imageRect[2], height: imageRect[3])
            return image.cropped(rect).flatMap(FrameIndexPattern.readIndex)
        }

        @Test("the preview shows frame 0 on opening and the exact frame (90, not keyframe 60) after the slider moves to the middle; Done saves that frame beside the video")
        func sliderShowsExactFrame() async throws {
            let folder = TestPaths.scratchFolder("studio-cover")
            let video = try await Self.clip(in: folder)
            let before = folder.appendingPathComponent("before.png").path
            let after = folder.appendingPathComponent("after.png").path
            let window = folder.appendingPathComponent("window.png").path
            let run = try await StudioHarness.run([
                "wait cover-ready",
                "screenshot \(before) preview",
                "drag-slider 0 0.5",
                "wait-exact",
                "screenshot \(after) preview",
                "screenshot \(window)",
                "press done",
                "wait cover-saved",
            ], arguments: ["--library", folder.appendingPathComponent("lib").path, "--cover", video.path], in: folder)
            #expect(run.status == 0, "stderr: \(run.stderr)")

            let shots = run.events("screenshot")
            try #require(shots.count == 3)
            let first = try #require(shots[0]["image"] as? [Double])
            let second = try #require(shots[1]["image"] as? [Double])
            #expect(try Self.index(in: URL(fileURLWithPath: before), imageRect: first) == 0)
            #expect(try Self.index(in: URL(fileURLWithPath: after), imageRect: second) == 90)

            // While dragging the keyframe stand-in showed first; the last preview is exact at 3 s.
            let previews = run.events("cover-preview")
            #expect(previews.contains { $0["exact"] as? Bool == false && $0["time"] as? Double == 2 })
            let last = try #require(previews.last)
            #expect(last["exact"] as? Bool == true && last["time"] as? Double == 3)
            #expect(abs((last["slider"] as? Double ?? 0) - 0.5) < 1e-9)

            let saved = try run.event("cover-saved")
            #expect(saved["time"] as? Double == 3)
            let path = try #require(saved["path"] as? String)
            #expect(path == folder.appendingPathComponent("clip cover.jpg").path)
            let cover = try Photo(url: URL(fileURLWithPath: path))
            #expect(cover.size == PixelSize(width: 640, height: 360))
            let picture = try cover.preview(fitting: cover.size)
            #expect(picture.cropped(Rect(x: 0, y: 0, width: 640, height: 360)).flatMap(FrameIndexPattern.readIndex) == 90)
            // The confirmation is a toast (libadwaita's), not the HUD.
            #expect(run.events("toast").compactMap { $0["title"] as? String } == ["Cover saved as clip cover.jpg"])
        }

        @Test("the strip shows six different frames, fast ones first, then each cell's exact frame at i·d/6")
        func stripBecomesExact() async throws {
            let folder = TestPaths.scratchFolder("studio-strip")
            // 5 s: slices of 25 frames, keyframes at 0, 60 and 120.
            let video = try await Self.clip(in: folder, seconds: 5)
            let shot = folder.appendingPathComponent("strip.png")
            let run = try await StudioHarness.run([
                "wait cover-ready",
                "wait cover-strip-exact",
                "screenshot \(shot.path) strip",
            ], arguments: ["--library", folder.appendingPathComponent("lib").path, "--cover", video.path], in: folder)
            #expect(run.status == 0, "stderr: \(run.stderr)")
            let frames = { (times: [Double]) in times.map { Int(($0 * 30).rounded()) } }
            // Fast: each slice's own keyframe (60, 120), else its first frame.
            #expect(frames(try run.event("cover-ready")["strip"] as? [Double] ?? []) == [0, 25, 60, 75, 120, 125])
            #expect(frames(try run.event("cover-strip-exact")["strip"] as? [Double] ?? []) == [0, 25, 50, 75, 100, 125])
            let cells = run.events("strip-cell")
            #expect(cells.map { $0["index"] as? Int } == [2, 4])
            #expect(cells.allSatisfy { $0["exact"] as? Bool == true })
            // What is painted: cells 1-5 (the thumb covers cell 0) read back from the screenshot.
            let image = try StudioHarness.pixels(of: shot)
            let width = Double(image.width) / 6
            let painted = (1..<6).map { i in
                image.cropped(Rect(x: Double(i) * width, y: 6, width: width, height: Double(image.height) - 12)).flatMap(FrameIndexPattern.readIndex)
            }
            #expect(painted == [25, 50, 75, 100, 125])
        }

        @Test("a video over 30 s is refused from its header before any conversion, with the error HUD")
        func longVideoRefused() async throws {
            let folder = TestPaths.scratchFolder("studio-cover-long")
            let video = try await Self.clip(in: folder, name: "long.mov", seconds: 31, size: "128x72")
            let shot = folder.appendingPathComponent("refused.png")
            let run = try await StudioHarness.run([
                "wait error",
                "wait-hud visible",
                "screenshot \(shot.path) hud",
            ], arguments: ["--library", folder.appendingPathComponent("lib").path, "--cover", video.path], in: folder)
            #expect(run.status == 0, "stderr: \(run.stderr)")
            let error = try run.event("error")
            #expect((error["message"] as? String)?.contains("30") == true)
            #expect(run.events("converting").isEmpty)
            #expect(run.events("cover-ready").isEmpty)
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("cache/viewfinder/Converted").path))
            #expect(try StudioHarness.showsHUDBox(shot))
        }

        @Test("a MOV is converted to MP4 under the HUD first, then opened")
        func movConverted() async throws {
            let folder = TestPaths.scratchFolder("studio-cover-mov")
            let mp4 = try await Self.clip(in: folder, seconds: 3)
            let mov = folder.appendingPathComponent("clip.mov")
            try FileManager.default.copyItem(at: mp4, to: mov)
            let run = try await StudioHarness.run([
                "wait converted",
                "wait cover-ready",
            ], arguments: ["--library", folder.appendingPathComponent("lib").path, "--cover", mov.path], in: folder)
            #expect(run.status == 0, "stderr: \(run.stderr)")
            let output = try #require(try run.event("converted")["output"] as? String)
            #expect(output.hasPrefix(folder.appendingPathComponent("cache/viewfinder/Converted").path))
            #expect(output.hasSuffix(".mp4"))
            let probe = try FFprobe.description(of: URL(fileURLWithPath: output))
            let format = try #require(probe["format"] as? [String: Any])
            #expect((format["format_name"] as? String)?.contains("mp4") == true)
            #expect(try run.event("cover-ready")["duration"] as? Double == 3)
        }
    }
}
