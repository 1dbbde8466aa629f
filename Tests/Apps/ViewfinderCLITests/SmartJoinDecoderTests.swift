import Foundation
import Testing
import ViewfinderCore
import ViewfinderTestSupport

/// Joins (several `--keep` ranges) played by a decoder that follows H.264's buffer rules to the
/// letter. The re-encoded stretches come from x264 with B-frames shaped like the source's; were
/// their SPS to name a smaller decoded picture buffer than the copied stretches', openh264
/// would drop the pictures still waiting to be shown at each IDR where the SPS changes (Annex
/// C.4.4) — FFmpeg happens not to. Both decoders must give every kept frame, in order.
@Suite("trim: joins every decoder plays whole")
struct SmartJoinDecoderTests {
    /// 320×180 (rows of whole 4-byte words for GStreamer), 168 frames at 30 fps, three B-frames,
    /// four reference frames, GOPs of 30.
    static let clip = FixtureSpec("join-168", size: PixelSize(width: 320, height: 180), frames: 168,
                                  encode: FixtureSpec.x264 + ["-bf", "3", "-refs", "4", "-g", "30", "-keyint_min", "30",
                                                              "-sc_threshold", "0"])

    @Test("two and three --keep ranges: FFmpeg and openh264 give every kept frame, in order",
          arguments: [
            (["0.5-2.2", "3.1-5"], Array(15..<66) + Array(93..<150)),
            (["0.2-1.5", "2.1-3.3", "4.1-5.5"], Array(6..<45) + Array(63..<99) + Array(123..<165)),
          ])
    func join(keeps: [String], expected: [Int]) throws {
        let fixture = try FixtureFactory.shared.fixture(Self.clip)
        let folder = TestPaths.scratchFolder("join-\(keeps.count)")
        let out = folder.appendingPathComponent("joined.mp4")
        let result = try viewfinder(["trim", fixture.url.path] + keeps.flatMap { ["--keep", $0] } + ["-o", out.path, "--json", "-q"])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(jsonObject(result))
        #expect(json["method"] as? String == "smart")
        #expect(json["frames"] as? Int == expected.count)
        let parts = try #require(json["parts"] as? [[String: Any]])
        #expect(parts.contains { $0["method"] as? String == "copied" } && parts.contains { $0["method"] as? String == "reencoded" })
        #expect(try FFmpegOracle.drawnIndices(of: out, size: Self.clip.size) == expected)
        let openH264 = try GStreamerOracle.openH264DrawnIndices(of: out, size: Self.clip.size)
        #expect(openH264.count == expected.count, "openh264 gave \(openH264.count) of \(expected.count) frames")
        // openh264 2.3.1, where a stream whose B-frames are references (x264's pyramid) meets an
        // IDR of one without (x264 `bframes=0`, or one B-frame, or no pyramid), drops or misorders
        // the pictures still waiting to be shown — with every SPS value matched, and in a stream
        // made by the ffmpeg CLI alone (x264 `bframes=3` then `bframes=0`, Annex B streams
        // concatenated: 118 frames of 120; `bframes=3` then `bframes=2`: 120, in order). The
        // re-encoded stretches therefore take the source's B-frame shape.
        #expect(openH264 == expected, "openh264's order")
        #expect(try OpenH264Oracle.drawnIndices(of: out, size: Self.clip.size, library: .current) == expected)
    }
}
