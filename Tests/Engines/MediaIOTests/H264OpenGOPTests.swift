import Foundation
@testable import MediaIO
import Testing
import ViewfinderCore
import ViewfinderTestSupport

/// H.264 open GOPs: the slice header reader and writer, and the I picture made an IDR with the
/// pictures after it renumbered (the smart cuts that start their copy there are VideoEditing's:
/// `H264OpenGOPSmartCutTests`).
@Suite("H.264 open GOP: slice headers rewritten, copies started at a non-IDR I")
struct H264OpenGOPTests {
    /// The fixture's stream: parameter sets, and its samples (length-prefixed) with their
    /// presentation times, in decode order.
    struct Stream {
        let sequence: [UInt8]
        let picture: [UInt8]
        let samples: [[UInt8]]
        let pts: [Int64]
    }

    static func stream(_ spec: FixtureSpec) throws -> Stream {
        let fixture = try FixtureFactory.shared.fixture(spec)
        let annexB = try Subprocess.run("ffmpeg", ["-v", "error", "-i", fixture.url.path, "-map", "0:v:0", "-c", "copy",
                                                   "-bsf:v", "h264_mp4toannexb", "-f", "h264", "-"])
        #expect(annexB.status == 0)
        let units = [UInt8](annexB.stdoutData).withUnsafeBufferPointer { AVCConfiguration.annexBUnits($0) }
        let sps = try #require(units.first { $0[0] & 0x1F == 7 })
        let pps = try #require(units.first { $0[0] & 0x1F == 8 })
        let samples = try FFmpegOracle.videoSamples(of: fixture.url)
        let pts = try FFmpegOracle.packetTimes(of: fixture.url, select: "v:0").map { $0.pts ?? 0 }
        #expect(samples.count == pts.count)
        return Stream(sequence: sps, picture: pps, samples: samples, pts: pts)
    }

    static func slices(_ sample: [UInt8]) -> [[UInt8]] {
        let ranges = sample.withUnsafeBufferPointer { AVCConfiguration.units(ofPacket: $0, lengthSize: 4) } ?? []
        return ranges.map { Array(sample[$0]) }.filter { [1, 5].contains($0[0] & 0x1F) }
    }

    @Test("every slice header of CABAC and CAVLC clips parses and, unchanged, writes back byte for byte",
          arguments: [FixtureSpec.smartOpenLong, .smartOpenCAVLC])
    func roundTrip(_ spec: FixtureSpec) throws {
        let s = try Self.stream(spec)
        let sps = try #require(H264SequenceParameterSet(nal: s.sequence))
        let pps = try #require(H264PictureParameterSet(nal: s.picture))
        #expect(pps.cabac == !spec.name.hasSuffix("cavlc"))
        let slices = s.samples.flatMap(Self.slices)
        #expect(slices.count == spec.frames)
        for (n, slice) in slices.enumerated() {
            let header = try #require(H264SliceHeader(nal: slice, sps: sps, pps: pps), "slice \(n)")
            #expect(header.nal() == slice, "slice \(n)")
        }
    }

    /// Regression (found by `make fuzz`): a CAVLC header whose RBSP stops before the header ends
    /// (deblocking turned off, "010", then nothing but zero bits) trapped writing back, copying
    /// the slice data up to a stop bit that came before it.
    @Test("a CAVLC slice whose stop bit comes before its header ends is refused, never a trap")
    func stopBitInsideHeader() throws {
        let s = try Self.stream(.smartOpenCAVLC)
        let sps = try #require(H264SequenceParameterSet(nal: s.sequence))
        let pps = try #require(H264PictureParameterSet(nal: s.picture))
        #expect(pps.deblockingFilterControlPresent)
        var header = try #require(H264SliceHeader(nal: Self.slices(s.samples[0])[0], sps: sps, pps: pps))
        header.deblocking = [1]
        let slice = header.nal()
        #expect(H264SliceHeader(nal: slice, sps: sps, pps: pps) == header)
        var refused = 0
        for kept in 8..<min(slice.count * 8, 200) {
            // Every bit from `kept` on made zero: the header, then no slice data at all.
            var cut = slice
            cut[kept / 8] &= UInt8(truncatingIfNeeded: 0xFF00 >> (kept % 8))
            for n in (kept / 8 + 1)..<cut.count { cut[n] = 0 }
            guard let read = H264SliceHeader(nal: cut, sps: sps, pps: pps) else {
                refused += 1
                continue
            }
            #expect(H264SliceHeader(nal: read.nal(), sps: sps, pps: pps) == read, "kept \(kept) bits")
        }
        #expect(refused > 0)
    }

