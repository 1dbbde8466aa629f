import Foundation
import Testing
import ViewfinderCore
import ViewfinderTestSupport

@Suite("cover and filmstrip commands")
struct CoverCommandTests {
    @Test("cover writes the exact frame and prints its actual time")
    func coverAtTime() throws {
        let fixture = try FixtureFactory.shared.fixture(.ntsc)
        let folder = TestPaths.scratchFolder("cover")
        let out = folder.appendingPathComponent("cover.png")
        // 0.9 s at 29.97 fps falls between frame 26 (0.867 s) and frame 27 (0.901 s).
        let result = try viewfinder("cover", fixture.url.path, "--at", "0.9", "-o", out.path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "\(out.path): frame at 0.867533 s (192×108)\n")
        let image = try #require(try decodeImage(out))
        #expect(FrameIndexPattern.readIndex(from: image) == 26)
        #expect(leftovers(in: folder) == ["cover.png"])
    }

    @Test("cover --json reports requested and actual times; frame:N and m:ss work")
    func coverJSON() throws {
        let fixture = try FixtureFactory.shared.fixture(.h264BFrames)
        let folder = TestPaths.scratchFolder("cover-json")
        let out = folder.appendingPathComponent("c.jpg")
        let result = try viewfinder("cover", fixture.url.path, "--at", "frame:31", "-o", out.path, "--json",
                                    "--max-size", "96x96")
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(jsonObject(result))
        #expect(json["requested"] as? String == "frame:31")
        #expect((json["actual"] as? NSNumber)?.doubleValue == 31.0 / 30.0 || (json["actual"] as? NSNumber)?.stringValue == "1.033333")
        #expect(json["actualExact"] as? String == "31/30")
        #expect(json["width"] as? Int == 96 && json["height"] as? Int == 54)
        #expect(json["output"] as? String == out.path)
        let image = try #require(try decodeImage(out))
        #expect(FrameIndexPattern.readIndex(from: image) == 31)

        let clock = try viewfinder("cover", fixture.url.path, "--at", "0:01.2", "-o", out.path, "--json")
        #expect(jsonObject(clock)?["actualExact"] as? String == "6/5")
    }

    @Test("filmstrip into a folder: frame-01.jpg ... at i·d/N")
    func filmstripFolder() throws {
        let fixture = try FixtureFactory.shared.fixture(.h264BFrames)
        let folder = TestPaths.scratchFolder("strip")
        let out = folder.appendingPathComponent("frames")
        let result = try viewfinder("filmstrip", fixture.url.path, "-o", out.path, "--exact", "--count", "4",
                                    "--height", "54", "--json")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(leftovers(in: out) == ["frame-01.jpg", "frame-02.jpg", "frame-03.jpg", "frame-04.jpg"])
        // d = 48/30 s; i·d/4 = frames 0, 12, 24, 36 exactly.
        for (i, expected) in [0, 12, 24, 36].enumerated() {
            let image = try #require(try decodeImage(out.appendingPathComponent(String(format: "frame-%02d.jpg", i + 1))))
            #expect(image.size == PixelSize(width: 96, height: 54))
            #expect(FrameIndexPattern.readIndex(from: image) == expected)
        }
        let frames = try #require(jsonObject(result)?["frames"] as? [[String: Any]])
        #expect(frames.count == 4)
        #expect(frames.map { $0["keyframe"] as? Bool } == [true, true, true, true])
    }

