import Foundation
import MediaIO
import Testing
import ViewfinderCore
import ViewfinderTestSupport

/// Cover art made beside an export: the MP4 header only declares its stream, and the picture
/// is waited for before the trailer (what lets `cover --embed` decode the cover while packets
/// are copied).
@Suite("cover art attached while it is still being made")
struct CoverAttachmentTests {
    static let clip = FixtureSpec.withAAC("attach-later", frames: 60, encode: FixtureSpec.x264 + ["-bf", "2", "-g", "15"])

    /// A small JPEG made by the ffmpeg CLI: bytes the muxer must store unchanged.
    static func jpeg(in folder: URL) throws -> Data {
        let url = folder.appendingPathComponent("art.jpg")
        let made = try Subprocess.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=64x48", "-frames:v", "1", url.path])
        try #require(made.status == 0, "\(made.stderr)")
        return try Data(contentsOf: url)
    }

    /// The attached picture's bytes as they lie in the file, copied out by the ffmpeg CLI.
    static func attachedBytes(of url: URL, in folder: URL) throws -> Data? {
        let out = folder.appendingPathComponent("copied-out.jpg")
        let copied = try Subprocess.run("ffmpeg", ["-v", "error", "-y", "-i", url.path, "-map", "0:v:1", "-c", "copy",
                                                   "-frames:v", "1", "-f", "image2", out.path])
        guard copied.status == 0 else { return nil }
        return try Data(contentsOf: out)
    }

    @Test("a picture made only after nine tenths of the packets are written is still attached, byte for byte, and no packet changes")
    func pictureArrivesLast() throws {
        let fixture = try FixtureFactory.shared.fixture(Self.clip)
        let folder = TestPaths.scratchFolder("attach-later")
        let art = try Self.jpeg(in: folder)
        let progress = ProgressMark(at: 0.9)
        let seen = Lent<Double>(-1)
        let attachment = CoverAttachment(format: .jpeg) {
            // Wait (at most 60 s) until the export has written most of its packets.
            _ = progress.reached.wait(timeout: .now() + 60)
            seen.value = progress.fractionCompleted
            return CoverArt(data: art, format: .jpeg, size: PixelSize(width: 64, height: 48))
        }
        let out = folder.appendingPathComponent("later.mp4")
        let result = try VideoExporter(input: fixture.url, output: out,
                                       settings: ExportSettings(preset: .passthrough, cover: attachment)).run(progress: progress)
        #expect(result.frameCount == 60)
        #expect(seen.value >= 0.9)
        #expect(try Self.attachedBytes(of: out, in: folder) == art)
        let probe = try Subprocess.run("ffprobe", ["-v", "error", "-select_streams", "v:1", "-show_entries",
                                                   "stream=codec_name,width,height:stream_disposition=attached_pic",
                                                   "-of", "csv=p=0", out.path])
        #expect(probe.stdout == "mjpeg,64,48,1\n")
        for stream in ["v:0", "a:0"] {
            #expect(try FFmpegOracle.packetHashes(of: out, stream: stream, timing: true)
                    == FFmpegOracle.packetHashes(of: fixture.url, stream: stream, timing: true), "\(stream)")
        }
    }

    @Test("a picture given ready is attached byte for byte, at its own size")
    func readyPicture() throws {
        let fixture = try FixtureFactory.shared.fixture(Self.clip)
        let folder = TestPaths.scratchFolder("attach-ready")
        let art = try Self.jpeg(in: folder)
        let attachment = CoverAttachment(CoverArt(data: art, format: .jpeg, size: PixelSize(width: 64, height: 48)))
        #expect(attachment.knownSize == PixelSize(width: 64, height: 48))
        let out = folder.appendingPathComponent("ready.mp4")
        _ = try VideoExporter(input: fixture.url, output: out, settings: ExportSettings(preset: .passthrough, cover: attachment)).run()
        #expect(try Self.attachedBytes(of: out, in: folder) == art)
    }

    @Test("a picture that cannot be made fails the export with its reason and leaves nothing behind")
    func pictureFails() throws {
        struct Broken: Error, CustomStringConvertible { var description: String { "the frame would not decode" } }
        let fixture = try FixtureFactory.shared.fixture(Self.clip)
        let folder = TestPaths.scratchFolder("attach-fails")
        let out = folder.appendingPathComponent("never.mp4")
        let attachment = CoverAttachment(format: .jpeg) { throw Broken() }
        #expect(throws: MediaIOError.encodeFailed(path: out.path, detail: "the cover could not be made: the frame would not decode")) {
            try VideoExporter(input: fixture.url, output: out, settings: ExportSettings(preset: .passthrough, cover: attachment)).run()
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
        #expect(attachment.failure is Broken)
    }
}

/// A progress that signals `reached` once its fraction completed first comes to `mark`: an
/// event to wait for (Foundation on Linux has no key-value observing to watch the fraction).
private final class ProgressMark: Progress, @unchecked Sendable {
    /// Signalled once, when the fraction first reaches the mark.
    let reached = DispatchSemaphore(value: 0)
    private let mark: Double
    private let passed = Locked(false)

    init(at mark: Double) {
        self.mark = mark
        super.init(parent: nil, userInfo: nil)
        totalUnitCount = 1
    }

    override var completedUnitCount: Int64 {
        didSet {
            guard fractionCompleted >= mark, !passed.withLock({ let was = $0; $0 = true; return was }) else { return }
            reached.signal()
        }
    }
}
