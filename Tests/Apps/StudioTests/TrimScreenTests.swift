import Foundation
import Testing
import ViewfinderCore
import ViewfinderTestSupport

extension StudioWindowTests {
    @Suite("Studio: trim and the HUD")
    struct TrimScreenTests {
        @Test("the handles keep 1.5–4.5 s; Play shows exactly frames 45…134; Export writes 3 s (90 frames) beside the video")
        func trimPlayExport() async throws {
            let folder = TestPaths.scratchFolder("studio-trim")
            let video = try await CoverScreenTests.clip(in: folder)
            let shot = folder.appendingPathComponent("trim.png")
            let run = try await StudioHarness.run([
                "wait trim-ready",
                "trim-start 0.25",
                "trim-end 0.75",
                "press play",
                "wait played 20",
                "screenshot \(shot.path)",
                "press export",
                "wait export-saved 60",
            ], arguments: ["--library", folder.appendingPathComponent("lib").path, "--trim", video.path], in: folder)
            #expect(run.status == 0, "stderr: \(run.stderr)")
            let played = try run.event("played")
            #expect(played["frames"] as? Int == 90)
            #expect(played["first"] as? Double == 1.5)
            #expect(abs((played["last"] as? Double ?? 0) - 134.0 / 30) < 1e-9)
            let exporting = try run.event("exporting")
            #expect(exporting["start"] as? Double == 1.5 && exporting["end"] as? Double == 4.5)
            let saved = try run.event("export-saved")
            #expect(saved["frames"] as? Int == 90)
            #expect(saved["duration"] as? Double == 3)
            let path = try #require(saved["path"] as? String)
            #expect(path == folder.appendingPathComponent("clip trimmed.mp4").path)
            let frames = try FFprobe.frames(of: URL(fileURLWithPath: path))
            #expect(frames.timestamps.count == 90)
            #expect(FileManager.default.fileExists(atPath: shot.path))
        }

        @Test("two marked ranges (1.5–3 s, then 0.3–1 s) export joined, frame-exactly")
        func markedRanges() async throws {
            let folder = TestPaths.scratchFolder("studio-ranges")
            let video = try await CoverScreenTests.clip(in: folder)
            let run = try await StudioHarness.run([
                "wait trim-ready",
                // A GTK button reports a click a moment after it is activated: wait for each.
                "trim-start 0.25", "trim-end 0.5", "press mark", "wait range-marked",
                "trim-start 0.05", "trim-end 0.1666", "press mark", "wait range-marked",
                "trim-start 0.2", "trim-end 0.3", "press mark", "wait range-marked",
                "press export",
                "wait export-saved 60",
            ], arguments: ["--library", folder.appendingPathComponent("lib").path, "--trim", video.path], in: folder)
            #expect(run.status == 0, "stderr: \(run.stderr)")
            #expect(run.events("range-marked").map { $0["marked"] as? Bool } == [true, true, false], "the third overlaps the first")
            #expect(try run.event("exporting")["ranges"] as? Int == 2)
            let saved = try run.event("export-saved")
            #expect(saved["frames"] as? Int == 45 + 21)
            let path = try #require(saved["path"] as? String)
            let indices = try FFmpegOracle.drawnIndices(of: URL(fileURLWithPath: path), size: PixelSize(width: 640, height: 360))
            #expect(indices == Array(45..<90) + Array(9..<30))
        }

        @Test("the export HUD stays away during its grace time, then shows; its Cancel stops the export and leaves no file")
        func cancelExport() async throws {
            let folder = TestPaths.scratchFolder("studio-cancel")
            let sample = try await CoverScreenTests.clip(in: folder, name: "sample.mp4", seconds: 24)
            // One group of pictures: a trim from 0.24 s has no IDR to copy from, so it re-encodes
            // all 23.76 s, long enough for the HUD to show and be cancelled.
            let video = folder.appendingPathComponent("long.mp4")
            let made = try await StudioHarness.offThePool {
                try Subprocess.run("ffmpeg", ["-v", "error", "-i", sample.path, "-c:v", "libx264", "-preset", "ultrafast",
                                              "-g", "1000", "-keyint_min", "1000", "-sc_threshold", "0", video.path])
            }
            try #require(made.status == 0, "\(made.stderr)")
            let early = folder.appendingPathComponent("grace.png")
            let shown = folder.appendingPathComponent("shown.png")
            let after = folder.appendingPathComponent("cancelled.png")
            let window = folder.appendingPathComponent("window.png")
            let run = try await StudioHarness.run([
                "wait trim-ready",
                "trim-start 0.01",
                "press export",
                "wait-hud waitingForGraceTime",
                "screenshot \(early.path) hud",
                "wait-hud visible",
                "screenshot \(shown.path) hud",
                "screenshot \(window.path)",
                "press hud",
                "wait export-cancelled 30",
                "wait-hud visible",
                "screenshot \(after.path) hud",
            ], arguments: ["--library", folder.appendingPathComponent("lib").path, "--trim", video.path], in: folder)
            #expect(run.status == 0, "stderr: \(run.stderr)")
            let exporting = try run.event("exporting")
            let output = try #require(exporting["output"] as? String)
            let phases = run.events("hud")
            let waiting = try #require(phases.first { $0["phase"] as? String == "waitingForGraceTime" })
            let appearing = try #require(phases.first { $0["phase"] as? String == "appearing" })
            let waited = StudioRun.time(appearing) - StudioRun.time(waiting)
            // Never before the grace time (0.3 s). Each event is stamped a little after the HUD
            // read its own clock, so the two stamps may be closer than the clock's 0.3 s by that
            // much (once 34 µs, against the export's stamp): 10 ms is allowed for it. How long
            // after the grace time the HUD shows is the machine's speed, not asserted here; that
            // it shows is the screenshot's.
            #expect(waited >= 0.29, "the HUD appeared \(waited) s after its grace time began")
            #expect(try StudioHarness.isEmptyOverlay(early))
            #expect(try StudioHarness.showsHUDBox(shown))
            let cancelled = try run.event("export-cancelled")
            #expect(cancelled["exists"] as? Bool == false)
            #expect(!FileManager.default.fileExists(atPath: output))
            #expect(run.events("export-saved").isEmpty)
            #expect(try StudioHarness.showsHUDBox(after))
        }
    }
}