    /// Annex B bytes of the parameter sets and `samples`.
    static func annexB(_ s: Stream, _ samples: [[UInt8]]) -> Data {
        var out: [UInt8] = []
        for unit in [s.sequence, s.picture] + samples.flatMap({ sample in
            (sample.withUnsafeBufferPointer { AVCConfiguration.units(ofPacket: $0, lengthSize: 4) } ?? []).map { Array(sample[$0]) }
        }) {
            out += [0, 0, 0, 1] + unit
        }
        return Data(out)
    }

    @Test("a GOP made to start at its I (an IDR, leading pictures left out, the rest renumbered) decodes to the source's pixels",
          arguments: [FixtureSpec.smartOpenLong, .smartOpenCAVLC, .smartOpenWeighted])
    func renumberedGOPDecodesAsTheSource(_ spec: FixtureSpec) throws {
        let s = try Self.stream(spec)
        let fixture = try FixtureFactory.shared.fixture(spec)
        let source = try FFmpegOracle.frames(of: fixture.url, size: spec.size)
        // The second keyframe: x264's open-GOP I (nal_unit_type 1), 30 frames in.
        let start = try #require(s.pts.firstIndex(of: s.pts.sorted()[30]))
        #expect(FrameIndexPattern.readIndex(from: source[30]) == 30)
        #expect(Self.slices(s.samples[start]).allSatisfy { $0[0] & 0x1F == 1 })
        var leadingEnd = start + 1
        while leadingEnd < s.samples.count, s.pts[leadingEnd] < s.pts[start] { leadingEnd += 1 }
        #expect(leadingEnd > start + 1, "x264 wrote leading pictures")
        var rewriter = H264OpenGOPRewriter(sequenceParameterSets: [s.sequence], pictureParameterSets: [s.picture], lengthSize: 4)
        let idr = rewriter.rewrite(s.samples[start])
        var rewritten: [[UInt8]] = [try #require(idr)]
        #expect(Self.slices(rewritten[0]).allSatisfy { $0[0] & 0x1F == 5 && $0[0] >> 5 != 0 })
        for k in leadingEnd..<s.samples.count {
            let made = rewriter.rewrite(s.samples[k])
            rewritten.append(try #require(made, "sample \(k)"))
        }
        let url = TestPaths.scratchFolder("open-gop").appendingPathComponent("from-i.h264")
        try Self.annexB(s, rewritten).write(to: url)
        let errors = try Subprocess.run("ffmpeg", ["-v", "error", "-i", url.path, "-f", "null", "-"])
        #expect(errors.stderr.isEmpty, "\(errors.stderr)")
        let decoded = try FFmpegOracle.frames(of: url, size: spec.size)
        #expect(decoded.count == spec.frames - 30)
        #expect(decoded == Array(source[30...]), "every picture from the I on, pixel for pixel")
    }

    @Test("an I without a recovery point, an IDR first, or a damaged slice is refused, never a crash")
    func refusals() throws {
        let s = try Self.stream(.smartOpenLong)
        func rewriter() -> H264OpenGOPRewriter {
            H264OpenGOPRewriter(sequenceParameterSets: [s.sequence], pictureParameterSets: [s.picture], lengthSize: 4)
        }
        var first = rewriter()
        #expect(first.rewrite(s.samples[0]) == nil, "an IDR is no open GOP")
        let open = try #require(s.pts.firstIndex(of: s.pts.sorted()[30]))
        var whole = rewriter()
        #expect(whole.rewrite(s.samples[open]) != nil, "the open GOP's I itself is taken")
        let withoutSEI = AVCConfiguration.lengthPrefixed(Self.slices(s.samples[open]), lengthSize: 4) ?? []
        var bare = rewriter()
        #expect(bare.rewrite(withoutSEI) == nil, "no recovery point: not a place to start")
        for cut in [5, 9, 12, 20] {
            var damaged = rewriter()
            let sample = Array(s.samples[open].prefix(cut))
            #expect(damaged.rewrite(sample) == nil, "cut at \(cut)")
        }
    }
}
