import Foundation
@testable import MediaIO
import Testing
import ViewfinderCore
import ViewfinderTestSupport

/// The SPS reader and rewriter a smart cut's joins rely on, checked on real x264 parameter sets
/// against FFmpeg's own bitstream reader (the `trace_headers` filter) and decoder.
@Suite("H.264 sequence parameter sets: read through the VUI, rewritten bit for bit")
struct H264SequenceParameterSetTests {
    /// x264 variants, each with the trace field (and value) that shows it is what it says.
    static let variants: [(name: String, options: [String], shows: (field: String, value: Int))] = [
        ("bframes", ["-preset", "veryfast", "-bf", "3", "-refs", "4"], ("max_dec_frame_buffering", 4)),
        ("no-bframes", ["-preset", "veryfast", "-bf", "0"], ("max_num_reorder_frames", 0)),
        ("hrd", ["-preset", "veryfast", "-b:v", "400k", "-maxrate", "400k", "-bufsize", "800k", "-x264-params", "nal-hrd=cbr"],
         ("nal_hrd_parameters_present_flag", 1)),
        ("interlaced", ["-preset", "veryfast", "-flags", "+ildct+ilme", "-x264-params", "tff=1"], ("frame_mbs_only_flag", 0)),
        ("baseline", ["-preset", "veryfast", "-profile:v", "baseline"], ("profile_idc", 66)),
    ]

    /// A Baseline SPS without VUI (128×96, level 1.0), as many small encoders write.
    static let withoutVUI: [UInt8] = [0x67, 0x42, 0x00, 0x0A, 0xF8, 0x41, 0xA2]

