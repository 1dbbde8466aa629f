import Foundation
import MediaIO
import Testing
import VideoEditing
import ViewfinderCore
import ViewfinderTestSupport

/// HEVC smart cuts in the form Apple's players accept (`hvc1`: every parameter set in the sample
/// descriptions, none in the samples), read by decoders and readers other than FFmpeg's.
@Suite("Smart cut: HEVC as hvc1, read by GStreamer, libde265 and MediaInfo")
struct SmartCutHEVCTests {
    static let cases: [SmartCutCase] = [
        SmartCutCase(spec: .smartHEVC, ranges: [(5, 40)], copies: true, rewrittenStarts: 1),
        SmartCutCase(spec: .smartHEVC, ranges: [(2, 24), (25, 45)], copies: true, rewrittenStarts: 2),
        SmartCutCase(spec: .smartHEVCClosed, ranges: [(3, 20), (37, 60)], copies: true),
        SmartCutCase(spec: .smartHEVC10, ranges: [(7, 44)], copies: true),
    ]

    @Test("hvc1 with no parameter set in any sample, a sample description per encoder switched at each stretch's first sample; GStreamer with libde265 gives every kept frame; MediaInfo reads a constant frame rate",
          arguments: cases)
    func appleForm(_ c: SmartCutCase) throws {
        let (fixture, out, result) = try SmartCutTests().cut(c)
        #expect(result.method == "smart", "\(c): \(result.note ?? "")")
        let streams = try FFprobe.description(of: out)["streams"] as? [[String: Any]] ?? []
        let video = try #require(streams.first { $0["codec_type"] as? String == "video" })
        #expect(video["codec_tag_string"] as? String == "hvc1", "\(c)")

        let samples = try FFmpegOracle.videoSamples(of: out)
        #expect(samples.count == c.expected.count, "\(c)")
        for (i, sample) in samples.enumerated() {
            let types = try #require(NALUnits.hevcTypes(sample), "\(c): sample \(i) does not parse")
            #expect(types.allSatisfy { !(32...34).contains($0) }, "\(c): sample \(i) carries \(types)")
        }

        // Where the stretches meet in decode order, and where the kind of stretch changes.
        var starts: [Int] = []
        var changes: [Int] = []
        var position = 0
        for (i, part) in result.parts.enumerated() {
            if i > 0 {
                starts.append(position)
                if part.reencoded != result.parts[i - 1].reencoded { changes.append(position) }
            }
            position += part.frames
        }
        let switches = try FFmpegOracle.newDescriptionPositions(of: out)
        #expect(!changes.isEmpty && Set(changes).isSubset(of: Set(switches)), "\(c): switches \(switches), parts change at \(changes)")
        #expect(Set(switches).isSubset(of: Set(starts)), "\(c): switches \(switches) inside a stretch (parts start at \(starts))")

        // libde265 twice: GStreamer's element behind its MP4 demuxer (8-bit pictures only), and
        // its own dec265 on the byte stream GStreamer's parser makes (every bit depth).
        let tenBit = fixture.spec.encode.contains("yuv420p10le")
        if !tenBit {
            let element = try GStreamerOracle.drawnIndices(of: out, size: fixture.spec.size, decoder: .libde265)
            #expect(element == c.expected, "\(c): GStreamer's libde265 gave \(element.count) frames")
        }
        let dec265 = try GStreamerOracle.dec265DrawnIndices(of: out, size: fixture.spec.size, bitDepth: tenBit ? 10 : 8)
        #expect(dec265 == c.expected, "\(c): dec265 gave \(dec265)")

        let info = try MediaInfoOracle.videoTrack(of: out)
        #expect(info["CodecID"] == "hvc1", "\(c)")
        #expect(info["FrameRate_Mode"] == "CFR", "\(c): \(info["FrameRate_Mode"] ?? "-")")
        #expect(info["FrameCount"] == String(c.expected.count), "\(c)")
    }

    @Test("the index goes before the media data unless --no-faststart asked otherwise")
    func fastStart() throws {
        let c = Self.cases[0]
        let fixture = try FixtureFactory.shared.fixture(c.spec)
        for fast in [true, false] {
            let out = TestPaths.scratchFolder("hevc-faststart").appendingPathComponent("out-\(fast).mp4")
            var settings = ExportSettings()
            settings.ranges = c.ranges.map { ExportRange(start: .frame($0.0), end: .frame($0.1)) }
            settings.fastStart = fast
            let result = try VideoEditor(input: fixture.url, output: out, settings: settings).export()
            #expect(result.method == "smart")
            let bytes = [UInt8](try Data(contentsOf: out))
            var order: [String] = []
            var offset = 0
            while offset + 8 <= bytes.count {
                let size = bytes[offset ..< offset + 4].reduce(0) { $0 << 8 | Int($1) }
                order.append(String(decoding: bytes[offset + 4 ..< offset + 8], as: UTF8.self))
                guard size >= 8 else { break }
                offset += size
            }
            #expect(offset == bytes.count, "the boxes cover the file exactly")
            let movie = try #require(order.firstIndex(of: "moov")), data = try #require(order.firstIndex(of: "mdat"))
            #expect(fast ? movie < data : movie > data, "\(order)")
            #expect(try FFmpegOracle.drawnIndices(of: out, size: fixture.spec.size, autorotate: false) == c.expected)
        }
    }
}
