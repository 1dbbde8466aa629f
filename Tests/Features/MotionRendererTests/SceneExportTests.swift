import Foundation
import Motion
import Testing
import ViewfinderCore
import ViewfinderTestSupport

@testable import MotionRenderer

/// Rendering a scene to a file lives below the front ends; the CLI's `animate` is a caller.
@Suite("Scene export")
struct SceneExportTests {
    static let scene = ##"{"size": [64, 48], "duration": 1, "background": "#000000", "layers": [{"position": [32, 24], "bounds": [0, 0, 20, 20], "backgroundColor": "#ff0000", "sprites": [{"kind": "move", "to": [50, 24], "duration": 1}]}]}"##

    func export(_ format: SceneExport.Format, fps: Int = 10, duration: Double = 1) throws -> SceneExport {
        try SceneExport(scene: try Scene.parse(Data(Self.scene.utf8)), imageDirectory: TestPaths.repository,
                        format: format, fps: fps, duration: duration)
    }

    @Test("MP4 and GIF: one frame per 1/fps, counted on the progress", arguments: [SceneExport.Format.mp4, .gif])
    func frames(_ format: SceneExport.Format) throws {
        let out = TestPaths.scratchFolder("scene-export").appendingPathComponent("s.\(format.rawValue)")
        let progress = Progress(totalUnitCount: 1)
        try export(format).write(to: out, as: format, progress: progress)
        #expect(progress.totalUnitCount == 10 && progress.completedUnitCount == 10)
        let probe = try Subprocess.run("ffprobe", ["-v", "error", "-count_frames", "-select_streams", "v:0",
                                                   "-show_entries", "stream=nb_read_frames,width,height", "-of", "csv=p=0", out.path])
        #expect(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "64,48,10")
    }

    @Test("the red box is where the scene puts it at t (PNG)")
    func png() throws {
        let out = TestPaths.scratchFolder("scene-export-png").appendingPathComponent("f.png")
        try export(.png).writeFrame(at: 1, to: out)
        let raw = try Subprocess.run("ffmpeg", ["-v", "error", "-i", out.path, "-f", "rawvideo", "-pix_fmt", "rgb24", "-"])
        let pixels = [UInt8](raw.stdoutData)
        func red(_ x: Int, _ y: Int) -> Bool { pixels[(y * 64 + x) * 3] > 200 && pixels[(y * 64 + x) * 3 + 1] < 50 }
        #expect(red(50, 24) && !red(30, 24), "at t = 1 the box has moved to x = 50")
    }

