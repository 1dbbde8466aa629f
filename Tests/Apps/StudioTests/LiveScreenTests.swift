import Foundation
import Imaging
import MediaLibrary
import Testing
import ViewfinderCore
import ViewfinderTestSupport

extension StudioWindowTests {
    @Suite("Studio: Live Photos and Save into video")
    struct LiveScreenTests {
        @Test("a Live Photo's cell says Live; it opens over its motion, Play plays it (exact frames advance), Done sets its key photo")
        func livePhoto() async throws {
            let folder = TestPaths.scratchFolder("studio-live")
            let still = try StudioHarness.copy(media: "images/iphone13pro_livephoto_still_small.HEIC", to: folder, as: "IMG_7943.HEIC")
            let movie = try StudioHarness.copy(media: "phone_video/iphone13pro_livephoto_companion_h264_vfr.MOV", to: folder, as: "IMG_7943.MOV")
            let run = try await StudioHarness.run([
                "wait library",
                "import \(still.path) \(movie.path)",
                "wait imported",
                "wait thumbnail",
                "open-asset 0",
                "wait cover-ready",
                "press play",
                "wait playback",
                "wait playback 60",
                "slider 0.5",
                "wait-exact",
                "press done",
                "wait key-photo-set",
            ], arguments: ["--library", folder.appendingPathComponent("lib").path], in: folder)
            #expect(run.status == 0, "stderr: \(run.stderr)")
            #expect(try run.event("imported")["imported"] as? Int == 1, "one asset for the pair")
            // (A cell may show the still a moment before its movie joins it.)
            let imported = try #require(run.events.firstIndex { $0["event"] as? String == "imported" })
            let cells = run.events[imported...].filter { $0["event"] as? String == "thumbnail" }
            #expect(cells.first?["badge"] as? String == "Live", "\(cells)")
            #expect(try run.event("open")["kind"] as? String == "live")
            // The screen reads the library's stored motion, not a conversion of it.
            let playback = run.events("playback")
            #expect(playback.map { $0["playing"] as? Bool } == [true, false])
            #expect((playback.first?["video"] as? String)?.hasSuffix(".mov") == true, "\(playback)")
            // Between Play and its end, the exact previews move forward frame by frame to the end.
            let all = run.events
            let start = try #require(all.firstIndex { $0["event"] as? String == "playback" })
            let end = try #require(all.lastIndex { $0["event"] as? String == "playback" })
            let times = all[start...end].filter { $0["event"] as? String == "cover-preview" && $0["exact"] as? Bool == true }
                .compactMap { $0["time"] as? Double }
            #expect(times.count >= 40, "the motion's ~58 frames played: \(times.count)")
            // (A frame is shown again while a step crosses one of this variable-rate motion's gaps.)
            #expect(times.first == 0 && zip(times, times.dropFirst()).allSatisfy { $0 <= $1 }, "\(times)")
            #expect(Set(times).count >= 50, "\(Set(times).count) different frames of 59")
            #expect(times.last == 1.9, "it plays to the motion's last frame, at 1.9 s (ffprobe): \(times.last ?? 0)")
            let key = try run.event("key-photo-set")
            #expect(key["time"] as? Double ?? 0 > 0.8 && key["time"] as? Double ?? 0 < 1.1, "\(key)")
            let library = try MediaLibrary(folder: folder.appendingPathComponent("lib"), readOnly: true)
            let asset = try #require(try library.assets().first)
            #expect(asset.kind == .live && abs((asset.posterTime?.seconds ?? -1) - (key["time"] as? Double ?? 0)) < 1e-9, "the catalogue keeps the key photo: \(String(describing: asset.posterTime)) \(key)")
        }

        @Test("Save into video writes the video beside the input, packets copied, with the frame shown inside it as its cover")
        func saveIntoVideo() async throws {
            let folder = TestPaths.scratchFolder("studio-save-into-video")
            let clip = try await CoverScreenTests.clip(in: folder, seconds: 2, size: "320x180")
            let run = try await StudioHarness.run([
                "open-cover \(clip.path)",
                "wait cover-ready",
                "slider 0.5",
                "wait-exact",
                "press save-into-video",
                "wait saved-into-video",
                "wait-hud hidden",
            ], arguments: [], in: folder)
            #expect(run.status == 0, "stderr: \(run.stderr)")
            let saved = URL(fileURLWithPath: try #require(try run.event("saved-into-video")["path"] as? String))
            #expect(saved.path == folder.appendingPathComponent("clip with cover.mp4").path)
            let shown = try #require(run.events("cover-preview").last { $0["exact"] as? Bool == true }?["time"] as? Double)
            // ffprobe sees one attached picture; it draws the frame that was shown (30 fps).
            let streams = try Subprocess.run("ffprobe", ["-v", "error", "-show_entries", "stream=index:stream_disposition=attached_pic",
                                                         "-of", "csv=p=0", saved.path]).stdout
            let attached = streams.split(separator: "\n").filter { $0.hasSuffix(",1") }
            #expect(attached.count == 1, "\(streams)")
            let index = try #require(attached.first?.split(separator: ",").first.map(String.init))
            let jpeg = folder.appendingPathComponent("attached.jpg")
            let copied = try Subprocess.run("ffmpeg", ["-v", "error", "-y", "-i", saved.path, "-map", "0:\(index)", "-c", "copy", "-frames:v", "1", jpeg.path])
            #expect(copied.status == 0, "\(copied.stderr)")
            let picture = try StudioHarness.pixels(of: jpeg)
            let drawn = picture.cropped(Rect(x: 0, y: 0, width: Double(picture.width), height: Double(picture.height))).flatMap(FrameIndexPattern.readIndex)
            #expect(drawn == Int((shown * 30).rounded()), "cover draws \(drawn ?? -1), the screen showed \(shown) s")
            #expect(try FFmpegOracle.packetHashes(of: saved) == FFmpegOracle.packetHashes(of: clip), "video packets copied as they are")
            #expect(run.events("hud").contains { $0["phase"] as? String != "hidden" }, "the HUD said so")
        }
    }
}
