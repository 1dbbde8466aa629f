import Foundation
import Testing
import ViewfinderCore
import ViewfinderTestSupport

@Suite("convert and trim commands")
struct ExportCommandTests {
    static let big = FixtureSpec("big-720", size: PixelSize(width: 1280, height: 720), frames: 240,
                                 encode: ["-c:v", "libx264", "-preset", "ultrafast", "-crf", "23", "-pix_fmt", "yuv420p"])

    @Test("convert remuxes a fitting clip and reports it")
    func convert() throws {
        let fixture = try FixtureFactory.shared.fixture(.h264BFrames)
        let folder = TestPaths.scratchFolder("convert")
        let out = folder.appendingPathComponent("out.mp4")
        let result = try viewfinder("convert", fixture.url.path, "-o", out.path, "--json", "--quiet")
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(jsonObject(result))
        #expect(json["method"] as? String == "passthrough")
        #expect(json["frames"] as? Int == 48)
        #expect(json["width"] as? Int == 192)
        #expect(leftovers(in: folder) == ["out.mp4"])
    }

    @Test("off a terminal the HUD is one final line, no control codes; --quiet is silent")
    func progressOffTerminal() throws {
        let fixture = try FixtureFactory.shared.fixture(.h264BFrames)
        let folder = TestPaths.scratchFolder("hud")
        let result = try viewfinder("convert", fixture.url.path, "-o", folder.appendingPathComponent("a.mp4").path)
        #expect(result.status == 0)
        #expect(result.stderr.hasPrefix("Converting h264-bframes.mp4: done in "), "\(result.stderr)")
        #expect(result.stderr.filter { $0 == "\n" }.count == 1)
        #expect(!result.stderr.contains("\r") && !result.stderr.contains("\u{1B}"))
        let quiet = try viewfinder("convert", fixture.url.path, "-o", folder.appendingPathComponent("b.mp4").path, "-q")
        #expect(quiet.status == 0 && quiet.stderr.isEmpty)
        let strip = try viewfinder("filmstrip", fixture.url.path, "--exact", "-o", folder.appendingPathComponent("s.jpg").path)
        #expect(strip.stderr.hasPrefix("Decoding 6 exact frames of h264-bframes.mp4: done in "), "\(strip.stderr)")
    }

