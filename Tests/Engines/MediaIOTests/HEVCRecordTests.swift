import Foundation
import Testing
import ViewfinderCore
import ViewfinderTestSupport

@testable import MediaIO

/// The `hvcC` a smart cut writes for x265's parameter sets, next to the one FFmpeg's MP4
/// writer makes from the same sets.
@Suite("Smart cut: the hvcC of re-encoded stretches")
struct HEVCRecordTests {
    /// The NAL units of an Annex B byte stream.
    static func units(_ bytes: [UInt8]) -> [[UInt8]] {
        bytes.withUnsafeBufferPointer { AVCConfiguration.annexBUnits($0) }
    }

    @Test("header fields (profile, tier, flags, level, chroma, bit depths, layers, lengths) and arrays as FFmpeg writes them; arrays complete for hvc1",
          arguments: [("yuv420p", "main"), ("yuv420p10le", "main10")])
    func matchesFFmpeg(format: String, profile: String) throws {
        let folder = TestPaths.scratchFolder("hvcc-\(profile)")
        let stream = folder.appendingPathComponent("x265.hevc"), movie = folder.appendingPathComponent("x265.mp4")
        for arguments in [["-f", "lavfi", "-i", "testsrc2=s=192x108:r=25:d=0.2", "-pix_fmt", format, "-c:v", "libx265",
                           "-profile:v", profile, "-x265-params", "log-level=error:bframes=0:level-idc=3.1", "-f", "hevc", stream.path],
                          ["-i", stream.path, "-c", "copy", "-tag:v", "hvc1", movie.path]] {
            let run = try Subprocess.run("ffmpeg", ["-v", "error", "-y"] + arguments)
            #expect(run.status == 0, "\(run.stderr)")
        }
        let sets = Self.units([UInt8](try Data(contentsOf: stream))).filter(HEVCConfiguration.isParameterSet)
        #expect(sets.map { ($0[0] >> 1) & 0x3F }.prefix(3) == [32, 33, 34])
        let made = try #require(HEVCConfiguration.record(Array(sets.prefix(3)), lengthSize: 4, complete: true))

        let file = [UInt8](try Data(contentsOf: movie))
        let at = try #require(file.indices.dropLast(4).first { file[$0 ..< $0 + 4].elementsEqual("hvcC".utf8) })
        let size = file[at - 4 ..< at].reduce(0) { $0 << 8 | Int($1) }
        let ffmpeg = Array(file[at + 4 ..< at - 4 + size])
        // configurationVersion … lengthSizeMinusOne: the 22 bytes before the array count.
        #expect(made.prefix(22) == ffmpeg.prefix(22), "ours \(made.prefix(22).map { String($0, radix: 16) }), FFmpeg's \(ffmpeg.prefix(22).map { String($0, radix: 16) })")
        let ours = try #require(HEVCConfiguration(record: made)), theirs = try #require(HEVCConfiguration(record: ffmpeg))
        #expect(ours.parameterSets == theirs.parameterSets)
        #expect(ours.profile == (profile == "main" ? 1 : 2) && ours.level == 93)
        // Every array is marked complete: hvc1's samples carry no parameter sets.
        var offset = 23
        for _ in 0..<Int(made[22]) {
            #expect(made[offset] & 0x80 != 0)
            let count = Int(made[offset + 1]) << 8 | Int(made[offset + 2])
            offset += 3
            for _ in 0..<count { offset += 2 + (Int(made[offset]) << 8 | Int(made[offset + 1])) }
        }
        #expect(offset == made.count)
        #expect(HEVCConfiguration.marking(made, complete: false).map { $0[23] & 0x80 } == 0)
    }

