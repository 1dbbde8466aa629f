import Foundation
import Testing
import ViewfinderCore
import ViewfinderTestSupport

@Suite("the cover inside the file: cover --embed, convert and trim --cover")
struct CoverEmbedCommandTests {
    /// 192×108, 3 s at 30 fps, GOPs of 30 with B-frames, AAC audio: frames draw their index.
    static let clip = FixtureSpec("embed-cli", frames: 90,
                                  encode: FixtureSpec.x264 + ["-bf", "2", "-g", "30", "-keyint_min", "30", "-sc_threshold", "0",
                                                              "-c:a", "aac"],
                                  input: ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=3"])

    /// The streams ffprobe sees: codec name and whether each is an attached picture.
    static func streams(of url: URL) throws -> [(codec: String, attached: Bool)] {
        let result = try Subprocess.run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_name:stream_disposition=attached_pic",
                                                    "-of", "csv=p=0", url.path])
        return result.stdout.split(separator: "\n").map { line in
            let fields = line.split(separator: ",").map(String.init)
            return (fields.first ?? "", fields.last == "1")
        }
    }

    /// The attached picture, copied out of the file by the ffmpeg CLI and decoded.
    static func attachedPicture(of url: URL, in folder: URL) throws -> PixelBuffer? {
        guard let index = try streams(of: url).firstIndex(where: { $0.attached }) else { return nil }
        let jpeg = folder.appendingPathComponent("extracted-\(url.deletingPathExtension().lastPathComponent).jpg")
        let copied = try Subprocess.run("ffmpeg", ["-v", "error", "-y", "-i", url.path, "-map", "0:\(index)", "-c", "copy",
                                                   "-frames:v", "1", jpeg.path])
        guard copied.status == 0 else { return nil }
        return try decodeImage(jpeg)
    }

    /// The index the attached picture draws; nil without one.
    static func coverIndex(of url: URL, in folder: URL) throws -> Int? {
        try attachedPicture(of: url, in: folder).flatMap(FrameIndexPattern.readIndex)
    }

    /// Every video and audio packet, with its timing, as ffprobe hashes them.
    static func packets(of url: URL) throws -> [[String]] {
        [try FFmpegOracle.packetHashes(of: url, stream: "v:0", timing: true),
         try FFmpegOracle.packetHashes(of: url, stream: "a:0", timing: true)]
    }

    @Test("cover --embed: one attached picture showing the exact frame; every packet copied as it was")
    func embed() throws {
        let fixture = try FixtureFactory.shared.fixture(Self.clip)
        let folder = TestPaths.scratchFolder("embed")
        let out = folder.appendingPathComponent("with-cover.mp4")
        // 1.39 s lies between frame 41 (1.3667 s) and frame 42 (1.4 s), inside a GOP with B-frames.
        let result = try viewfinder("cover", fixture.url.path, "--at", "1.39", "--embed", "-o", out.path, "-q")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "\(out.path): 90 frames, 3 s from 0 s, 192×108, passthrough, audio copied, cover: frame at 1.366667 s (192×108)\n")
        let streams = try Self.streams(of: out)
        #expect(streams.map(\.codec) == ["h264", "aac", "mjpeg"])
        #expect(streams.map(\.attached) == [false, false, true])
        let picture = try #require(try Self.attachedPicture(of: out, in: folder))
        #expect(picture.size == PixelSize(width: 192, height: 108))
        #expect(FrameIndexPattern.readIndex(from: picture) == 41)
        let original = try Self.packets(of: fixture.url)
        #expect(original[0].count == 90 && original[1].count > 100)
        #expect(try Self.packets(of: out) == original, "video and audio packets, timing included, byte-identical")
        #expect(try FFmpegOracle.decodeErrors(of: out) == "")
        #expect(leftovers(in: folder).filter { !$0.hasPrefix("extracted") } == ["with-cover.mp4"])

        let info = try viewfinder("info", out.path, "--json")
        #expect(jsonObject(info)?["embeddedCover"] as? String == "mjpeg")
    }

    @Test("a passthrough convert of the whole file copies every audio packet, AAC's priming packet before 0 s included")
    func remuxKeepsPriming() throws {
        let fixture = try FixtureFactory.shared.fixture(Self.clip)
        let out = TestPaths.scratchFolder("remux-priming").appendingPathComponent("copy.mp4")
        #expect(try viewfinder("convert", fixture.url.path, "--preset", "passthrough", "-o", out.path, "-q").status == 0)
        let audio = try FFmpegOracle.packetHashes(of: fixture.url, stream: "a:0", timing: true)
        #expect(audio.first?.hasPrefix("-1024,") == true, "the input's first AAC packet is shown before 0: \(audio.first ?? "")")
        #expect(try Self.packets(of: out) == (try Self.packets(of: fixture.url)))
    }

    @Test("a second --embed replaces the first cover instead of adding one")
    func replaces() throws {
        let fixture = try FixtureFactory.shared.fixture(Self.clip)
        let folder = TestPaths.scratchFolder("embed-again")
        let first = folder.appendingPathComponent("first.mp4"), second = folder.appendingPathComponent("second.mp4")
        #expect(try viewfinder("cover", fixture.url.path, "--at", "frame:10", "--embed", "-o", first.path, "-q").status == 0)
        let result = try viewfinder("cover", first.path, "--at", "frame:75", "--embed", "-o", second.path, "-q", "--json")
        #expect(result.status == 0, "\(result.stderr)")
        let cover = try #require(jsonObject(result)?["cover"] as? [String: Any])
        #expect(cover["timeExact"] as? String == "5/2")
        #expect(cover["format"] as? String == "jpeg")
        #expect(try Self.streams(of: second).filter(\.attached).count == 1)
        #expect(try Self.coverIndex(of: second, in: folder) == 75)
        #expect(try Self.packets(of: second) == (try Self.packets(of: fixture.url)))
    }

    @Test("--at best embeds the best suggestion; the library's poster and the strip use the embedded file rightly")
    func bestAndLibrary() throws {
        let fixture = try FixtureFactory.shared.fixture(Self.clip)
        let folder = TestPaths.scratchFolder("embed-library")
        let out = folder.appendingPathComponent("cover.mp4")
        let result = try viewfinder("cover", fixture.url.path, "--at", "frame:20", "--embed", "-o", out.path, "-q")
        #expect(result.status == 0, "\(result.stderr)")

        // The library shows the embedded cover (frame 20) as the poster, not its own best guess.
        let library = folder.appendingPathComponent("Library").path
        let imported = try viewfinder(["library", "--library", library, "import", out.path, "-q", "--json"])
        #expect(imported.status == 0, "\(imported.stderr)")
        let thumbnail = folder.appendingPathComponent("thumb.png")
        let made = try viewfinder("library", "--library", library, "thumbnail", "1", "--size", "192", "-o", thumbnail.path)
        #expect(made.status == 0, "\(made.stderr)")
        let poster = try #require(try decodeImage(thumbnail))
        #expect(FrameIndexPattern.readIndex(from: poster) == 20)

        // The strip reads the video, never the cover: six different frames, one per slice.
        let strip = try viewfinder("filmstrip", out.path, "--exact", "--count", "6", "--height", "108", "-o",
                                   folder.appendingPathComponent("frames").path, "--json")
        #expect(strip.status == 0, "\(strip.stderr)")
        for (i, expected) in [0, 15, 30, 45, 60, 75].enumerated() {
            let cell = try #require(try decodeImage(folder.appendingPathComponent(String(format: "frames/frame-%02d.jpg", i + 1))))
            #expect(FrameIndexPattern.readIndex(from: cell) == expected)
        }

        let best = folder.appendingPathComponent("best.mp4")
        let suggested = try viewfinder("cover", fixture.url.path, "--suggest", "--count", "1", "--json")
        let time = try #require((jsonObject(suggested)?["suggestions"] as? [[String: Any]])?.first?["timeExact"] as? String)
        let embedded = try viewfinder("cover", fixture.url.path, "--at", "best", "--embed", "-o", best.path, "-q", "--json")
        #expect(embedded.status == 0, "\(embedded.stderr)")
        #expect((jsonObject(embedded)?["cover"] as? [String: Any])?["timeExact"] as? String == time)
    }

    @Test("convert --cover (re-encoded) and trim --cover (inside the kept range; best stays inside it)")
    func convertAndTrim() throws {
        let fixture = try FixtureFactory.shared.fixture(Self.clip)
        let folder = TestPaths.scratchFolder("embed-export")
        let converted = folder.appendingPathComponent("converted.mp4")
        let convert = try viewfinder("convert", fixture.url.path, "--preset", "highest", "--cover", "frame:50", "-o", converted.path, "-q")
        #expect(convert.status == 0, "\(convert.stderr)")
        #expect(convert.stdout.hasSuffix(", cover: frame at 1.666667 s (192×108)\n"), "\(convert.stdout)")
        #expect(try Self.coverIndex(of: converted, in: folder) == 50)
        #expect(try FFmpegOracle.drawnIndices(of: converted, size: Self.clip.size) == Array(0..<90))

        let trimmed = folder.appendingPathComponent("trimmed.mp4")
        let trim = try viewfinder("trim", fixture.url.path, "--from", "1.2", "--to", "2.5", "--cover", "1.5", "-o", trimmed.path, "-q", "--json")
        #expect(trim.status == 0, "\(trim.stderr)")
        #expect(jsonObject(trim)?["method"] as? String == "smart")
        #expect(try Self.coverIndex(of: trimmed, in: folder) == 45)
        #expect(try FFmpegOracle.drawnIndices(of: trimmed, size: Self.clip.size) == Array(36..<75))
        #expect(try FFmpegOracle.decodeErrors(of: trimmed) == "")

        let best = folder.appendingPathComponent("best.mp4")
        let bestTrim = try viewfinder("trim", fixture.url.path, "--keep", "0.5-1", "--keep", "2-2.5", "--cover", "best", "-o", best.path, "-q", "--json")
        #expect(bestTrim.status == 0, "\(bestTrim.stderr)")
        let index = try #require(try Self.coverIndex(of: best, in: folder))
        #expect((15..<30).contains(index) || (60..<75).contains(index), "frame \(index) is kept")

        let outside = folder.appendingPathComponent("outside.mp4")
        let refused = try viewfinder("trim", fixture.url.path, "--from", "1", "--to", "2", "--cover", "2.5", "-o", outside.path, "-q")
        #expect(refused.status == 1)
        #expect(refused.stderr == "viewfinder: the cover at 2.5 s lies outside the ranges kept from \(fixture.url.lastPathComponent); choose a time inside them\n")
        #expect(!FileManager.default.fileExists(atPath: outside.path))
    }

    @Test("bad input: one line, exit 1, nothing written; wrong usage exits 2")
    func badInput() throws {
        let fixture = try FixtureFactory.shared.fixture(Self.clip)
        let folder = TestPaths.scratchFolder("embed-bad")
        let text = folder.appendingPathComponent("notes.txt")
        try Data("not a video".utf8).write(to: text)
        let out = folder.appendingPathComponent("out.mp4")
        let cases: [([String], String)] = [
            (["cover", text.path, "--embed", "-o", out.path], "viewfinder: notes.txt is not a video or audio file that FFmpeg recognises\n"),
            (["cover", fixture.url.path, "--embed", "--at", "4", "-o", out.path], "viewfinder: \(fixture.url.lastPathComponent) is 3 s long; 4 s is past the end\n"),
        ]
        for (arguments, message) in cases {
            let result = try viewfinder(arguments + ["-q"])
            #expect(result.status == 1, "\(arguments)")
            #expect(result.stderr == message)
            #expect(result.stdout.isEmpty)
        }
        let webm = try FixtureFactory.shared.fixture(.vp9)
        let vp9 = try viewfinder("cover", webm.url.path, "--embed", "-o", out.path, "-q")
        #expect(vp9.status == 1)
        #expect(vp9.stderr.hasPrefix("viewfinder: ") && vp9.stderr.contains("vp9") && vp9.stderr.split(separator: "\n").count == 1, "\(vp9.stderr)")
        for usage in [["--embed", "-o", folder.appendingPathComponent("c.jpg").path],
                      ["--embed", "--max-size", "64x64", "-o", out.path],
                      ["--at", "1", "-q", "-o", folder.appendingPathComponent("c.jpg").path]] {
            #expect(try viewfinder(["cover", fixture.url.path] + usage).status == 2, "\(usage)")
        }
        #expect(leftovers(in: folder) == ["notes.txt"])
    }
}