    @Test("x264's SPSs (B-frames, HRD, interlaced, Baseline) and one with scaling lists read as FFmpeg reads them and write back byte for byte")
    func roundTrip() throws {
        for variant in Self.variants {
            let stream = try Self.encode(variant.options)
            let nal = try #require(stream.first { $0[0] & 0x1F == 7 })
            let trace = try Self.trace(nal)
            #expect(trace[variant.shows.field] == variant.shows.value, "\(variant.name): \(variant.shows.field)")
            let sps = try #require(H264SequenceParameterSet(nal: nal), "\(variant.name)")
            Self.expect(sps, readsAs: trace, variant.name)
            #expect(sps.nal(restriction: sps.restriction) == nal, "\(variant.name)")
        }
        // x264 puts its scaling matrices in the PPS; this SPS carries two lists (one cut short
        // by a zero, "use the default") and a VUI with timing and a restriction.
        let scaled = Self.scalingListSPS
        let scaledTrace = try Self.trace(scaled)
        #expect(scaledTrace["seq_scaling_matrix_present_flag"] == 1 && scaledTrace["seq_scaling_list_present_flag[1]"] == 1)
        let scaledSPS = try #require(H264SequenceParameterSet(nal: scaled))
        Self.expect(scaledSPS, readsAs: scaledTrace, "scaling lists")
        #expect(scaledSPS.nal(restriction: scaledSPS.restriction) == scaled)
        let scaledRewrite = scaledSPS.nal(restriction: .init(maxNumReorderFrames: 2, maxDecFrameBuffering: 5), referenceFrames: 5)
        let rewrittenTrace = try Self.trace(scaledRewrite)
        #expect(rewrittenTrace["max_num_reorder_frames"] == 2 && rewrittenTrace["max_dec_frame_buffering"] == 5
                && rewrittenTrace["max_num_ref_frames"] == 5)
        #expect(scaledTrace.filter { !Self.restrictionFields.contains($0.key) && !$0.key.hasPrefix("log2_max_mv") && !$0.key.hasPrefix("max_b") }
                == rewrittenTrace.filter { !Self.restrictionFields.contains($0.key) && !$0.key.hasPrefix("log2_max_mv") && !$0.key.hasPrefix("max_b") })

        let bare = try #require(H264SequenceParameterSet(nal: Self.withoutVUI))
        let trace = try Self.trace(Self.withoutVUI)
        Self.expect(bare, readsAs: trace, "no VUI")
        #expect(!bare.hasVUI && bare.restriction == nil)
        // Inferred: MaxDpbMbs 396 at level 1.0 over 8 × 6 macroblocks.
        #expect(bare.decodedPictureBufferFrames == 8 && bare.reorderFrames == 8)
        #expect(bare.nal(restriction: nil) == Self.withoutVUI)
    }

    @Test("a rewritten buffer size, reorder depth and reference count read back exactly; every other field, and every decoded picture, stays")
    func rewrite() throws {
        for variant in Self.variants {
            let stream = try Self.encode(variant.options)
            let nal = try #require(stream.first { $0[0] & 0x1F == 7 })
            let sps = try #require(H264SequenceParameterSet(nal: nal))
            var restriction = sps.restriction ?? H264SequenceParameterSet.Restriction(maxNumReorderFrames: 0, maxDecFrameBuffering: 0)
            restriction.maxNumReorderFrames = 3
            restriction.maxDecFrameBuffering = 6
            let references = sps.maxNumReferenceFrames + 2
            let rewritten = sps.nal(restriction: restriction, referenceFrames: references)
            let reread = try #require(H264SequenceParameterSet(nal: rewritten), "\(variant.name)")
            #expect(reread.restriction == restriction && reread.maxNumReferenceFrames == references, "\(variant.name)")
            let before = try Self.trace(nal), after = try Self.trace(rewritten)
            #expect(after["max_num_reorder_frames"] == 3 && after["max_dec_frame_buffering"] == 6, "\(variant.name)")
            #expect(after["max_num_ref_frames"] == references, "\(variant.name)")
            #expect(before.filter { !Self.restrictionFields.contains($0.key) } == after.filter { !Self.restrictionFields.contains($0.key) },
                    "\(variant.name)")
            // The stream decodes to the same pictures under either SPS.
            let swapped = stream.map { $0[0] & 0x1F == 7 ? rewritten : $0 }
            #expect(try Self.frameHashes(swapped) == Self.frameHashes(stream), "\(variant.name)")
        }
        // No VUI: one is added that holds only the restriction.
        let added = try #require(H264SequenceParameterSet(nal: Self.withoutVUI)?
            .nal(restriction: .init(maxNumReorderFrames: 1, maxDecFrameBuffering: 2)))
        let trace = try Self.trace(added)
        #expect(trace["vui_parameters_present_flag"] == 1 && trace["bitstream_restriction_flag"] == 1)
        #expect(trace["max_num_reorder_frames"] == 1 && trace["max_dec_frame_buffering"] == 2)
        #expect(trace["aspect_ratio_info_present_flag"] == 0 && trace["timing_info_present_flag"] == 0)
        #expect(trace["pic_width_in_mbs_minus1"] == 7 && trace["pic_height_in_map_units_minus1"] == 5)
    }

    @Test("an encoder's SPS takes the source's buffer, reorder depth and reference count; one using more references is left alone")
    func matching() throws {
        let source = try #require(Self.encode(["-preset", "veryfast", "-bf", "3", "-refs", "4"]).first { $0[0] & 0x1F == 7 })
        let encoder = try #require(Self.encode(["-preset", "veryfast", "-bf", "0", "-x264-params", "sps-id=1"]).first { $0[0] & 0x1F == 7 })
        let model = try #require(H264SequenceParameterSet(nal: source))
        let matched = try #require(H264SequenceParameterSet(nal: encoder)?.matchingBuffer(of: model))
        let trace = try Self.trace(matched)
        #expect(trace["max_dec_frame_buffering"] == 4 && trace["max_num_reorder_frames"] == 2)
        #expect(trace["seq_parameter_set_id"] == 1 && trace["max_num_ref_frames"] == 4)
        let greedy = try #require(Self.encode(["-preset", "veryfast", "-bf", "0", "-refs", "5"]).first { $0[0] & 0x1F == 7 })
        #expect(H264SequenceParameterSet(nal: greedy)?.matchingBuffer(of: model) == nil)
        let other = try #require(H264SequenceParameterSet(nal: Self.withoutVUI))
        #expect(H264SequenceParameterSet(nal: encoder)?.matchingBuffer(of: other) == nil, "another picture size")
    }

    @Test("emulation-prevention bytes go in before every 00 00 0x (x ≤ 3) and come out again")
    func emulationPrevention() {
        let rbsp: [UInt8] = [0, 0, 0, 0, 0, 1, 0, 0, 3, 0, 0, 4, 0, 0]
        let escaped = H264SequenceParameterSet.escaped(rbsp)
        #expect(escaped == [0, 0, 3, 0, 0, 3, 0, 1, 0, 0, 3, 3, 0, 0, 4, 0, 0])
        #expect(BitReader(rbsp: escaped).bytes == rbsp)
    }

    @Test("a truncated or mangled SPS gives nil or a parse, never a crash")
    func hostile() throws {
        let nal = try #require(Self.encode(Self.variants[3].options).first { $0[0] & 0x1F == 7 })
        for length in 0..<nal.count {
            #expect(H264SequenceParameterSet(nal: Array(nal.prefix(length))) == nil, "\(length) bytes")
        }
        #expect(H264SequenceParameterSet(nal: [0x67] + [UInt8](repeating: 0xFF, count: 40)) == nil)
        #expect(H264SequenceParameterSet(nal: [0x67] + [UInt8](repeating: 0x00, count: 40)) == nil)
        #expect(H264SequenceParameterSet(nal: [0x68] + nal.dropFirst()) == nil, "a PPS header")
        var random = SplitMix64(seed: 27)
        for _ in 0..<3000 {
            var mangled = nal
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                mangled[Int.random(in: 1..<mangled.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
            if let sps = H264SequenceParameterSet(nal: mangled) {
                // Whatever parses rewrites and parses again.
                _ = sps.matchingBuffer(of: sps)
                #expect(H264SequenceParameterSet(nal: sps.nal(restriction: sps.restriction)) != nil)
            }
        }
    }

    /// A High-profile SPS (320×192, level 3.0) with scaling lists 0 (16 deltas) and 1 (cut
    /// short), timing information and a bitstream restriction, written field by field.
    static var scalingListSPS: [UInt8] {
        var w = BitWriter()
        w.write(100, bits: 8); w.write(0, bits: 8); w.write(30, bits: 8)
        w.writeExpGolomb(0)  // seq_parameter_set_id
        w.writeExpGolomb(1); w.writeExpGolomb(0); w.writeExpGolomb(0); w.write(0, bits: 1)  // 4:2:0, 8-bit
        w.write(1, bits: 1)  // seq_scaling_matrix_present_flag
        func se(_ v: Int) { w.writeExpGolomb(v > 0 ? 2 * v - 1 : -2 * v) }
        w.write(1, bits: 1); for delta in [2, -1, 3, 0, 1, -2, 4, 0, 1, 1, -3, 2, 0, 5, -1, 1] { se(delta) }
        w.write(1, bits: 1); se(-8)  // 8 - 8 = 0: the default list
        for _ in 2..<8 { w.write(0, bits: 1) }
        w.writeExpGolomb(0); w.writeExpGolomb(0); w.writeExpGolomb(2)  // frame_num, POC type 0, POC lsb bits
        w.writeExpGolomb(3); w.write(0, bits: 1)  // max_num_ref_frames, gaps
        w.writeExpGolomb(19); w.writeExpGolomb(11); w.write(1, bits: 1); w.write(1, bits: 1); w.write(0, bits: 1)
        w.write(1, bits: 1)  // VUI
        w.write(0, bits: 4)  // aspect, overscan, signal type, chroma location
        w.write(1, bits: 1); w.write(1, bits: 32); w.write(60, bits: 32); w.write(1, bits: 1)  // timing
        w.write(0, bits: 3)  // NAL HRD, VCL HRD, pic_struct
        w.write(1, bits: 1); w.write(1, bits: 1)
        for value in [0, 0, 11, 11, 0, 3] { w.writeExpGolomb(value) }
        w.write(1, bits: 1)
        return [0x67] + H264SequenceParameterSet.escaped(w.finish())
    }

    // MARK: - Oracles

    /// The fields a rewrite changes, and the alignment bits that move with them.
    static let restrictionFields: Set<String> = ["max_num_reorder_frames", "max_dec_frame_buffering", "max_num_ref_frames",
                                                 "rbsp_alignment_zero_bit"]

    static func expect(_ sps: H264SequenceParameterSet, readsAs trace: [String: Int], _ name: String) {
        #expect(trace["profile_idc"] == sps.profile && trace["level_idc"] == sps.level, "\(name)")
        #expect(trace["seq_parameter_set_id"] == sps.id && trace["max_num_ref_frames"] == sps.maxNumReferenceFrames, "\(name)")
        #expect(trace["pic_width_in_mbs_minus1"].map { $0 + 1 } == sps.widthInMacroblocks, "\(name)")
        let frameHeight = trace["pic_height_in_map_units_minus1"].map { ($0 + 1) * (trace["frame_mbs_only_flag"] == 0 ? 2 : 1) }
        #expect(frameHeight == sps.heightInMacroblocks, "\(name)")
        #expect(trace["vui_parameters_present_flag"] == (sps.hasVUI ? 1 : 0), "\(name)")
        #expect(trace["max_num_reorder_frames"] == sps.restriction?.maxNumReorderFrames, "\(name)")
        #expect(trace["max_dec_frame_buffering"] == sps.restriction?.maxDecFrameBuffering, "\(name)")
    }

    /// Three frames of a 320×180 test picture from the ffmpeg CLI's libx264, as NAL units.
    static func encode(_ options: [String]) throws -> [[UInt8]] {
        let result = try Subprocess.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=30",
                                                   "-frames:v", "3", "-c:v", "libx264", "-pix_fmt", "yuv420p"] + options + ["-f", "h264", "-"])
        guard result.status == 0 else { throw SubprocessError.failed("ffmpeg", result.stderr) }
        return [UInt8](result.stdoutData).withUnsafeBufferPointer { AVCConfiguration.annexBUnits($0) }
    }

    static func annexB(_ units: [[UInt8]]) throws -> URL {
        let url = TestPaths.scratchFolder("sps").appendingPathComponent("\(UUID().uuidString).h264")
        try Data(units.flatMap { [0, 0, 0, 1] + $0 }).write(to: url)
        return url
    }

    /// FFmpeg's reading of an SPS: each syntax element's value by name (the last one of a name).
    static func trace(_ sps: [UInt8]) throws -> [String: Int] {
        let url = try annexB([sps])
        let result = try Subprocess.run("ffmpeg", ["-v", "trace", "-f", "h264", "-i", url.path, "-c", "copy",
                                                   "-bsf:v", "trace_headers", "-f", "null", "-"])
        var fields: [String: Int] = [:]
        for line in result.stderr.split(separator: "\n") where line.hasPrefix("[trace_headers") {
            let words = line.split(separator: " ")
            guard words.count >= 6, words[words.count - 2] == "=", let value = Int(words[words.count - 1]) else { continue }
            fields[String(words[4])] = value
        }
        guard fields["profile_idc"] != nil else { throw SubprocessError.failed("ffmpeg trace_headers", result.stderr) }
        return fields
    }

    /// The MD5 of every picture FFmpeg decodes from the NAL units.
    static func frameHashes(_ units: [[UInt8]]) throws -> [String] {
        let url = try annexB(units)
        let result = try Subprocess.run("ffmpeg", ["-v", "error", "-f", "h264", "-i", url.path, "-f", "framemd5", "-"])
        guard result.status == 0, result.stderr.isEmpty else { throw SubprocessError.failed("ffmpeg", result.stderr) }
        return result.stdout.split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init)
    }
}
