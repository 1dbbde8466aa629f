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
        let (out, size, result) = try export(c)
        // One long range copies all but its edges; two ranges of GOPs of 30 re-encode four edges.
        let copied = result.copiedFrames ?? 0
        #expect(Double(copied) >= (c.ranges.count == 1 ? 0.8 : 0.5) * Double(c.expected.count),
                "\(c): \(copied) of \(c.expected.count) copied")
        #expect(try FFmpegOracle.drawnIndices(of: out, size: size, autorotate: false) == c.expected, "\(c)")
        #expect(try FFmpegOracle.decodeErrors(of: out) == "", "\(c)")
        let openH264 = try GStreamerOracle.drawnIndices(of: out, size: size, decoder: .openH264)
        #expect(openH264 == c.expected, "\(c): openh264 (GStreamer)")
        #expect(try OpenH264Oracle.drawnIndices(of: out, size: size, library: .current) == c.expected, "\(c)")
        // A range ending re-encoded and the next starting re-encoded are one encoding: two IDRs
        // in a row made openh264 2.3.1 show the first range's last two frames (68, 69) swapped,
        // sorting the first IDR among the pictures still waiting to be shown.
        let idr = try FFmpegOracle.videoSamples(of: out).map { sample in
            (NALUnits.h264Types(sample) ?? []).contains(5)
        }
        #expect(!zip(idr, idr.dropFirst()).contains { $0 && $1 }, "\(c): two IDR samples in a row")
    }

    /// Joins whose first range ends at every kind of place in a GOP (on a P, after B-frames,
    /// one or two frames after an IDR, on a picture still waiting to be shown), before a copied
    /// IDR: FFmpeg and a current openh264 give every kept frame in order.
    static let joins: [SmartCutCase] = [42, 52, 55, 56, 66, 80].map {
        SmartCutCase(spec: .smartOpenLong, ranges: [(3, $0), (120, 148)], copies: true)
    } + [34, 38, 41, 44, 46, 50].map {
        SmartCutCase(spec: .smartClosed, ranges: [(3, $0), (60, 90)], copies: true)
    }

    @Test("joins ending anywhere in a GOP: FFmpeg and openh264 2.4.1 or later show every frame in order", arguments: joins)
    func join(_ c: SmartCutCase) throws {
        let (out, size, _) = try export(c)
        #expect(try FFmpegOracle.drawnIndices(of: out, size: size, autorotate: false) == c.expected, "\(c)")
        #expect(try OpenH264Oracle.drawnIndices(of: out, size: size, library: .current) == c.expected, "\(c)")
    }

    /// openh264 2.3.1 (Debian 12's) shows the pictures still waiting at an IDR one per picture
    /// decoded after it, and at the next IDR sorts the rest of both sequences together by
    /// picture order count. The copy of this join used to end one frame after the I at 48 (a
    /// sequence of one before the tail's IDR), and 2.3.1 showed source frames 50 and 51
    /// swapped; coded sequences at joins are now at least the reorder depth and two long.
    @Test("a join that made a one-picture coded sequence: openh264 2.3.1 shows it in order too")
    func shortSequence() throws {
        let c = SmartCutCase(spec: .smartOpenLong, ranges: [(3, 52), (120, 148)], copies: true)
        let (out, size, _) = try export(c)
        #expect(try OpenH264Oracle.drawnIndices(of: out, size: size, library: .debian) == c.expected)
        #expect(try GStreamerOracle.drawnIndices(of: out, size: size, decoder: .openH264) == c.expected)
    }

    /// A known fault of openh264 2.3.1, fixed in 2.4.1 (openh264 #3707), not of the stream:
    /// at an IDR, 2.3.1 marks every reference picture unused, one still waiting to be shown
    /// among them, and may decode a later picture into its buffer before showing it. Here the
    /// first range's copy ends on P 54 waiting behind its B-frames, the next range's copied I
    /// (made an IDR) follows, and 2.3.1 shows 122 in place of 54; x264's own closed-GOP files
    /// show the same (the 168-frame join clip's frame 89 comes out as 92). FFmpeg and openh264
    /// 2.6 show every frame.
    @Test("a join whose first range ends on a copied P still waiting to be shown: exact but in openh264 2.3.1, a known fault")
    func joinEndingOnWaitingPicture() throws {
        let c = SmartCutCase(spec: .smartOpenLong, ranges: [(3, 55), (120, 148)], copies: true)
        let (out, size, _) = try export(c)
        #expect(try FFmpegOracle.drawnIndices(of: out, size: size, autorotate: false) == c.expected)
        #expect(try FFmpegOracle.decodeErrors(of: out) == "")
        #expect(try OpenH264Oracle.drawnIndices(of: out, size: size, library: .current) == c.expected)
        let debian = try GStreamerOracle.drawnIndices(of: out, size: size, decoder: .openH264)
        #expect(debian.count == c.expected.count)
        // Checkable: openh264's commit 4f01c15b ("Fix glitches that sometimes happen near the
        // scene changes", #3707, first in v2.4.1) stops SetUnRef zeroing the reference count of
        // a picture still buffered for output; openh264 2.6 above shows this very file exact.
        withKnownIssue("openh264 2.3.1 (Debian 12) lets a later picture over-write a reference picture waiting at an IDR; fixed in 2.4.1 by openh264 #3707, and 2.6 shows this file exact") {
            #expect(debian == c.expected)
        }
    }

    /// `c` cut by the smart-cut policy into a scratch file: the file, the picture size and the
    /// export's result.
    private func export(_ c: SmartCutCase) throws -> (URL, PixelSize, ExportResult) {
        let fixture = try FixtureFactory.shared.fixture(c.spec)
        let out = TestPaths.scratchFolder("open-gop-join").appendingPathComponent("out.mp4")
        var settings = ExportSettings()
        settings.ranges = c.ranges.map { ExportRange(start: .frame($0.0), end: .frame($0.1)) }
        let result = try VideoEditor(input: fixture.url, output: out, settings: settings).export()
        #expect(result.method == "smart", "\(c): \(result.note ?? "")")
        return (out, fixture.spec.size, result)
    }
}
