import Foundation
import MediaIO
import Testing
import VideoEditing
import ViewfinderCore
import ViewfinderTestSupport

/// One smart-cut case: a fixture, the ranges kept (frame numbers, end excluded) and whether
/// some packets must be copied.
struct SmartCutCase: Sendable, CustomStringConvertible {
    let spec: FixtureSpec
    let ranges: [(Int, Int)]
    let copies: Bool
    /// Copied stretches that start at an HEVC CRA, whose first packet is rewritten as a BLA.
    var rewrittenStarts = 0
    /// The copy starts at an H.264 open GOP's I: every copied packet's slice headers are renumbered.
    var renumbered = false
    var description: String { "\(spec.name) \(ranges)" }

    var expected: [Int?] { ranges.flatMap { Array($0.0..<$0.1) } }
}

extension FixtureSpec {
    var isHEVC: Bool { encode.contains("libx265") }

    static let x264Tagged = x264 + ["-color_primaries", "bt709", "-color_trc", "bt709", "-colorspace", "bt709"]
    /// H.264 High, closed GOPs of 12 with three B-frames, 30 fps, colour tags, AAC.
    static let smartClosed = withAAC("smart-closed", frames: 96, encode: x264Tagged + [
        "-bf", "3", "-g", "12", "-keyint_min", "12", "-sc_threshold", "0"])
    /// No B-frames, GOP 12, 25 fps, a 4:3 sample aspect ratio.
    static let smartNoB = withAAC("smart-nob-25", frames: 75, rate: "25", encode: x264 + [
        "-bf", "0", "-g", "12", "-keyint_min", "12", "-sc_threshold", "0", "-vf", "setsar=4/3"])
    /// GOP 250 with B-frames (the bench clip's structure), 300 frames.
    static let smartLongGOP = withAAC("smart-gop250", frames: 300, encode: x264 + [
        "-bf", "3", "-g", "250", "-keyint_min", "250", "-sc_threshold", "0"])
    /// Open GOPs: keyframes after the first are not IDRs, leading B-frames refer back.
    static let smartOpen = withAAC("smart-open", frames: 60, encode: x264 + [
        "-bf", "3", "-g", "10", "-sc_threshold", "0", "-x264-params", "open-gop=1:keyint=10:min-keyint=10"])
    /// NTSC 29.97 fps, GOP 15, two B-frames.
    static let smartNTSC = withAAC("smart-2997", frames: 60, rate: "30000/1001", encode: x264 + [
        "-bf", "2", "-g", "15", "-keyint_min", "15", "-sc_threshold", "0"])
    /// Rotated a quarter turn (display matrix), GOP 12, B-frames.
    static let smartRotated = withAAC("smart-rotated", frames: 48, encode: x264 + [
        "-bf", "3", "-g", "12", "-keyint_min", "12", "-sc_threshold", "0"], rotateTag: 90)
    /// Matroska (no decode times in the container), B-frames, GOP 12.
    static let smartMKV = withAAC("smart-mkv", frames: 96, encode: x264 + [
        "-bf", "3", "-g", "12", "-keyint_min", "12", "-sc_threshold", "0"], container: "mkv")
    /// HEVC Main with B-frames and closed GOPs of 16 (an IDR each): smart-cut with x265 edges.
    static let smartHEVCClosed = withAAC("smart-hevc-closed", frames: 64, encode: [
        "-c:v", "libx265", "-preset", "ultrafast", "-crf", "18", "-pix_fmt", "yuv420p", "-tag:v", "hvc1",
        "-x265-params", "log-level=error:bframes=3:keyint=16:min-keyint=16:scenecut=0:open-gop=0"])
    /// HEVC Main 10 (10-bit, as phones record HDR), 25 fps, GOPs of 12 without B-frames.
    static let smartHEVC10 = withAAC("smart-hevc-main10", frames: 50, rate: "25", encode: [
        "-c:v", "libx265", "-preset", "ultrafast", "-crf", "18", "-pix_fmt", "yuv420p10le", "-tag:v", "hvc1",
        "-x265-params", "log-level=error:bframes=0:keyint=12:min-keyint=12:scenecut=0:open-gop=0"])
    /// HEVC Main 10 HLG (BT.2020, ARIB STD-B67), as iPhones record HDR, tagged in the VUI.
    static let smartHEVCHLG = withAAC("smart-hevc-hlg", frames: 50, rate: "25", encode: [
        "-c:v", "libx265", "-preset", "ultrafast", "-crf", "18", "-pix_fmt", "yuv420p10le", "-tag:v", "hvc1",
        "-color_primaries", "bt2020", "-color_trc", "arib-std-b67", "-colorspace", "bt2020nc",
        "-x265-params", "log-level=error:bframes=0:keyint=12:min-keyint=12:scenecut=0:open-gop=0"])
    /// HEVC with B-frames and x265's default open GOPs: keyframes after the first are CRAs
    /// whose leading pictures (RASL) refer back; a copy starts at a CRA after an end of
    /// sequence, its leading pictures re-encoded in the head.
    static let smartHEVC = withAAC("smart-hevc", frames: 48, encode: [
        "-c:v", "libx265", "-preset", "ultrafast", "-crf", "18", "-pix_fmt", "yuv420p", "-tag:v", "hvc1",
        "-x265-params", "log-level=error:bframes=3:keyint=16:min-keyint=16:scenecut=0"])
}

