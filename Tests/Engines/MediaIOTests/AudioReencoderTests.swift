import Foundation
import Testing
import ViewfinderCore
import ViewfinderTestSupport

@testable import MediaIO

/// Audio MP4 cannot hold (PCM, Opus, FLAC) or that a re-encode converts (MP3) becomes AAC
/// through the export path: same rate and channels, the same length to within one AAC
/// frame, and a beep still sounds when the video says it should.
@Suite("Audio re-encoding")
struct AudioReencoderTests {
    /// An input: the 1.6 s index-pattern clip with a tone that starts at `beep` s of the
    /// audio's own timeline, the audio starting `offset` s after the video.
    struct Input: Sendable, CustomTestStringConvertible {
        let codec: String
        let rate: Int
        let channels: Int
        var offset: Double = 0
        var testDescription: String { "\(codec) \(rate) Hz ×\(channels)" + (offset > 0 ? " +\(offset) s" : "") }
        static let beep = 1.0
    }

    static let aacFrame = 1024

    static func make(_ input: Input) throws -> URL {
        let video = try FixtureFactory.shared.fixture(.h264BFrames)
        let url = TestPaths.scratchFolder("audio-in").appendingPathComponent("in.mkv")
        let length = 1.6 - input.offset
        let tone = "aevalsrc=if(gte(t\\,\(Input.beep))\\,0.5*sin(2*PI*1000*t)\\,0):s=\(input.rate):c=\(input.channels == 1 ? "mono" : "stereo"):d=\(length)"
        let made = try Subprocess.run("ffmpeg", ["-v", "error", "-y", "-i", video.url.path, "-itsoffset", "\(input.offset)", "-f", "lavfi", "-i", tone,
                                                 "-map", "0:v", "-map", "1:a", "-c:v", "copy", "-c:a", input.codec, url.path])
        guard made.status == 0 else { throw SubprocessError.failed("ffmpeg", made.stderr) }
        return url
    }

    static func stream(_ type: String, of url: URL) throws -> [String: Any] {
        let streams = try FFprobe.description(of: url)["streams"] as? [[String: Any]] ?? []
        return try #require(streams.first { $0["codec_type"] as? String == type }, "\(url.lastPathComponent) has no \(type)")
    }

    static func startTime(_ type: String, of url: URL) throws -> Double {
        try #require(Double(try stream(type, of: url)["start_time"] as? String ?? ""))
    }

    /// Decoded samples per channel, when the first decoded sample sounds and when the first
    /// loud one does, in seconds on the file's timeline. The start is the first decoded frame's
    /// time, after the decoder's own skip (Opus' pre-skip), not the first packet's.
    static func measure(_ url: URL, rate: Int, channels: Int) throws -> (samples: Int, start: Double, onset: Double) {
        let samples = try FFmpegOracle.audioSamples(of: url)
        let frames = try FFmpegOracle.frameEntries(of: url, select: "a:0", entries: "pts_time")
        let start = try #require(frames.first.flatMap { Double($0["pts_time"] as? String ?? "") })
        let first = try #require(samples.firstIndex { abs(Int($0)) > 4000 }, "no beep in \(url.lastPathComponent)")
        return (samples.count / channels, start, start + Double(first / channels) / Double(rate))
    }

    /// Placed to the sample, the beep may still seem to move by AAC's pre-echo (a short block).
    static let syncTolerance = 0.004

    static func export(_ url: URL, range: ExportRange? = nil) throws -> (URL, ExportResult) {
        let output = TestPaths.scratchFolder("audio-out").appendingPathComponent("out.mp4")
        var settings = ExportSettings()
        settings.preset = .medium
        settings.range = range
        let result = try VideoExporter(input: url, output: output, settings: settings).run()
        return (output, result)
    }

    @Test("AAC at the same rate and channels, as long to within one AAC frame, the beep in sync", arguments: [
        Input(codec: "pcm_s16le", rate: 44100, channels: 2),
        Input(codec: "libopus", rate: 48000, channels: 1),
        Input(codec: "libmp3lame", rate: 32000, channels: 2),
        Input(codec: "flac", rate: 96000, channels: 2),
        Input(codec: "pcm_s16le", rate: 22050, channels: 1, offset: 0.5),
    ])
    func reencoded(_ input: Input) throws {
        let source = try Self.make(input)
        let (output, result) = try Self.export(source)
        #expect(result.audio == "aac")
        let stream = try Self.stream("audio", of: output)
        #expect(stream["codec_name"] as? String == "aac")
        #expect(stream["sample_rate"] as? String == "\(input.rate)")
        #expect(stream["channels"] as? Int == input.channels)
        // The output is the input's video range: audio outside it goes, the rest keeps its
        // place against the first frame (which becomes time 0).
        let videoStart = try Self.startTime("video", of: source)
        let before = try Self.measure(source, rate: input.rate, channels: input.channels)
        let after = try Self.measure(output, rate: input.rate, channels: input.channels)
        // The audio ends where it ended, or with the video; a late track may show the AAC
        // encoder's priming before its first sample (MP4 skips it only for a track at 0).
        let end = min(before.start + Double(before.samples) / Double(input.rate), videoStart + result.duration.seconds) - videoStart
        let written = after.start + Double(after.samples) / Double(input.rate)
        #expect(abs(written - end) <= Double(Self.aacFrame) / Double(input.rate), "the audio ends at \(written) s, not \(end) s")
        #expect(abs(after.onset - (before.onset - videoStart)) <= Self.syncTolerance,
                "the beep sounds at \(after.onset) s, \(before.onset - videoStart) s after the first frame in the input")
    }

    @Test("a trim that starts at 0.5 s moves the beep to 0.5 s, as it moves the video")
    func trimmed() throws {
        let input = Input(codec: "pcm_s16le", rate: 48000, channels: 2)
        let source = try Self.make(input)
        let (output, result) = try Self.export(source, range: ExportRange(start: .time(MediaTime(value: 1, timescale: 2)), end: nil))
        #expect(result.start == MediaTime(value: 1, timescale: 2))
        let frames = try FFmpegOracle.frames(of: output, size: FixtureSpec.h264BFrames.size)
        #expect(frames.first.flatMap(FrameIndexPattern.readIndex(from:)) == 15, "the video starts with frame 15 (0.5 s)")
        let after = try Self.measure(output, rate: input.rate, channels: input.channels)
        let videoStart = try Self.startTime("video", of: source)
        #expect(abs(after.onset - (1 - 0.5 - videoStart)) <= Self.syncTolerance, "the beep is at \(after.onset) s")
        #expect(abs(after.samples - 48000 * 11 / 10) <= Self.aacFrame, "1.1 s of audio, not \(after.samples) samples")
    }
}
