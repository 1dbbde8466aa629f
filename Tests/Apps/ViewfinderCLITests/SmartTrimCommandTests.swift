import Foundation
import Testing
import ViewfinderCore
import ViewfinderTestSupport

@Suite("trim: smart cuts and joined ranges")
struct SmartTrimCommandTests {
    /// 320×180, 10 s at 30 fps, GOPs of 30 with B-frames, AAC: long enough to interrupt a trim.
    static let clip = FixtureSpec("smart-cli", size: PixelSize(width: 320, height: 180), frames: 300,
                                  encode: FixtureSpec.x264 + ["-bf", "3", "-g", "30", "-keyint_min", "30", "-sc_threshold", "0",
                                                              "-c:a", "aac"],
                                  input: ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=10"])

    @Test("--keep A-B twice joins the two ranges frame-exactly; --json reports the method and the parts")
    func joins() throws {
        let fixture = try FixtureFactory.shared.fixture(Self.clip)
        let folder = TestPaths.scratchFolder("keep")
        let out = folder.appendingPathComponent("joined.mp4")
        let result = try viewfinder("trim", fixture.url.path, "--keep", "1.5-4", "--keep", "7.25-9", "-o", out.path, "--json", "-q")
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(jsonObject(result))
        #expect(json["method"] as? String == "smart")
        #expect(json["frames"] as? Int == 75 + 53)
        let reencoded = try #require(json["framesReencoded"] as? Int)
        let copied = try #require(json["framesCopied"] as? Int)
        #expect(reencoded + copied == 128 && copied >= 60, "\(reencoded) + \(copied)")
        let parts = try #require(json["parts"] as? [[String: Any]])
        // 4 s and 9 s are keyframes: each copy runs to its range's end, with no re-encoded tail.
        #expect(parts.map { $0["method"] as? String ?? "" } == ["reencoded", "copied", "reencoded", "copied"])
        #expect(parts.map { $0["frames"] as? Int ?? 0 } == [15, 60, 23, 30])
        #expect(parts.reduce(0) { $0 + ($1["frames"] as? Int ?? 0) } == 128)
        #expect(parts.first?["start"] as? Double == 1.5)
        let expected = Array(45..<120) + Array(217..<270)
        #expect(try FFmpegOracle.drawnIndices(of: out, size: Self.clip.size) == expected)
        #expect(try FFmpegOracle.decodeErrors(of: out) == "")
        #expect(leftovers(in: folder) == ["joined.mp4"])
    }

    /// 1280×720, 10 s, GOPs of 100: a smart trim from 0.2 s re-encodes 3 s of 720p first.
    static let long = FixtureSpec("smart-cli-720", size: PixelSize(width: 1280, height: 720), frames: 300,
                                  encode: ["-c:v", "libx264", "-preset", "ultrafast", "-crf", "23", "-pix_fmt", "yuv420p",
                                           "-g", "100", "-keyint_min", "100", "-sc_threshold", "0"])

    @Test("ranges past the end are usage errors (exit 2); so are overlapping ones, with the file present")
    func pastTheEnd() throws {
        let fixture = try FixtureFactory.shared.fixture(Self.clip)
        let folder = TestPaths.scratchFolder("keep-bad")
        for keeps in [["--keep", "8-12"], ["--keep", "1-2", "--keep", "1.5-3"], ["--keep", "5-4"]] {
            let result = try viewfinder(["trim", fixture.url.path] + keeps + ["-o", folder.appendingPathComponent("o.mp4").path])
            #expect(result.status == 2, "\(keeps): \(result.stderr)")
            #expect(result.stderr.hasPrefix("viewfinder trim: --keep: "), "\(result.stderr)")
            #expect(leftovers(in: folder).isEmpty)
        }
    }

    @Test("a frame past the end in --keep is a one-line error, exit 1, nothing written")
    func framePastTheEnd() throws {
        let fixture = try FixtureFactory.shared.fixture(Self.clip)
        let folder = TestPaths.scratchFolder("keep-frame")
        let result = try viewfinder("trim", fixture.url.path, "--keep", "frame:10-frame:20", "--keep", "frame:400-frame:500",
                                    "-o", folder.appendingPathComponent("o.mp4").path, "-q")
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("viewfinder: ") && result.stderr.filter { $0 == "\n" }.count == 1, "\(result.stderr)")
        #expect(leftovers(in: folder).isEmpty)
    }

    @Test("Ctrl-C during a smart trim: exit 130, one line, nothing left")
    func interrupt() throws {
        let fixture = try FixtureFactory.shared.fixture(Self.long)
        let folder = TestPaths.scratchFolder("smart-interrupt")
        let process = try Subprocess.start(TestPaths.tool, ["trim", fixture.url.path, "--from", "0.2", "--to", "9.8",
                                                            "-o", folder.appendingPathComponent("o.mp4").path])
        Poll.until(within: 30) { !leftovers(in: folder).isEmpty || !process.isRunning }
        #expect(process.isRunning, "the trim finished before it could be interrupted")
        process.interrupt()
        let result = try process.finish(timeout: 60)
        #expect(result.status == 130)
        #expect(result.stderr.hasSuffix("viewfinder: cancelled; nothing was written\n"), "\(result.stderr)")
        #expect(leftovers(in: folder).isEmpty)
    }

    @Test("--help explains smart cuts, --keep and --method")
    func help() throws {
        let result = try viewfinder("trim", "--help")
        #expect(result.status == 0)
        for text in ["--keep A-B", "--method M", "IDR keyframe", "re-encoded whole and a note says why"] {
            #expect(result.stdout.contains(text), "\(text)")
        }
    }
}