    @Test("trim from the CLI is frame-exact")
    func trim() throws {
        let fixture = try FixtureFactory.shared.fixture(.h264BFrames)
        let folder = TestPaths.scratchFolder("trim")
        let out = folder.appendingPathComponent("t.mp4")
        let result = try viewfinder("trim", fixture.url.path, "--from", "frame:15", "--to", "1.0", "-o", out.path, "--quiet")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "a smart cut needs no note: \(result.stderr)")
        #expect(result.stdout.contains("15 frames, 0.5 s from 0.5 s"))
        #expect(result.stdout.contains("smart (10 re-encoded, 5 copied)"), "\(result.stdout)")
        let old = try viewfinder("trim", fixture.url.path, "--from", "frame:15", "--to", "1.0", "--method", "reencode",
                                 "-o", folder.appendingPathComponent("r.mp4").path, "--quiet")
        #expect(old.status == 0 && old.stderr.contains("not on a keyframe"), "the re-encode is announced: \(old.stderr)")
        let first = folder.appendingPathComponent("first.png")
        #expect(try viewfinder("cover", out.path, "--at", "0", "-o", first.path).status == 0)
        #expect(try decodeImage(first).flatMap(FrameIndexPattern.readIndex) == 15)
        let last = folder.appendingPathComponent("last.png")
        #expect(try viewfinder("cover", out.path, "--at", "frame:14", "-o", last.path).status == 0)
        #expect(try decodeImage(last).flatMap(FrameIndexPattern.readIndex) == 29)
    }

    @Test("bad usage exits 2", arguments: [
        ["convert", "a.mp4", "-o", "b.avi"], ["convert", "a.mp4", "-o", "b.mp4", "--preset", "best"],
        ["trim", "a.mp4", "--from", "2", "--to", "1", "-o", "b.mp4"], ["trim", "a.mp4", "--from", "x", "-o", "b.mp4"],
        ["convert", "a.mp4"], ["trim", "a.mp4", "--keep", "2-1", "-o", "b.mp4"], ["trim", "a.mp4", "--keep", "1", "-o", "b.mp4"],
        ["trim", "a.mp4", "--keep", "1-3", "--keep", "2-4", "-o", "b.mp4"], ["trim", "a.mp4", "--keep", "1-3", "--from", "1", "-o", "b.mp4"],
        ["trim", "a.mp4", "--method", "fast", "-o", "b.mp4"], ["trim", "a.mp4", "--keep", "x-3", "-o", "b.mp4"],
        ["trim", "a.mp4", "--keep", "frame:9-frame:3", "-o", "b.mp4"],
        ["trim", "a.mp4", "--keep", "1-2", "--keep", "3-4", "--keyframe-cut", "-o", "b.mp4"],
    ])
    func usage(_ arguments: [String]) throws {
        let result = try viewfinder(arguments)
        #expect(result.status == 2, "\(arguments)")
        #expect(result.stderr.contains("usage: viewfinder"))
    }

    @Test("bad inputs: one line, exit 1, nothing written")
    func badInputs() throws {
        let (_, inputs) = try BadInputTests.makeInputs()
        let folder = TestPaths.scratchFolder("export-bad")
        for (label, input) in inputs {
            for command in [["convert", input.path, "-o", folder.appendingPathComponent("c.mp4").path, "--quiet"],
                            ["trim", input.path, "--from", "0.1", "-o", folder.appendingPathComponent("t.mp4").path]] {
                let result = try viewfinder(command)
                #expect(result.status == 1, "\(label): \(command[0]) exited \(result.status)")
                #expect(result.stderr.hasPrefix("viewfinder: ") && result.stderr.filter { $0 == "\n" }.count == 1,
                        "\(label): \(result.stderr)")
                #expect(leftovers(in: folder).isEmpty, "\(label) left \(leftovers(in: folder))")
            }
        }
    }

    /// The file was reported as "ends early … truncated": the export sought to its only listed
    /// keyframe, 1.6 s in.
    @Test("a complete file whose index lists only a late keyframe converts whole, all its frames, with either preset",
          arguments: ["passthrough", "medium"])
    func lateListedKeyframe(_ preset: String) throws {
        let folder = TestPaths.scratchFolder("late-keyframe-\(preset)")
        let source = folder.appendingPathComponent("gop12.mp4")
        let made = try Subprocess.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=160x120:r=30:d=2", "-c:v", "libx264",
                                                 "-g", "12", "-keyint_min", "12", "-sc_threshold", "0", source.path])
        #expect(made.status == 0, "\(made.stderr)")
        // The sync-sample table now lists one keyframe: sample 49 of 60.
        var bytes = [UInt8](try Data(contentsOf: source))
        let at = try #require((0..<(bytes.count - 4)).first { bytes[$0..<($0 + 4)].elementsEqual("stss".utf8) })
        bytes.replaceSubrange((at + 8)..<(at + 16), with: [0, 0, 0, 1, 0, 0, 0, 49])
        let input = folder.appendingPathComponent("late.mp4")
        try Data(bytes).write(to: input)
        let output = folder.appendingPathComponent("out.mp4")
        let result = try viewfinder("convert", input.path, "--preset", preset, "-o", output.path, "--quiet", "--json")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(jsonObject(result)?["frames"] as? Int == 60)
        #expect(try FFmpegOracle.decodeErrors(of: output) == "")
    }

    /// It was "cannot write OUT: Invalid argument" (the muxer refusing what it was given).
    @Test("a time-to-sample table that stops time (every delta 0) is named as the input's damage, with every preset and trim",
          arguments: [["convert", "--preset", "passthrough"], ["convert", "--preset", "medium"], ["trim", "--from", "0.1"]])
    func stoppedTime(_ arguments: [String]) throws {
        let folder = TestPaths.scratchFolder("stopped-time-\(arguments.joined(separator: "-"))")
        let source = folder.appendingPathComponent("clip.mp4")
        #expect(try Subprocess.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=160x120:r=30:d=1", "-c:v", "libx264",
                                              source.path]).status == 0)
        var bytes = [UInt8](try Data(contentsOf: source))
        let at = try #require((0..<(bytes.count - 4)).first { bytes[$0..<($0 + 4)].elementsEqual("stts".utf8) })
        bytes.replaceSubrange((at + 16)..<(at + 20), with: [0, 0, 0, 0])  // the first entry's sample delta
        let input = folder.appendingPathComponent("stopped.mp4")
        try Data(bytes).write(to: input)
        let out = folder.appendingPathComponent("out/o.mp4")
        try FileManager.default.createDirectory(at: out.deletingLastPathComponent(), withIntermediateDirectories: true)
        let result = try viewfinder([arguments[0], input.path] + arguments.dropFirst() + ["-o", out.path, "--quiet"])
        #expect(result.status == 1)
        // The input is named, with its damage (the timing, or where the frames stop).
        #expect(result.stderr.hasPrefix("viewfinder: stopped.mp4 ") && result.stderr.contains("damaged"), "\(result.stderr)")
        #expect(!result.stderr.contains("Invalid argument") && result.stderr.split(separator: "\n").count == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.deletingLastPathComponent().path).isEmpty)
    }
}