    @Test("chunks split where the sample description changes, stsc runs folded")
    func splitChunks() throws {
        // Six samples of 10 bytes in two chunks of three; descriptions 1 1 2 | 2 2 1.
        let split = try SampleDescriptionEditor.splitChunks(
            sizes: Array(repeating: 10, count: 6), perChunk: [3, 3], offsets: [100, 500], entries: [1, 1, 2, 2, 2, 1], path: "t")
        #expect(split.offsets == [100, 120, 500, 520])
        #expect(split.table.map { [$0.first, $0.samples, $0.entry] } == [[1, 2, 1], [2, 1, 2], [3, 2, 2], [4, 1, 1]])
        // One description throughout: the chunks and their runs stay as they were.
        let same = try SampleDescriptionEditor.splitChunks(
            sizes: Array(repeating: 4, count: 5), perChunk: [2, 2, 1], offsets: [8, 40, 90], entries: [1, 1, 1, 1, 1], path: "t")
        #expect(same.offsets == [8, 40, 90] && same.table.map { [$0.first, $0.samples, $0.entry] } == [[1, 2, 1], [3, 1, 1]])
        #expect(throws: MediaIOError.self) {
            try SampleDescriptionEditor.splitChunks(sizes: [1, 1], perChunk: [2], offsets: [0], entries: [1], path: "t")
        }
    }
}

/// The copy's rewriting of an HEVC sample (a mechanism of MediaIO's; the state machine that
/// asks for it is VideoEditing's: `SmartCutStateMachineTests`).
@Suite("Smart cut: copied HEVC samples")
struct SmartCutHEVCSampleTests {
    @Test("a CRA copied at a stretch's start is rewritten as a BLA, elsewhere it stays a CRA; parameter sets the hvcC holds leave the samples, others stay")
    func craBecomesBLA() throws {
        let vps: [UInt8] = [0x40, 0x01, 0x0C], sps: [UInt8] = [0x42, 0x01, 0x01], pps: [UInt8] = [0x44, 0x01, 0xC1]
        // An hvcC record: version 1, Main, level 3, four-byte lengths, one VPS, SPS and PPS.
        var record = [UInt8](repeating: 0, count: 23)
        (record[0], record[1], record[12], record[21], record[22]) = (1, 1, 90, 0x03, 3)
        for (type, unit) in [(UInt8(32), vps), (33, sps), (34, pps)] {
            record += [type, 0, 1, 0, UInt8(unit.count)] + unit
        }
        let config = try #require(HEVCConfiguration(record: record))
        let cra: [UInt8] = [0, 0, 0, 3, 21 << 1, 0x01, 0xAF]
        let bla: [UInt8] = [0, 0, 0, 3, 16 << 1, 0x01, 0xAF]
        let sets: [UInt8] = [0, 0, 0, 3] + vps + [0, 0, 0, 3] + sps + [0, 0, 0, 3] + pps
        #expect(cra.withUnsafeBufferPointer { config.copiedSample($0, startsStretch: true) } == bla)
        #expect(cra.withUnsafeBufferPointer { config.copiedSample($0, startsStretch: false) } == nil, "unchanged")
        // In band (hev1 sources): the hvcC's own sets go, the sample description gives them.
        let withSets = sets + cra
        #expect(withSets.withUnsafeBufferPointer { config.copiedSample($0, startsStretch: false) } == cra)
        #expect(withSets.withUnsafeBufferPointer { config.copiedSample($0, startsStretch: true) } == bla)
        #expect(!withSets.withUnsafeBufferPointer { config.carriesOwnParameterSets($0) })
        // A set the hvcC does not hold stays, and says so.
        let otherSPS: [UInt8] = [0, 0, 0, 3, 0x42, 0x01, 0x02]
        let withOther = otherSPS + cra
        #expect(withOther.withUnsafeBufferPointer { config.copiedSample($0, startsStretch: false) } == nil)
        #expect(withOther.withUnsafeBufferPointer { config.carriesOwnParameterSets($0) })
        #expect(cra.withUnsafeBufferPointer { HEVCConfiguration.pictureKind($0, lengthSize: 4) } == .cleanRandomAccess)
    }
}
