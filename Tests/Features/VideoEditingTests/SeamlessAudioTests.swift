import Foundation
import MediaIO
import Testing
import VideoEditing
import ViewfinderCore
import ViewfinderTestSupport

/// The sound of a smart cut, sample by sample: a source whose audio is a click every 100 ms
/// (4,800 samples) over a sweep from 300 Hz to 3 kHz that starts again with each click (so
/// that no stretch of 20 ms looks like another within a coded frame's reach) is cut, and the output's decoded samples are compared with
/// the source's decoded samples over the kept ranges — by FFmpeg, and by libfaad behind
/// GStreamer's demuxer for AAC — so that no sample is doubled or lost at a join or an edge,
/// each range's sound starts where its first frame is shown, and no click sounds at a join.
@Suite("Smart cuts: seamless audio")
struct SeamlessAudioTests {
    static let rate = 48000
    static let clickEvery = 4800
    /// 96 frames at 30 fps (3.2 s): closed GOPs of 12 with B-frames, and the clicks and sweeps.
    static func source(_ name: String, audio: [String]) -> FixtureSpec {
        let phase = "mod(t\\,0.1)"
        let sweep = "0.4*sin(2*PI*(300*\(phase)+13500*\(phase)*\(phase)))+if(lt(mod(n\\,\(clickEvery))\\,1)\\,0.5\\,0)"
        return FixtureSpec("seamless-\(name)", frames: 96, encode: FixtureSpec.x264 + [
            "-bf", "3", "-g", "12", "-keyint_min", "12", "-sc_threshold", "0"] + audio,
            input: ["-f", "lavfi", "-i", "aevalsrc=\(sweep):s=\(rate):c=mono:d=3.2"])
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let codec: String
        let audio: [String]
        let ranges: [(Int, Int)]
        /// What the result says of the audio: copied (one range of AAC) or re-encoded.
        let summary: String
        var testDescription: String { "\(codec) \(ranges.map { "\($0.0)–\($0.1)" }.joined(separator: ", "))" }
        var spec: FixtureSpec { SeamlessAudioTests.source(codec, audio: audio) }
        var isAAC: Bool { codec == "aac" }
    }

    static let aac = ["-c:a", "aac", "-b:a", "192k"]
    static let cases = [
        Case(codec: "aac", audio: aac, ranges: [(5, 83)], summary: "copied"),
        Case(codec: "aac", audio: aac, ranges: [(5, 29), (50, 89)], summary: "aac"),
        Case(codec: "aac", audio: aac, ranges: [(40, 60), (7, 25), (70, 95)], summary: "aac"),
        Case(codec: "opus", audio: ["-c:a", "libopus", "-b:a", "128k"], ranges: [(5, 83)], summary: "aac"),
        Case(codec: "opus", audio: ["-c:a", "libopus", "-b:a", "128k"], ranges: [(5, 29), (50, 89)], summary: "aac"),
        Case(codec: "ac3", audio: ["-c:a", "ac3", "-b:a", "192k"], ranges: [(5, 29), (50, 89)], summary: "aac"),
    ]

    /// Each range's first sample and length on the source's timeline (frames at 30 fps are
    /// 1,600 samples), and where it starts in the output.
    static func layout(_ ranges: [(Int, Int)]) -> [(from: Int, length: Int, at: Int)] {
        var at = 0
        return ranges.map { range in
            defer { at += (range.1 - range.0) * 1600 }
            return (range.0 * 1600, (range.1 - range.0) * 1600, at)
        }
    }

    func cut(_ c: Case) throws -> (source: URL, output: URL, result: ExportResult) {
        let fixture = try FixtureFactory.shared.fixture(c.spec)
        let out = TestPaths.scratchFolder("seamless").appendingPathComponent("out.mp4")
        var settings = ExportSettings()
        settings.ranges = c.ranges.map { ExportRange(start: .frame($0.0), end: .frame($0.1)) }
        let result = try VideoEditor(input: fixture.url, output: out, settings: settings).export()
        return (fixture.url, out, result)
    }

