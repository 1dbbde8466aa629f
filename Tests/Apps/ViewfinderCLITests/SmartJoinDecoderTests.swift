import Foundation
import Testing
import ViewfinderCore
import ViewfinderTestSupport

/// Joins (several `--keep` ranges) played by a decoder that follows H.264's buffer rules to the
/// letter. The re-encoded stretches come from x264 without B-frames; were their SPS to name a
/// smaller decoded picture buffer than the copied stretches' (x264 with B-frames), openh264
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
        // openh264 2.3.1, where a stream with B-frames meets one without (an IDR of x264 with
        // `bframes=0`, whose pictures count their order by decode order, POC type 2), drops the
        // last picture waiting to be shown and shows a later one twice — with every SPS value
        // matched, and in a stream made by the ffmpeg CLI alone (x264 with and without B-frames
        // concatenated). Its reordering of CABAC pictures (welsDecoderExt.cpp,
        // BufferingReadyPicture) compares slice headers' pic_order_cnt_lsb, which POC type 2
        // slices do not carry. The count is right; the order is not yet (issue 27, item 1).
        // To check it without Viewfinder: two 2 s testsrc2 clips encoded by the ffmpeg CLI with
        // `-x264-params bframes=3` and `bframes=0`, their Annex B streams concatenated, decoded by
        // `gst-launch-1.0 filesrc ! h264parse ! openh264dec` give 118 frames where FFmpeg gives 120.
        withKnownIssue("openh264 loses one picture and repeats another where B-frames stop") {
            #expect(openH264 == expected)
        }
    }
}