@Suite("Smart cut")
struct SmartCutTests {
    static let cases: [SmartCutCase] = [
        SmartCutCase(spec: .smartClosed, ranges: [(15, 83)], copies: true),
        SmartCutCase(spec: .smartClosed, ranges: [(24, 60)], copies: true),     // both cuts on IDRs: all copied
        SmartCutCase(spec: .smartClosed, ranges: [(5, 30), (50, 90), (40, 45)], copies: true),
        SmartCutCase(spec: .smartNoB, ranges: [(7, 70)], copies: true),
        SmartCutCase(spec: .smartNoB, ranges: [(3, 20), (30, 60)], copies: true),
        SmartCutCase(spec: .smartLongGOP, ranges: [(45, 285)], copies: true),
        SmartCutCase(spec: .smartLongGOP, ranges: [(10, 100)], copies: false),  // no IDR inside: all re-encoded
        SmartCutCase(spec: .smartOpen, ranges: [(0, 37)], copies: true),
        // Copied from the open GOP's I at frame 10 on, made an IDR (H264OpenGOPTests).
        SmartCutCase(spec: .smartOpen, ranges: [(5, 47)], copies: true, renumbered: true),
        SmartCutCase(spec: .smartNTSC, ranges: [(8, 52)], copies: true),
        SmartCutCase(spec: .smartRotated, ranges: [(5, 40)], copies: true),
        SmartCutCase(spec: .smartMKV, ranges: [(15, 83)], copies: true),
        SmartCutCase(spec: .smartHEVC, ranges: [(5, 40)], copies: true, rewrittenStarts: 1),
        SmartCutCase(spec: .smartHEVC, ranges: [(2, 24), (25, 45)], copies: true, rewrittenStarts: 2),
        SmartCutCase(spec: .smartHEVC, ranges: [(1, 14)], copies: false),      // no keyframe inside: all re-encoded
        SmartCutCase(spec: .smartHEVCClosed, ranges: [(5, 55)], copies: true),
        SmartCutCase(spec: .smartHEVCClosed, ranges: [(3, 20), (37, 60)], copies: true),
        SmartCutCase(spec: .smartHEVC10, ranges: [(7, 44)], copies: true),
    ]

    func cut(_ c: SmartCutCase) throws -> (Fixture, URL, ExportResult) {
        let fixture = try FixtureFactory.shared.fixture(c.spec)
        let out = TestPaths.scratchFolder("smart").appendingPathComponent("out.mp4")
        var settings = ExportSettings()
        settings.ranges = c.ranges.map { ExportRange(start: .frame($0.0), end: .frame($0.1)) }
        let result = try VideoEditor(input: fixture.url, output: out, settings: settings).export()
        return (fixture, out, result)
    }