    /// Checks that every range of `output` holds the source's samples in place: the shift of
    /// five windows of 20 ms spread over it, from its start to its end, is within one sample
    /// of 0 (searched over more than a coded frame either way: AC-3's is 1,536 samples).
    /// `dropped`: how many samples the decoder leaves out at the start of every stream (it
    /// then leaves out up to twice as many at the end: the last windows keep clear of them).
    func inPlace(_ output: [Int16], _ source: [Int16], _ c: Case, decoder: String, dropped: Int = 0) {
        for (from, length, at) in Self.layout(c.ranges) {
            for k in 0..<5 {
                let offset = 240 + dropped + k * (length - 1200 - 4 * dropped) / 4
                let shift = AudioAnalysis.shift(of: output, at: at + offset - dropped, in: source, from: from + offset - dropped,
                                                length: 960, span: 1600)
                #expect(shift.map { abs($0) <= 1 } == true,
                        "\(c), \(decoder): the range from source sample \(from) is shifted by \(shift.map(String.init) ?? "?") samples at +\(offset)")
            }
        }
    }

    @Test("no sample doubled or lost at a join or an edge, no click at a join, in sync; FFmpeg decoding", arguments: cases)
    func ffmpeg(_ c: Case) throws {
        let (source, output, result) = try cut(c)
        #expect(result.method == "smart", "\(c): \(result.note ?? "")")
        #expect(result.audio == c.summary, "\(c)")
        let before = try FFmpegOracle.audioSamples(of: source), after = try FFmpegOracle.audioSamples(of: output)
        inPlace(after, before, c, decoder: "FFmpeg")

        // No click at a join: over the 10 ms around each, the output differs from the source's
        // samples by a fifth of the signal at most (a re-encode's error where the waveform
        // steps: 1–11 % measured); a sample lost or doubled there differs by about the whole signal.
        var expected: [Int16] = []
        for (from, length, _) in Self.layout(c.ranges) { expected += before[from..<(from + length)] }
        for join in Self.layout(c.ranges).dropFirst().map(\.at) {
            let around = (join - 240)..<min(join + 240, after.count, expected.count)
            let error = around.reduce(0.0) { $0 + pow(Double(after[$1]) - Double(expected[$1]), 2) }
            let signal = around.reduce(0.0) { $0 + pow(Double(expected[$1]), 2) }
            #expect(error <= signal / 25, "\(c): around the join at sample \(join) the output is \(Int((error / max(signal, 1)).squareRoot() * 100)) % off the source")
        }

        // Sound and picture start together, and end together to within one millisecond
        // (FFmpeg's AAC encoder ends its last frame 32 samples short).
        let streams = try FFprobe.description(of: output)["streams"] as? [[String: Any]] ?? []
        func time(_ kind: String, _ key: String) -> Double? {
            streams.first { $0["codec_type"] as? String == kind }.flatMap { Double($0[key] as? String ?? "") }
        }
        #expect(time("audio", "start_time") == 0 && time("video", "start_time") == 0, "\(c)")
        let ends = (time("audio", "duration") ?? 0, time("video", "duration") ?? 0)
        #expect(abs(ends.0 - ends.1) <= 0.001, "\(c): audio lasts \(ends.0) s, video \(ends.1) s")
    }

    @Test("the same, decoded by libfaad behind GStreamer's demuxer", arguments: cases.filter(\.isAAC))
    func faad(_ c: Case) throws {
        let (source, output, _) = try cut(c)
        inPlace(try GStreamerOracle.aacSamples(of: output, channels: 1), try GStreamerOracle.aacSamples(of: source, channels: 1), c,
                decoder: "faad", dropped: 1024)
    }

    @Test("one range of AAC is copied: the decoded samples are the source's, from the first to the last")
    func copiedExactly() throws {
        let c = Self.cases[0]
        let (source, output, _) = try cut(c)
        let before = try FFmpegOracle.audioSamples(of: source), after = try FFmpegOracle.audioSamples(of: output)
        let (from, length, _) = Self.layout(c.ranges)[0]
        #expect(after.count >= length, "\(after.count) samples")
        let worst = zip(after.prefix(length), before[from..<(from + length)]).map { abs(Int($0) - Int($1)) }.max() ?? .max
        #expect(worst <= 16, "the copy's samples differ from the source's by up to \(worst)")
    }
}
