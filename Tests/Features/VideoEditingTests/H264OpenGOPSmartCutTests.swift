import Foundation
import MediaIO
import Testing
import VideoEditing
import ViewfinderCore
import ViewfinderTestSupport

/// Smart cuts of H.264 open GOPs: the copy starts at a non-IDR I, made an IDR with the pictures
/// after it renumbered (MediaIO's rewriter: `H264OpenGOPTests`).
@Suite("H.264 open GOP: smart cuts whose copies start at a non-IDR I")
struct H264OpenGOPSmartCutTests {
    static let cuts: [SmartCutCase] = [
        SmartCutCase(spec: .smartOpenLong, ranges: [(7, 143)], copies: true),
        SmartCutCase(spec: .smartOpenCAVLC, ranges: [(7, 143)], copies: true),
        SmartCutCase(spec: .smartOpenWeighted, ranges: [(7, 143)], copies: true),
        SmartCutCase(spec: .smartOpenLong, ranges: [(3, 70), (95, 148)], copies: true),
    ]

    @Test("a smart cut of an open-GOP clip copies most frames, frame-exact for FFmpeg and openh264, without decode errors",
          arguments: cuts)
    func smartCut(_ c: SmartCutCase) throws {
        let fixture = try FixtureFactory.shared.fixture(c.spec)
        let out = TestPaths.scratchFolder("open-gop-cut").appendingPathComponent("out.mp4")
        var settings = ExportSettings()
        settings.ranges = c.ranges.map { ExportRange(start: .frame($0.0), end: .frame($0.1)) }
        let result = try VideoEditor(input: fixture.url, output: out, settings: settings).export()
        #expect(result.method == "smart", "\(c): \(result.note ?? "")")
        // One long range copies all but its edges; two ranges of GOPs of 30 re-encode four edges.
        let copied = result.copiedFrames ?? 0
        #expect(Double(copied) >= (c.ranges.count == 1 ? 0.8 : 0.5) * Double(c.expected.count),
                "\(c): \(copied) of \(c.expected.count) copied")
        #expect(try FFmpegOracle.drawnIndices(of: out, size: fixture.spec.size, autorotate: false) == c.expected, "\(c)")
        #expect(try FFmpegOracle.decodeErrors(of: out) == "", "\(c)")
        let openH264 = try GStreamerOracle.drawnIndices(of: out, size: fixture.spec.size, decoder: .openH264)
        #expect(openH264 == c.expected, "\(c): openh264")
        // A range ending re-encoded and the next starting re-encoded are one encoding: two IDRs
        // in a row made openh264 2.3.1 show the first range's last two frames (68, 69) swapped,
        // sorting the first IDR among the pictures still waiting to be shown.
        let idr = try FFmpegOracle.videoSamples(of: out).map { sample in
            (NALUnits.h264Types(sample) ?? []).contains(5)
        }
        #expect(!zip(idr, idr.dropFirst()).contains { $0 && $1 }, "\(c): two IDR samples in a row")
    }

    /// A known fault of openh264 2.3.1, not of the stream (FFmpeg decodes it without an error,
    /// every frame in order): where the first range ends with a renumbered copy on a P picture
    /// that still waits to be shown (here frame 54), and the next range's re-encoded head
    /// starts with an IDR, openh264 shows that last frame with the content of a picture of the
    /// next range (54 comes out as 122, the head's first P). Of 60 two-range joins of this clip, the 12
    /// whose first range ends at 55 or 56 do it; 32 joins of closed GOPs, none. To see it without
    /// the test: `viewfinder trim smart-open-150.mp4 -o out.mp4 --keep frame:3-frame:55 --keep
    /// frame:120-frame:148`, then `gst-launch-1.0 filesrc location=out.mp4 ! qtdemux !
    /// h264parse ! openh264dec` and compare each frame with FFmpeg's. Likely cause (read in its
    /// source, not proven): at an IDR, openh264 2.3 marks every reference unused, the waiting
    /// picture's buffer among them, and reuses that buffer before the picture is shown.
    @Test("a join whose first range ends on a copied P still waiting to be shown: FFmpeg exact, openh264 a known fault")
    func joinEndingOnWaitingPicture() throws {
        let c = SmartCutCase(spec: .smartOpenLong, ranges: [(3, 55), (120, 148)], copies: true)
        let fixture = try FixtureFactory.shared.fixture(c.spec)
        let out = TestPaths.scratchFolder("open-gop-waiting").appendingPathComponent("out.mp4")
        var settings = ExportSettings()
        settings.ranges = c.ranges.map { ExportRange(start: .frame($0.0), end: .frame($0.1)) }
        let result = try VideoEditor(input: fixture.url, output: out, settings: settings).export()
        #expect(result.method == "smart", "\(result.note ?? "")")
        #expect(try FFmpegOracle.drawnIndices(of: out, size: fixture.spec.size, autorotate: false) == c.expected)
        #expect(try FFmpegOracle.decodeErrors(of: out) == "")
        let openH264 = try GStreamerOracle.drawnIndices(of: out, size: fixture.spec.size, decoder: .openH264)
        #expect(openH264.count == c.expected.count)
        withKnownIssue("openh264 2.3.1 shows a later picture in place of a copied P waiting at an IDR") {
            #expect(openH264 == c.expected)
        }
    }
}
