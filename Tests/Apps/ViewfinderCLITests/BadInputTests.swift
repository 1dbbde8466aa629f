import Foundation
import Testing
import ViewfinderCore
import ViewfinderTestSupport

/// Bad input is normal input: every command answers it with one line on stderr, exit 1, and
/// leaves nothing behind.
@Suite("Bad input")
struct BadInputTests {
    /// Builds the bad inputs in a folder of their own.
    static func makeInputs() throws -> (folder: URL, inputs: [(String, URL)]) {
        let folder = TestPaths.scratchFolder("bad")
        func file(_ name: String, _ data: Data) throws -> URL {
            let url = folder.appendingPathComponent(name)
            try data.write(to: url)
            return url
        }
        var inputs: [(String, URL)] = []
        inputs.append(("empty", try file("empty.mp4", Data())))
        inputs.append(("text", try file("notes.mp4", Data("This is a text file, not a movie.\n".utf8))))
        inputs.append(("random bytes", try file("noise.mov", Data((0..<65536).map { UInt8(truncatingIfNeeded: $0 &* 2654435761 >> 13) }))))

        // A clip with its index at the end, cut in half: no index at all.
        let whole = folder.appendingPathComponent("whole.mp4")
        let made = try Subprocess.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=s=160x90:r=25:d=2",
                                                 "-c:v", "libx264", whole.path])
        guard made.status == 0 else { throw SubprocessError.failed("ffmpeg", made.stderr) }
        let bytes = try Data(contentsOf: whole)
        inputs.append(("truncated, no index", try file("truncated.mp4", bytes.prefix(bytes.count / 2))))
        var corrupt = bytes
        for i in stride(from: 0, to: min(corrupt.count, 4096), by: 1) { corrupt[i] = UInt8(truncatingIfNeeded: i &* 7) }
        inputs.append(("corrupt header", try file("corrupt.mp4", corrupt)))

        let audio = folder.appendingPathComponent("voice.m4a")
        _ = try Subprocess.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=d=1", "-c:a", "aac", audio.path])
        inputs.append(("audio only", audio))

        // 20000 pixels wide: over the longest-side limit, refused before any frame is allocated.
        let wide = folder.appendingPathComponent("wide.mkv")
        _ = try Subprocess.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "color=s=20000x2:r=5:d=0.4", "-c:v", "ffv1", wide.path])
        inputs.append(("absurd dimensions", wide))

        inputs.append(("missing", folder.appendingPathComponent("does-not-exist.mp4")))
        let directory = folder.appendingPathComponent("a-folder.mp4")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        inputs.append(("directory", directory))
        inputs.append(("photo", TestPaths.media.appendingPathComponent("images/exif_orient3_iphone5.jpg")))
        return (folder, inputs)
    }

    static let expectedMessages: [String: String] = [
        "empty": "is empty (0 bytes)",
        "text": "is not a video or audio file",
        "random bytes": "is not a video or audio file",
        "truncated, no index": "is not a video or audio file",
        "corrupt header": "is not a video or audio file",
        "audio only": "has no video track (audio only: aac)",
        "absurd dimensions": "declares 20000×2 pixels",
        "missing": "no such file",
        "directory": "is a directory",
        "photo": "is a still image (mjpeg), not a video",
    ]

    @Test("cover and filmstrip: one line, exit 1, no output")
    func coverAndFilmstrip() throws {
        let (folder, inputs) = try Self.makeInputs()
        let outputs = TestPaths.scratchFolder("bad-out")
        for (label, input) in inputs {
            for command in [["cover", input.path, "--at", "0.1", "-o", outputs.appendingPathComponent("c.jpg").path],
                            ["filmstrip", input.path, "-o", outputs.appendingPathComponent("strip.jpg").path],
                            ["filmstrip", input.path, "-o", outputs.appendingPathComponent("frames").path]] {
                let result = try viewfinder(command)
                #expect(result.status == 1, "\(label): \(command[0]) exited \(result.status)")
                #expect(result.stdout.isEmpty, "\(label)")
                #expect(result.stderr.hasPrefix("viewfinder: "), "\(label): \(result.stderr)")
                #expect(result.stderr.filter { $0 == "\n" }.count == 1, "\(label): \(result.stderr)")
                if let expected = Self.expectedMessages[label] {
                    #expect(result.stderr.contains(expected), "\(label): \(result.stderr)")
                }
                #expect(leftovers(in: outputs).isEmpty, "\(label) left \(leftovers(in: outputs))")
            }
        }
        try? FileManager.default.removeItem(at: folder)
    }

    /// A 16×16 TIFF whose header made OpenSlide's vendor detection (which libvips ran on every
    /// TIFF) allocate 2 GB; found by FuzzPhotoProbe. The OpenSlide loader is now blocked.
    static let openSlideBomb = [
            "SUkqAMsCAAD7AAP/AAD//gAJ/wAA/wD//wD///4ADf8AAP//AP//AP8A//8A+f/7AAP/AAD//gAJ/wD/AP8AAP8AAP7/DQD/",
            "/wAA/wAA/wAA//8A+f/7AAD//gD+/wkA//8A/wAA/wAA/v8PAP//AAD/AAD/AP8AAP8AAPv/+gD//wAA/v8JAP//AP8AAP8A",
            "AP7/DQD//wAA/wAA/wD/AAD//AD+//oA//8AAP7/CQD//wD/AAD/AAD+/w0A//8AAP8AAP8A/wAA//wA/v/+AP7/AwD//wD+",
            "/wkA//8A/wAA/wAA/v8NAP//AAD/AAD/AP8AAP/5AP4A/v8DAP//AP7/CQD//wD/AAD/AAD+/w0A//8AAP8AAP8A/wAA//kA",
            "/gD+/wMA//8A/v8JAP//AP8AAP8AAP7/DQD//wAA/wAA/wD/AAD/+QD+AP7/AwD//wD+/wkA//8A/wAA/wAA/v8NAP//AAD/",
            "AAD/AP8AAP/5AP4A/v8DAP//AP7/CQD//wD/AAD/AAD+/w0A//8AAP8AAP8A/wAA//kA/gD+/wMA//8A/v8JAP//AP8AAP8A",
            "AP7/DQD//wAA/wAA/wD/AAD/+QD+AP7/AwD//wD+/wkA//8A/wAA/wAA/v8NAP//AAD/AAD/AP8AAP/5AC//AAD/YAD/wADf",
            "/wB//wAf/wAA/0AA/6AA//8An/8AP/8gAP+AAP/gAP//AL//AF8v/wAA/2AA/8AA3/8Af/8AH/8AAP9AAP+gAP//AJ//AD//",
            "IAD/gAD/4AD//wC//wBfL/8AAP9gAP/AAN//AH//AB//AAD/QAD/oAD//wCf/wA//yAA/4AA/+AA//8Av/8AX/sAA/8AAP/+",
            "AAn/AP8A/wAA/wAA/v8NAP//AAD/AAD/AAD//wD5/wgACAAIAEgAAAABAAAASAAAAAEAAABMYXZjNTkuMzcuMTAwAA4A/gAE",
            "AAEAAAAAAAAAAAEEAAEAAAAQAAAAAQEEAAEAAAAQAAAAAgEDAAMAAACnAgAAAwEDAAEAAAAFgAAABgEDAAEAAAACAAAAEQEE",
            "AAEAAAAIAAAAFQEDAAEAAAADAAAAFgEEAAEAAACnAAAAFwEEAAEAAACfAgAAGgEFAAEAAACtAgAAGwEFAAEAAAC1AgAAKAED",
            "AAEAAAACAAAAMQECAA4AAIC9AgAAAAAAAA==",
    ].joined()

    @Test("a TIFF that made OpenSlide's detection ask for 2 GB is read without any huge allocation")
    func openSlideDetection() throws {
        let file = TestPaths.scratchFolder("openslide").appendingPathComponent("slide.tif")
        try #require(Data(base64Encoded: Self.openSlideBomb)).write(to: file)
        // The 2 GB were mapped but never touched, so peak memory cannot show them: strace can.
        let traced = try Subprocess.run("strace", ["-f", "-e", "trace=mmap", TestPaths.tool.path, "info", file.path])
        #expect(traced.status == 0, "\(traced.stderr.suffix(300))")
        #expect(traced.stdout.contains("format      tiff") && traced.stdout.contains("stored      16×16"), "\(traced.stdout)")
        let huge = traced.stderr.split(separator: "\n").filter { line in
            guard let range = line.range(of: "mmap(NULL, ") else { return false }
            return (Int(line[range.upperBound...].prefix { $0.isNumber }) ?? 0) >= 1 << 30
        }
        #expect(huge.isEmpty, "\(huge)")
    }

    @Test("info: one line and exit 1 for what is not media")
    func info() throws {
        let (_, inputs) = try Self.makeInputs()
        for (label, input) in inputs where !["audio only", "absurd dimensions", "photo"].contains(label) {
            let result = try viewfinder("info", input.path)
            #expect(result.status == 1, "\(label)")
            #expect(result.stderr.hasPrefix("viewfinder: ") && result.stderr.filter { $0 == "\n" }.count == 1,
                    "\(label): \(result.stderr)")
        }
        let audio = try #require(inputs.first { $0.0 == "audio only" }?.1)
        let json = try #require(jsonObject(try viewfinder("info", audio.path, "--json")))
        #expect(json["kind"] as? String == "audio")
        #expect(json["videoCodec"] is NSNull)
    }

    @Test("a time past the end: the message gives the length, nothing is written")
    func pastTheEnd() throws {
        let fixture = try FixtureFactory.shared.fixture(.h264BFrames)
        let folder = TestPaths.scratchFolder("past-end")
        let result = try viewfinder("cover", fixture.url.path, "--at", "1.7", "-o", folder.appendingPathComponent("c.jpg").path)
        #expect(result.status == 1)
        #expect(result.stderr == "viewfinder: h264-bframes.mp4 is 1.6 s long; 1.7 s is past the end\n")
        #expect(leftovers(in: folder).isEmpty)
        let frame = try viewfinder("cover", fixture.url.path, "--at", "frame:48", "-o", folder.appendingPathComponent("c.jpg").path)
        #expect(frame.stderr == "viewfinder: h264-bframes.mp4 has 48 frames (0...47); frame 48 does not exist\n")
    }

    @Test("over the duration limit: refused with the length and the limit")
    func tooLong() throws {
        let fixture = try FixtureFactory.shared.fixture(.h264BFrames)
        let folder = TestPaths.scratchFolder("too-long")
        let result = try viewfinder("filmstrip", fixture.url.path, "--max-duration", "1.5", "-o", folder.appendingPathComponent("s.jpg").path)
        #expect(result.status == 1)
        #expect(result.stderr == "viewfinder: h264-bframes.mp4 is 1.6 s long; the limit is 1.5 s\n")
        #expect(leftovers(in: folder).isEmpty)
        let unlimited = try viewfinder("filmstrip", fixture.url.path, "--max-duration", "0", "-o", folder.appendingPathComponent("s.jpg").path)
        #expect(unlimited.status == 0)
    }

    @Test("an output folder that does not exist, or an output that is a folder")
    func badOutputs() throws {
        let fixture = try FixtureFactory.shared.fixture(.h264BFrames)
        let folder = TestPaths.scratchFolder("bad-output")
        let nowhere = try viewfinder("cover", fixture.url.path, "-o", "/nonexistent-folder/c.jpg")
        #expect(nowhere.status == 1)
        #expect(nowhere.stderr.contains("the folder /nonexistent-folder does not exist"))
        let sub = folder.appendingPathComponent("taken.jpg")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        let intoFolder = try viewfinder("cover", fixture.url.path, "-o", sub.path)
        #expect(intoFolder.status == 1)
        #expect(intoFolder.stderr.contains("it is a folder"))
    }

    @Test("an unreadable file")
    func unreadable() throws {
        let folder = TestPaths.scratchFolder("unreadable")
        let url = folder.appendingPathComponent("secret.mp4")
        try Data("x".utf8).write(to: url)
        chmod(url.path, 0)
        let arguments = ["cover", url.path, "-o", folder.appendingPathComponent("c.jpg").path]
        let result: RunResult
        if getuid() == 0 {
            // Permission bits do not stop root (CI runs as root), so there the tool runs as the
            // unprivileged user nobody, through util-linux's setpriv; a copy of it sits in the
            // world-readable scratch folder in case the checkout itself is not (it finds its
            // libraries through its run path).
            let tool = folder.appendingPathComponent("viewfinder")
            try FileManager.default.copyItem(at: TestPaths.tool, to: tool)
            chmod(tool.path, 0o755)
            result = try Subprocess.run("setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", tool.path] + arguments)
        } else {
            result = try Subprocess.run(TestPaths.tool, arguments)
        }
        #expect(result.status == 1)
        #expect(result.stderr.contains("permission denied"))
    }

    @Test("frame numbers near Int.max are out of range, not an overflow trap (cover and trim)")
    func hugeFrameNumbers() throws {
        let fixture = try FixtureFactory.shared.fixture(.h264BFrames)
        let folder = TestPaths.scratchFolder("huge-frame")
        let huge = "frame:\(Int.max)"
        let cover = try viewfinder("cover", fixture.url.path, "--at", huge, "-o", folder.appendingPathComponent("c.jpg").path)
        #expect(cover.status == 1)
        #expect(cover.stderr == "viewfinder: h264-bframes.mp4 has 48 frames (0...47); frame \(Int.max) does not exist\n")
        for arguments in [["--from", huge], ["--from", "0", "--to", huge]] {
            let trim = try viewfinder(["trim", fixture.url.path] + arguments + ["-o", folder.appendingPathComponent("t.mp4").path, "-q"])
            #expect(trim.status == 1, "\(arguments)")
            #expect(trim.stderr.hasSuffix("frame \(Int.max) does not exist\n") && trim.stderr.split(separator: "\n").count == 1, "\(trim.stderr)")
        }
        #expect(leftovers(in: folder).isEmpty)
    }

    @Test("a legal 254-byte output name is written: the hidden temporary name stays under the limit")
    func longOutputName() throws {
        let fixture = try FixtureFactory.shared.fixture(.h264BFrames)
        let folder = TestPaths.scratchFolder("long-name")
        let name = String(repeating: "é", count: 125) + ".jpg"   // 250 + 4 bytes of UTF-8
        #expect(name.utf8.count == 254)
        let cover = try viewfinder("cover", fixture.url.path, "--at", "0.5", "-o", folder.appendingPathComponent(name).path)
        #expect(cover.status == 0, "\(cover.stderr)")
        #expect(leftovers(in: folder) == [name])
        let trimmed = String(repeating: "t", count: 250) + ".mp4"
        let trim = try viewfinder("trim", fixture.url.path, "--from", "0", "--to", "1", "-o", folder.appendingPathComponent(trimmed).path, "-q")
        #expect(trim.status == 0, "\(trim.stderr)")
        #expect(leftovers(in: folder) == [name, trimmed].sorted())
    }

    @Test("a FIFO or a device as the input is refused at once by every command, never read")
    func specialFiles() throws {
        let folder = TestPaths.scratchFolder("special")
        let fifo = folder.appendingPathComponent("pipe.mp4")
        #expect(mkfifo(fifo.path, 0o644) == 0)
        for input in [fifo.path, "/dev/zero"] {
            let name = (input as NSString).lastPathComponent
            for command in [["info", input], ["cover", input, "-o", folder.appendingPathComponent("c.jpg").path],
                            ["avatar", input, "-o", folder.appendingPathComponent("a.png").path],
                            ["convert", input, "-o", folder.appendingPathComponent("v.mp4").path, "-q"]] {
                let result = try Subprocess.run(TestPaths.tool, command, timeout: 10)
                #expect(result.status == 1, "\(command)")
                #expect(result.stderr == "viewfinder: \(name) is not a regular file (a pipe, a device or a socket)\n", "\(command): \(result.stderr)")
            }
        }
        #expect(leftovers(in: folder) == ["pipe.mp4"])
    }
}
