import Foundation
import Testing
import ViewfinderCore
import ViewfinderTestSupport

@testable import MediaIO

/// The check a smart cut makes of the file it wrote, before moving it into place.
@Suite("Smart cut output check")
struct SmartCutCheckTests {
    /// Two HEVC stretches of 30 frames made by two differently configured x265 runs, joined in
    /// one `hev1` track; with `keepSecondSets` false the second loses its parameter sets, so
    /// its pictures can only be decoded with the first's (wrongly).
    static func joined(keepSecondSets: Bool) throws -> URL {
        let folder = TestPaths.scratchFolder("smart-check")
        func run(_ arguments: [String]) throws {
            let result = try Subprocess.run("ffmpeg", ["-v", "error", "-y"] + arguments)
            guard result.status == 0 else { throw SubprocessError.failed("ffmpeg", result.stderr) }
        }
        let first = folder.appendingPathComponent("a.hevc"), second = folder.appendingPathComponent("b.hevc")
        try run(["-f", "lavfi", "-i", "testsrc2=s=160x120:r=30:d=1", "-c:v", "libx265", "-preset", "ultrafast",
                 "-x265-params", "log-level=error:keyint=30:bframes=0", first.path])
        try run(["-f", "lavfi", "-i", "testsrc2=s=160x120:r=30:d=1", "-c:v", "libx265", "-preset", "medium", "-crf", "35",
                 "-x265-params", "log-level=error:keyint=30:bframes=0:weightp=1:sign-hide=0:cu-lossless=0:rd=6:amp=1:transform-skip=1", second.path])
        let stripped = folder.appendingPathComponent("b-stripped.hevc")
        try run(["-i", second.path, "-c", "copy"] + (keepSecondSets ? [] : ["-bsf:v", "filter_units=remove_types=32|33|34"])
                + [stripped.path])
        let both = folder.appendingPathComponent("ab.hevc")
        var bytes = try Data(contentsOf: first)
        bytes.append(try Data(contentsOf: stripped))
        try bytes.write(to: both)
        let out = folder.appendingPathComponent("ab.mp4")
        try run(["-r", "30", "-i", both.path, "-c", "copy", "-tag:v", "hev1", out.path])
        return out
    }

    static let parts = [
        ExportPart(reencoded: true, start: .zero, duration: MediaTime(value: 1, timescale: 1), frames: 30),
        ExportPart(reencoded: false, start: MediaTime(value: 1, timescale: 1), duration: MediaTime(value: 1, timescale: 1), frames: 30),
    ]
    static let mapping = PictureMaker(rotation: .none, sampleAspectRatio: MediaTime(value: 1, timescale: 1), origin: 0,
                                      timeBase: (1, 15360))

    @Test("a copied stretch whose pictures do not decode after the re-encoded one is refused, naming where")
    func refusesBrokenJoin() throws {
        let problem = try ExportSession.probeDecode(try Self.joined(keepSecondSets: false), parts: Self.parts, mapping: Self.mapping)
        #expect(problem?.contains("from 1 s of the input do not decode cleanly") == true, "\(problem ?? "nil")")
    }

    @Test("the same join with each stretch's own parameter sets in band passes")
    func acceptsSoundJoin() throws {
        let problem = try ExportSession.probeDecode(try Self.joined(keepSecondSets: true), parts: Self.parts, mapping: Self.mapping)
        #expect(problem == nil, "\(problem ?? "")")
    }

    @Test("a file holding fewer frames than the parts say is refused")
    func refusesMissingFrames() throws {
        var parts = Self.parts
        parts.append(ExportPart(reencoded: true, start: MediaTime(value: 2, timescale: 1), duration: MediaTime(value: 1, timescale: 1), frames: 5))
        let problem = try ExportSession.probeDecode(try Self.joined(keepSecondSets: true), parts: parts, mapping: Self.mapping)
        #expect(problem == "the output holds 60 frames, not 65")
    }
}