    @Test("every output frame is the expected source frame, decoded by the ffmpeg CLI, with no decode error", arguments: cases)
    func frameExact(_ c: SmartCutCase) throws {
        let (fixture, out, result) = try cut(c)
        #expect(result.frameCount == c.expected.count)
        let indices = try FFmpegOracle.drawnIndices(of: out, size: fixture.spec.size, autorotate: false)
        #expect(indices == c.expected, "\(c)")
        #expect(try FFmpegOracle.decodeErrors(of: out) == "", "\(c)")
        // Samples last as long as the frames are shown: no hole where leading pictures were
        // left out, no one-tick sample at a join (one step at a constant frame rate).
        let packets = try FFmpegOracle.packetTimes(of: out, select: "v:0")
        let decoded = packets.compactMap(\.dts), shown = packets.compactMap(\.pts).sorted()
        #expect(decoded.count == c.expected.count && shown.count == c.expected.count, "\(c)")
        let decodeSteps = Set(zip(decoded.dropFirst(), decoded).map { $0 - $1 })
        #expect(decodeSteps == Set(zip(shown.dropFirst(), shown).map { $0 - $1 }), "\(c): decode steps \(decodeSteps)")
        if c.spec.container != "mkv" { #expect(decodeSteps.count == 1, "\(c): \(decodeSteps)") }
        if c.copies {
            #expect(result.method == "smart" || result.method == "passthrough", "\(c): \(result.note ?? "")")
            #expect((result.copiedFrames ?? 0) > 0, "\(c)")
            #expect((result.reencodedFrames ?? 0) + (result.copiedFrames ?? 0) == c.expected.count)
        } else {
            #expect(result.method == "libx264", "\(c)")
            #expect(result.note?.isEmpty == false, "a re-encode says why")
        }
    }

    @Test("the copied packets are byte-identical to the source's, in the source's decode order", arguments: cases.filter(\.copies))
    func copiedPacketsIdentical(_ c: SmartCutCase) throws {
        let (fixture, out, result) = try cut(c)
        // HEVC's copied IDRs get the source's parameter sets in band: compare the rest.
        let hevc = c.spec.isHEVC
        func hashes(_ url: URL) throws -> [String] {
            hevc ? try FFmpegOracle.hevcSliceHashes(of: url) : try FFmpegOracle.packetHashes(of: url)
        }
        let source: [String] = try hashes(fixture.url)
        let written: [String] = try hashes(out)
        #expect(written.count == c.expected.count)
        let positions = Dictionary(source.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        let copied = written.compactMap { positions[$0] }
        #expect(copied.count == (c.renumbered ? 0 : (result.copiedFrames ?? 0) - c.rewrittenStarts), "\(c)")
        // Within each copied part the packets follow one another as in the source.
        let runs = copied.indices.dropFirst().filter { copied[$0] != copied[$0 - 1] + 1 }.count + 1
        #expect(runs == result.parts.filter { !$0.reencoded }.count, "\(c): \(copied)")
    }

    @Test("re-encoded stretches match the source: codec, profile, level, size, pixel format, colour, SAR, rotation, frame times",
          arguments: [SmartCutCase(spec: .smartClosed, ranges: [(15, 83)], copies: true),
                      SmartCutCase(spec: .smartNoB, ranges: [(7, 70)], copies: true),
                      SmartCutCase(spec: .smartHEVCClosed, ranges: [(5, 55)], copies: true),
                      SmartCutCase(spec: .smartHEVC10, ranges: [(7, 44)], copies: true),
                      SmartCutCase(spec: .smartRotated, ranges: [(5, 40)], copies: true)])
    func matchesSource(_ c: SmartCutCase) throws {
        let (fixture, out, _) = try cut(c)
        func video(_ url: URL) throws -> [String: Any] {
            let streams = try FFprobe.description(of: url)["streams"] as? [[String: Any]] ?? []
            return try #require(streams.first { $0["codec_type"] as? String == "video" })
        }
        let (a, b) = (try video(fixture.url), try video(out))
        for key in ["codec_name", "profile", "level", "width", "height", "pix_fmt", "color_range", "color_space",
                    "color_transfer", "color_primaries", "sample_aspect_ratio", "r_frame_rate", "time_base"] {
            #expect("\(a[key] ?? "-")" == "\(b[key] ?? "-")", "\(c): \(key)")
        }
        #expect(try FFprobe.frames(of: out).rotation == fixture.ffprobeRotation)
        let times = try FFprobe.frames(of: out).timestamps
        let steps = Set(zip(times.dropFirst(), times).map { $0 - $1 })
        #expect(steps.count == 1, "every frame lasts one frame: \(steps)")
    }

    @Test("every parameter set in the cut's bitstream, copied or re-encoded, carries the source's colour description",
          arguments: [SmartCutCase(spec: .smartClosed, ranges: [(15, 83)], copies: true),
                      SmartCutCase(spec: .smartHEVCHLG, ranges: [(7, 44)], copies: true),
                      SmartCutCase(spec: .smartHEVCHLG, ranges: [(3, 20), (30, 45)], copies: true)])
    func colourInEveryParameterSet(_ c: SmartCutCase) throws {
        let (fixture, out, result) = try cut(c)
        #expect((result.reencodedFrames ?? 0) > 0 && (result.copiedFrames ?? 0) > 0, "\(c): both kinds of stretch")
        let source = try FFmpegOracle.bitstreamHeaders(of: fixture.url).sequenceColours
        let expected = c.spec.isHEVC ? "9/18/9" : "1/1/1"
        #expect(Set(source) == [expected], "\(c): the fixture says \(source)")
        let cut = try FFmpegOracle.bitstreamHeaders(of: out).sequenceColours
        #expect(cut.count > 1 && Set(cut) == [expected], "\(c): \(cut)")
    }

    @Test("audio: one range's is copied, joined ranges' re-encoded; it starts and ends with the video to the millisecond")
    func audioSync() throws {
        // Sample by sample: SeamlessAudioTests.
        for c in [SmartCutCase(spec: .smartClosed, ranges: [(15, 83)], copies: true),
                  SmartCutCase(spec: .smartClosed, ranges: [(5, 30), (50, 90)], copies: true)] {
            let (_, out, result) = try cut(c)
            #expect(result.audio == (c.ranges.count == 1 ? "copied" : "aac"), "\(c)")
            let streams = try FFprobe.description(of: out)["streams"] as? [[String: Any]] ?? []
            func value(_ kind: String, _ key: String) -> Double {
                let stream = streams.first { $0["codec_type"] as? String == kind }
                return Double(stream?[key] as? String ?? "") ?? -1
            }
            #expect(value("audio", "start_time") == 0 && value("video", "start_time") == 0, "\(c)")
            let (audioLength, videoLength) = (value("audio", "duration"), value("video", "duration"))
            #expect(abs(audioLength - videoLength) <= 0.001, "\(c): \(audioLength) vs \(videoLength)")
        }
    }

    @Test("a start past the end, or a range that ends before it starts, is an error and writes nothing")
    func badRanges() throws {
        let fixture = try FixtureFactory.shared.fixture(.smartClosed)
        let folder = TestPaths.scratchFolder("smart-bad")
        let out = folder.appendingPathComponent("out.mp4")
        for range in [ExportRange(start: .frame(200), end: nil), ExportRange(start: .frame(40), end: .frame(30)),
                      ExportRange(start: .time(MediaTime(seconds: 9)), end: nil)] {
            var settings = ExportSettings()
            settings.ranges = [ExportRange(start: .frame(1), end: .frame(5)), range]
            #expect(throws: MediaIOError.self) { try VideoEditor(input: fixture.url, output: out, settings: settings).export() }
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "\(range)")
        }
    }

    @Test("--method reencode keeps today's trim: a full re-encode, frame-exact, with its note")
    func reencodeMethod() throws {
        let fixture = try FixtureFactory.shared.fixture(.smartClosed)
        let out = TestPaths.scratchFolder("smart-reencode").appendingPathComponent("out.mp4")
        var settings = ExportSettings(range: ExportRange(start: .frame(15), end: .frame(83)), method: .reencode)
        settings.preset = .auto
        let result = try VideoEditor(input: fixture.url, output: out, settings: settings).export()
        #expect(result.method == "libx264" && result.copiedFrames == nil)
        #expect(result.note?.contains("not on a keyframe") == true)
        #expect(try FFmpegOracle.drawnIndices(of: out, size: fixture.spec.size) == (15..<83).map { $0 })
    }
}
