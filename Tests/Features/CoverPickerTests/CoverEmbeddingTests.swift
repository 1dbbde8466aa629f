import CoverPicker
import Foundation
import MediaIO
import Testing
import ViewfinderCore
import ViewfinderTestSupport

/// `CoverPicker.export` makes the cover on a reader that skips the probe where the header says
/// enough; these check that it still draws the cover the probe would.
@Suite("the cover made beside an export, from the header alone where that suffices")
struct CoverEmbeddingTests {
    /// 192×108 H.264 whose pixels are 4:3 wide only in its bitstream: the `pasp` box the mp4
    /// muxer wrote is renamed `free`, so the header alone reads square pixels.
    static func anamorphicWithoutPasp(in folder: URL) throws -> URL {
        let made = folder.appendingPathComponent("sar-with-pasp.mp4")
        let run = try Subprocess.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=192x108:r=30:d=1"]
                                     + FixtureSpec.x264 + ["-bsf:v", "h264_metadata=sample_aspect_ratio=4/3", made.path])
        try #require(run.status == 0, "\(run.stderr)")
        var bytes = [UInt8](try Data(contentsOf: made))
        let pasp = Array("pasp".utf8)
        let at = try #require((0...(bytes.count - 4)).first { Array(bytes[$0..<($0 + 4)]) == pasp })
        bytes.replaceSubrange(at..<(at + 4), with: Array("free".utf8))
        let url = folder.appendingPathComponent("sar-no-pasp.mp4")
        try Data(bytes).write(to: url)
        return url
    }

    @Test("a header-only reader misses a bitstream-only pixel shape and the pixel format; the probed one has both")
    func headerOnlyReader() throws {
        let url = try Self.anamorphicWithoutPasp(in: TestPaths.scratchFolder("header-only"))
        let quick = try FrameReader(header: MediaHeader(url: url), analysis: .headerWhenComplete)
        let probed = try FrameReader(header: MediaHeader(url: url))
        #expect(quick.video.pixelFormat == nil)
        #expect(quick.video.sampleAspectRatio == MediaTime(value: 1, timescale: 1))
        #expect(probed.video.pixelFormat == "yuv420p")
        #expect(probed.video.sampleAspectRatio == MediaTime(value: 4, timescale: 3))
        #expect(quick.duration == probed.duration)
        // Everything else a frame is drawn from agrees: the same frame comes out at the same time.
        let a = try quick.frame(at: .frame(12), mode: .exact)
        let b = try FrameReader(header: MediaHeader(url: url), analysis: .headerWhenComplete).frame(at: .frame(12), mode: .exact)
        #expect(a.time == b.time && a.image == b.image)
        #expect(a.time == MediaTime(value: 12, timescale: 30))
    }

    @Test("where the header told the cover's reader less than the probe, the cover is made again: 256×108, as `cover --at` draws it")
    func coverRedoneFromProbe() throws {
        let folder = TestPaths.scratchFolder("cover-redo")
        let url = try Self.anamorphicWithoutPasp(in: folder)
        let out = folder.appendingPathComponent("with-cover.mp4")
        let made = try CoverPicker.export(url, to: out, settings: ExportSettings(preset: .passthrough),
                                          cover: .at(.time(.zero)), limit: .none)
        #expect(made.cover.size == PixelSize(width: 256, height: 108))
        let reference = try CoverPicker.cover(from: CoverPicker.open(url, limit: .none), at: .time(.zero))
        #expect(reference.image.size == made.cover.size)
        let probe = try Subprocess.run("ffprobe", ["-v", "error", "-select_streams", "v:1", "-show_entries",
                                                   "stream=codec_name,width,height", "-of", "csv=p=0", out.path])
        #expect(probe.stdout == "mjpeg,256,108\n")
    }
}