    @Test("filmstrip into one sheet: frames side by side, fast = keyframes")
    func filmstripSheet() throws {
        let fixture = try FixtureFactory.shared.fixture(.h264BFrames)
        let folder = TestPaths.scratchFolder("sheet")
        let out = folder.appendingPathComponent("strip.png")
        let result = try viewfinder("filmstrip", fixture.url.path, "-o", out.path, "--count", "6", "--height", "108")
        #expect(result.status == 0, "\(result.stderr)")
        let sheet = try #require(try decodeImage(out))
        #expect(sheet.size == PixelSize(width: 6 * 192, height: 108))
        // Slices of 8 frames from 0, 0.267, 0.533, 0.8, 1.067, 1.333 s; keyframes every 12
        // frames (0.4 s): each cell shows its slice's keyframe, or else its slice's first frame.
        var indices: [Int?] = []
        for i in 0..<6 {
            var tile = PixelBuffer(width: 192, height: 108)
            tile.draw(sheet, atX: -192 * i, y: 0)
            indices.append(FrameIndexPattern.readIndex(from: tile))
        }
        #expect(indices == [0, 12, 16, 24, 36, 40])
        #expect(result.stdout.hasSuffix(": 6 fast frames at 0, 0.4, 0.533333, 0.8, 1.2, 1.333333 s\n"))
    }

    @Test("cover --suggest ranks three sharp scenes; --at best writes the first exactly")
    func suggest() throws {
        let folder = TestPaths.scratchFolder("suggest-cli")
        let clip = try SuggestionClip.make(in: folder)
        let result = try viewfinder("cover", clip.path, "--suggest", "--json")
        #expect(result.status == 0, "\(result.stderr)")
        let suggestions = try #require(jsonObject(result)?["suggestions"] as? [[String: Any]])
        let times = suggestions.compactMap { ($0["time"] as? NSNumber)?.doubleValue }
        #expect(times.count == 3)
        #expect(Set(times.compactMap(SuggestionClip.scene(of:))) == [0, 1, 2], "\(times)")
        #expect(suggestions.allSatisfy { $0["rejected"] is NSNull })
        let text = try viewfinder("cover", clip.path, "--suggest", "--count", "2")
        let lines = text.stdout.split(separator: "\n")
        #expect(lines.count == 2 && lines[0].hasPrefix("1. ") && lines[1].hasPrefix("2. ") && lines[0].contains(" s  score "), "\(text.stdout)")

        let best = folder.appendingPathComponent("best.png"), atTime = folder.appendingPathComponent("at.png")
        let written = try viewfinder("cover", clip.path, "--at", "best", "-o", best.path, "--json")
        #expect(written.status == 0, "\(written.stderr)")
        #expect(jsonObject(written)?["requested"] as? String == "best")
        #expect((jsonObject(written)?["actual"] as? NSNumber)?.doubleValue == times[0])
        #expect(try viewfinder("cover", clip.path, "--at", "\(times[0])", "-o", atTime.path).status == 0)
        #expect(try Data(contentsOf: best) == Data(contentsOf: atTime), "the same exact frame")
    }

    @Test("--suggest and --count misuse are usage errors", arguments: [
        ["--suggest", "-o", "/tmp/x.jpg"], ["--suggest", "--at", "1"], ["--count", "2", "-o", "/tmp/x.jpg"], ["--suggest", "--count", "0"],
    ])
    func suggestUsage(_ extra: [String]) throws {
        let fixture = try FixtureFactory.shared.fixture(.h264BFrames)
        let result = try viewfinder(["cover", fixture.url.path] + extra)
        #expect(result.status == 2, "\(extra): \(result.stderr)")
    }

    @Test("the sample command makes a clip whose frames read back")
    func sample() throws {
        let folder = TestPaths.scratchFolder("sample")
        let clip = folder.appendingPathComponent("s.mp4")
        let made = try viewfinder("sample", "-o", clip.path, "--seconds", "1", "--size", "160x96", "--fps", "24")
        #expect(made.status == 0, "\(made.stderr)")
        let frames = try FFprobe.frames(of: clip)
        #expect(frames.timestamps.count == 24)
        let out = folder.appendingPathComponent("c.png")
        #expect(try viewfinder("cover", clip.path, "--at", "frame:17", "-o", out.path).status == 0)
        #expect(try decodeImage(out).flatMap(FrameIndexPattern.readIndex) == 17)
    }
}