    @Test("an MP4 frame decodes (BT.709) to the colours of the PNG frame at its time")
    func mp4Colours() throws {
        let json = ##"{"size": [64, 48], "duration": 1, "background": "#2050a0", "layers": [{"position": [32, 24], "bounds": [0, 0, 24, 20], "backgroundColor": "#ffcc00", "sprites": [{"kind": "move", "to": [40, 24], "duration": 1}]}]}"##
        let export = try SceneExport(scene: try Scene.parse(Data(json.utf8)), imageDirectory: TestPaths.repository,
                                     format: .mp4, fps: 10, duration: 1)
        let folder = TestPaths.scratchFolder("scene-export-colours")
        let video = folder.appendingPathComponent("s.mp4"), still = folder.appendingPathComponent("f.png")
        try export.write(to: video, as: .mp4, progress: Progress(totalUnitCount: 1))
        try export.writeFrame(at: 0, to: still)
        // The video says BT.709 video range; decoding with that matrix must give the PNG back.
        let probe = try Subprocess.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries",
                                                   "stream=pix_fmt,color_space,color_range", "-of", "csv=p=0", video.path])
        #expect(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "yuv420p,tv,bt709")
        let decoded = [UInt8](try Subprocess.run("ffmpeg", ["-v", "error", "-i", video.path, "-frames:v", "1", "-vf",
                                                            "scale=in_color_matrix=bt709:in_range=tv", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"]).stdoutData)
        let reference = [UInt8](try Subprocess.run("ffmpeg", ["-v", "error", "-i", still.path, "-f", "rawvideo", "-pix_fmt", "rgb24", "-"]).stdoutData)
        try #require(decoded.count == 64 * 48 * 3 && reference.count == decoded.count)
        // Inside the box and on the background, away from edges: within x264's rounding.
        for (x, y) in [(32, 24), (5, 5), (60, 40)] {
            let i = (y * 64 + x) * 3
            let difference = (0..<3).map { abs(Int(decoded[i + $0]) - Int(reference[i + $0])) }.max() ?? 0
            #expect(difference <= 6, "(\(x), \(y)): \(decoded[i..<i + 3]) vs \(reference[i..<i + 3])")
        }
    }

    @Test("cancelled: nothing is left; too many frames is refused before any work")
    func limits() throws {
        let folder = TestPaths.scratchFolder("scene-export-cancel")
        let progress = Progress(totalUnitCount: 1)
        progress.cancel()
        #expect(throws: (any Error).self) { try export(.mp4).write(to: folder.appendingPathComponent("c.mp4"), as: .mp4, progress: progress) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
        #expect(throws: SceneExport.Error.tooManyFrames(duration: 3600, fps: 120, frames: 432_000)) {
            try export(.mp4, fps: 120, duration: 3600)
        }
    }

    @Test("two or three threads taking alternate frames draw exactly the pictures one thread draws, and the MP4 holds them")
    func drawingThreads() throws {
        // Cards turning in perspective with animated shadows, a `then` chain that starts at a
        // stop between frames, and a sprite that ends mid-way: every frame differs, and a tree
        // that skips frames must reach each one exactly as a tree that visits them all.
        let json = ##"{"size": [96, 64], "duration": 1, "background": "#101020", "layers": [{"name": "a", "position": [30, 32], "bounds": [0, 0, 30, 40], "backgroundColor": "#3070ff", "perspective": 200, "sprites": [{"kind": "rotate", "axis": "y", "to": 3, "duration": 1}, {"kind": "shadow", "to": {"opacity": 0.7, "radius": 4, "offset": [0, 5]}, "duration": 0.55}]}, {"name": "b", "position": [68, 30], "bounds": [0, 0, 24, 30], "backgroundColor": "#ffcc00", "cornerRadius": 5, "perspective": 150, "sprites": [{"kind": "rotate", "axis": "x", "from": -0.5, "to": 0.8, "duration": 0.35, "then": {"kind": "scale", "to": 0.6, "duration": 0.4}}, {"kind": "fade", "to": 0.3, "duration": 0.8}]}]}"##
        let export = try SceneExport(scene: try Scene.parse(Data(json.utf8)), imageDirectory: TestPaths.repository,
                                     format: .mp4, fps: 20, duration: 1)
        // The pictures the encoder is handed, compared exactly (the claim the writer relies on;
        // x264's own bytes are not compared: in one busy test process it can code the same
        // pictures into different bytes).
        var drawn: [[PlanarPicture]] = []
        for threads in [1, 2, 3] {
            var pictures: [PlanarPicture] = []
            let progress = Progress(totalUnitCount: 20)
            try export.drawFrames(planar: true, progress: progress, drawingThreads: threads) { frame in
                guard case .planar(let picture) = frame else { Issue.record("an RGB frame"); return }
                pictures.append(picture)
            }
            #expect(progress.completedUnitCount == 20)
            drawn.append(pictures)
        }
        #expect(drawn[0].count == 20 && Set(drawn[0].map(\.luma)).count == 20, "every frame differs")
        #expect(drawn[1] == drawn[0], "two drawing threads draw other pictures than one")
        #expect(drawn[2] == drawn[0], "three drawing threads draw other pictures than one")
        // And written: the MP4 holds 20 frames that all differ, with two threads as by default.
        let out = TestPaths.scratchFolder("scene-export-threads").appendingPathComponent("t2.mp4")
        try export.write(to: out, as: .mp4, progress: Progress(totalUnitCount: 1), drawingThreads: 2)
        let hashes = try Subprocess.run("ffmpeg", ["-v", "error", "-i", out.path, "-f", "framemd5", "-"]).stdout
            .split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { $0.split(separator: ",").last }
        #expect(hashes.count == 20 && Set(hashes).count == 20)
    }
}
