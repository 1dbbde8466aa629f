import Foundation
import MediaIO
import Testing
import ViewfinderCore
import ViewfinderTestSupport

@testable import VideoEditing

/// The top-level boxes of an MP4 file, in order.
func topLevelBoxes(_ url: URL) throws -> [String] {
    let data = try Data(contentsOf: url)
    var boxes: [String] = []
    var offset = 0
    while offset + 8 <= data.count {
        var size = data[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
        let type = String(decoding: data[offset + 4..<offset + 8], as: UTF8.self)
        if size == 1, offset + 16 <= data.count {
            size = data[offset + 8..<offset + 16].reduce(0) { $0 << 8 | Int($1) }
        } else if size == 0 {
            size = data.count - offset
        }
        boxes.append(type)
        guard size >= 8 else { break }
        offset += size
    }
    return boxes
}

/// Every frame's index, read from the pictures of an exported file.
func frameIndices(_ url: URL) throws -> [Int?] {
    let reader = try FrameReader(url: url)
    let probe = try FFprobe.frames(of: url)
    let first = probe.timestamps.min() ?? 0
    return try probe.timestamps.sorted().map { ts in
        let t = MediaTime.ticks(ts - first, timeBase: probe.timeBase.num, probe.timeBase.den) ?? .zero
        return FrameIndexPattern.readIndex(from: try reader.frame(at: .time(t)).image)
    }
}

/// A Progress that cancels itself once the work passes a fraction.
final class CancelAt: Progress, @unchecked Sendable {
    let threshold: Double
    init(_ threshold: Double) {
        self.threshold = threshold
        super.init(parent: nil, userInfo: nil)
        totalUnitCount = 1
    }
    override var completedUnitCount: Int64 {
        didSet { if fractionCompleted >= threshold { cancel() } }
    }
}

@Suite("Video export")
struct VideoExportTests {
    static let hd = FixtureSpec("hd-720", size: PixelSize(width: 1280, height: 720), frames: 24,
                                encode: ["-c:v", "libx264", "-preset", "ultrafast", "-crf", "20", "-pix_fmt", "yuv420p",
                                         "-bf", "2", "-g", "12"])
    static let long = FixtureSpec("long-360", size: PixelSize(width: 640, height: 360), frames: 120,
                                  encode: ["-c:v", "libx264", "-preset", "ultrafast", "-crf", "20", "-pix_fmt", "yuv420p",
                                           "-g", "30"])

    func export(_ spec: FixtureSpec, _ settings: ExportSettings) throws -> (URL, ExportResult) {
        let fixture = try FixtureFactory.shared.fixture(spec)
        let out = TestPaths.scratchFolder("export").appendingPathComponent("out.mp4")
        let result = try VideoEditor(input: fixture.url, output: out, settings: settings).export()
        return (out, result)
    }

    @Test("remux keeps every frame, in order, and puts the index first")
    func remux() throws {
        let (out, result) = try export(.h264BFrames, ExportSettings(preset: .passthrough))
        #expect(result.method == "passthrough")
        #expect(result.frameCount == 48)
        #expect(try frameIndices(out) == (0..<48).map { $0 })
        let boxes = try topLevelBoxes(out)
        let moov = try #require(boxes.firstIndex(of: "moov"))
        let mdat = try #require(boxes.firstIndex(of: "mdat"))
        #expect(moov < mdat, "\(boxes)")
        let (late, _) = try export(.h264BFrames, ExportSettings(preset: .passthrough, fastStart: false))
        let lateBoxes = try topLevelBoxes(late)
        #expect((lateBoxes.firstIndex(of: "moov") ?? 0) > (lateBoxes.firstIndex(of: "mdat") ?? 0), "\(lateBoxes)")
    }

    @Test("rotation survives exactly once", arguments: [90, 270])
    func rotation(_ tag: Int) throws {
        let fixture = try FixtureFactory.shared.fixture(.rotated(tag))
        for preset in [ExportPreset.passthrough, .highest] {
            let (out, _) = try export(.rotated(tag), ExportSettings(preset: preset))
            #expect(try FFprobe.frames(of: out).rotation == fixture.ffprobeRotation, "\(preset)")
            let reader = try FrameReader(url: out)
            let frame = try reader.frame(at: .frame(5))
            #expect(frame.image.size == reader.video.rotation.apply(to: fixture.spec.size))
            let upright = frame.image.rotated(Rotation(rawValue: (360 - reader.video.rotation.degrees) % 360) ?? .none)
            #expect(FrameIndexPattern.readIndex(from: upright) == 5, "\(preset)")
        }
    }

    @Test("each preset's output size", arguments: [
        (ExportPreset.highest, PixelSize(width: 1280, height: 720)),
        (.medium, PixelSize(width: 960, height: 540)),
        (.low, PixelSize(width: 640, height: 360)),
        (.fit(PixelSize(width: 333, height: 333)), PixelSize(width: 332, height: 186)),
        (.fit(PixelSize(width: 300, height: 1000)), PixelSize(width: 532, height: 300)),
    ])
    func presetSizes(_ preset: ExportPreset, _ expected: PixelSize) throws {
        let (out, result) = try export(Self.hd, ExportSettings(preset: preset))
        #expect(result.size == expected)
        #expect(result.method == "libx264")
        let reader = try FrameReader(url: out)
        #expect(reader.video.codedSize == expected)
        #expect(try reader.frame(at: .frame(23)).image.size == expected)
        #expect(FrameIndexPattern.readIndex(from: try reader.frame(at: .frame(23)).image) == 23)
    }

    @Test("trim keeps exactly the frames from --from up to --to", arguments: [ExportPreset.auto, .highest])
    func trimExact(_ preset: ExportPreset) throws {
        // 0.5 s is frame 15 (not a keyframe); 1.0 s is frame 30, which is cut.
        let range = ExportRange(start: .time(MediaTime(value: 1, timescale: 2)), end: .time(MediaTime(seconds: 1)))
        let (out, result) = try export(.h264BFrames, ExportSettings(preset: preset, range: range))
        #expect(result.frameCount == 15)
        #expect(result.start == MediaTime(value: 1, timescale: 2))
        #expect(try frameIndices(out) == (15..<30).map { $0 })
        // Smart by default: frames 15–23 re-encoded, the IDR at 24 and the B-frame group after it
        // copied (24–28), frame 29 (decoded after the next P-frame) re-encoded.
        #expect(result.method == "smart" && result.note == nil, "\(result)")
        #expect(result.reencodedFrames == 10 && result.copiedFrames == 5)
    }

    @Test("passthrough trim on keyframes copies; --keyframe-cut starts at the keyframe before")
    func trimPassthrough() throws {
        let whole = ExportRange(start: .time(MediaTime(value: 2, timescale: 5)), end: nil)  // frame 12, a keyframe
        let (out, result) = try export(.h264BFrames, ExportSettings(preset: .passthrough, range: whole))
        #expect(result.method == "passthrough")
        #expect(try frameIndices(out) == (12..<48).map { $0 })
        let cut = ExportRange(start: .frame(17), end: nil)
        let (keyed, keyedResult) = try export(.h264BFrames, ExportSettings(preset: .passthrough, range: cut, keyframeCut: true))
        #expect(keyedResult.method == "passthrough")
        #expect(try frameIndices(keyed).first == 12)
    }

    @Test("cancelling at 10 %, 50 % and 90 % leaves nothing behind", arguments: [0.1, 0.5, 0.9])
    func cancellation(_ at: Double) throws {
        let fixture = try FixtureFactory.shared.fixture(Self.long)
        for preset in [ExportPreset.passthrough, .highest] {
            let folder = TestPaths.scratchFolder("cancel")
            let out = folder.appendingPathComponent("out.mp4")
            let progress = CancelAt(at)
            #expect(throws: MediaIOError.cancelled) {
                try VideoExporter(input: fixture.url, output: out, settings: ExportSettings(preset: preset)).run(progress: progress)
            }
            #expect(progress.fractionCompleted >= at && progress.fractionCompleted < 1, "\(preset)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "\(preset) at \(at)")
        }
    }

    @Test("the async editor reports saved, failed and cancelled")
    func editorOutcomes() async throws {
        let fixture = try FixtureFactory.shared.fixture(Self.long)
        let folder = TestPaths.scratchFolder("editor")
        let out = folder.appendingPathComponent("out.mp4")
        let saved = await VideoEditor(input: fixture.url, output: out, settings: ExportSettings(preset: .passthrough)).run()
        guard case .saved(let url, let result) = saved else { Issue.record("expected saved, got \(saved)"); return }
        #expect(url == out && result.frameCount == 120)

        let text = folder.appendingPathComponent("notes.mp4")
        try Data("not a video".utf8).write(to: text)
        let failed = await VideoEditor(input: text, output: folder.appendingPathComponent("x.mp4")).run()
        #expect(failed == .failed(.notMedia(path: text.path)))

        let progress = CancelAt(0.3)
        let cancelled = await VideoEditor(input: fixture.url, output: folder.appendingPathComponent("c.mp4"),
                                          settings: ExportSettings(preset: .highest)).run(progress: progress)
        #expect(cancelled == .cancelled)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("c.mp4").path))
    }

    @Test("on the calling thread (as `viewfinder trim` runs it) the editor makes a smart trim, with a reader already open or its own; cancelled, it throws and leaves nothing")
    func exportOnCallingThread() throws {
        let fixture = try FixtureFactory.shared.fixture(Self.long)
        let folder = TestPaths.scratchFolder("editor-sync")
        let out = folder.appendingPathComponent("out.mp4")
        let settings = ExportSettings(range: ExportRange(start: .frame(10), end: .frame(100)))
        for reader in [nil, try FrameReader(url: fixture.url)] {
            let result = try VideoEditor(input: fixture.url, output: out, settings: settings).export(reading: reader)
            #expect(result.method == "smart" && result.frameCount == 90)
            #expect(try frameIndices(out) == (10..<100).map { $0 })
        }
        let cancelled = folder.appendingPathComponent("c.mp4")
        #expect(throws: MediaIOError.cancelled) {
            try VideoEditor(input: fixture.url, output: cancelled, settings: settings).export(progress: CancelAt(0.3))
        }
        #expect(!FileManager.default.fileExists(atPath: cancelled.path))
    }

    @Test("cancelling the calling task cancels the edit; nothing is written")
    func taskCancellation() async throws {
        let fixture = try FixtureFactory.shared.fixture(Self.long)
        let folder = TestPaths.scratchFolder("task-cancel")
        let out = folder.appendingPathComponent("out.mp4")
        let editor = VideoEditor(input: fixture.url, output: out, settings: ExportSettings(preset: .highest))
        let task = Task { await editor.run() }
        task.cancel()
        #expect(await task.value == .cancelled)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test("data and hint tracks are dropped; video and the first audio track are kept")
    func dataTracks() throws {
        let input = TestPaths.media.appendingPathComponent("video_features/mp4_hint_and_data_tracks.mp4")
        let out = TestPaths.scratchFolder("tracks").appendingPathComponent("out.mp4")
        let result = try VideoExporter(input: input, output: out).run()
        #expect(result.method == "passthrough" && result.audio == "copied")
        let streams = (try FFprobe.description(of: out)["streams"] as? [[String: Any]] ?? []).compactMap { $0["codec_type"] as? String }
        #expect(streams == ["video", "audio"])
    }

    @Test("canEdit is true only for decodable videos")
    func canEdit() throws {
        #expect(VideoEditor.canEdit(try FixtureFactory.shared.fixture(.h264BFrames).url))
        let folder = TestPaths.scratchFolder("can-edit")
        let text = folder.appendingPathComponent("a.mov")
        try Data("hello".utf8).write(to: text)
        #expect(!VideoEditor.canEdit(text))
        #expect(!VideoEditor.canEdit(TestPaths.media.appendingPathComponent("broken/vp9_invalid_bitstream.webm")))
        #expect(!VideoEditor.canEdit(TestPaths.media.appendingPathComponent("video_features/audioonly_alac.m4a")))
    }

    @Test("a truncated input is an error, not a short success")
    func truncated() throws {
        let fixture = try FixtureFactory.shared.fixture(Self.long)
        // Index at the front (fast start): cut the media data in half.
        let folder = TestPaths.scratchFolder("truncated")
        let fronted = folder.appendingPathComponent("fronted.mp4")
        try VideoExporter(input: fixture.url, output: fronted, settings: ExportSettings(preset: .passthrough)).run()
        let bytes = try Data(contentsOf: fronted)
        let cut = folder.appendingPathComponent("cut.mp4")
        try bytes.prefix(bytes.count * 6 / 10).write(to: cut)
        for preset in [ExportPreset.passthrough, .highest] {
            let out = folder.appendingPathComponent("out-\(preset).mp4")
            #expect(throws: MediaIOError.self) {
                try VideoExporter(input: cut, output: out, settings: ExportSettings(preset: preset)).run()
            }
            #expect(!FileManager.default.fileExists(atPath: out.path))
        }
        #expect(throws: MediaIOError.outputIsInput(path: cut.path)) {
            try VideoExporter(input: cut, output: cut).run()
        }
    }

    @Test("audio: AAC is copied, other codecs become AAC")
    func audio() throws {
        let folder = TestPaths.scratchFolder("audio")
        let mkv = folder.appendingPathComponent("opus.mkv")
        let made = try Subprocess.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=s=160x90:r=25:d=2",
                                                 "-f", "lavfi", "-i", "sine=d=2", "-c:v", "libx264", "-c:a", "libopus", mkv.path])
        #expect(made.status == 0)
        let out = folder.appendingPathComponent("out.mp4")
        let result = try VideoExporter(input: mkv, output: out).run()
        #expect(result.audio == "aac")
        #expect(result.method == "libx264", "opus has no place in MP4, so auto re-encodes")
        let described = try FFprobe.description(of: out)
        let codecs = (described["streams"] as? [[String: Any]] ?? []).compactMap { $0["codec_name"] as? String }
        #expect(codecs.sorted() == ["aac", "h264"])
        let duration = Double((described["format"] as? [String: Any])?["duration"] as? String ?? "") ?? 0
        #expect(abs(duration - 2) < 0.1)
        #expect(throws: MediaIOError.self) {
            try VideoExporter(input: mkv, output: folder.appendingPathComponent("p.mp4"), settings: ExportSettings(preset: .passthrough)).run()
        }
    }
}
