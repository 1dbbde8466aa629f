import Foundation
import Glibc
import Testing
import ViewfinderCore
import ViewfinderTestSupport

/// Scenes at and beyond the limits of `SceneLimits`: each ends in seconds, within memory, with
/// one line naming what was out of range — never a trap, a hang or a growing partial file.
@Suite("animate command: budgets")
struct AnimateBudgetTests {
    func scene(_ json: String, in folder: URL) throws -> URL {
        let url = folder.appendingPathComponent("scene.json")
        try Data(json.utf8).write(to: url)
        return url
    }

    /// Numbers that used to be converted to Int unchecked (a trap, exit 132).
    static let trapping: [(String, String)] = [
        (#"{"size": [1e308, 1e308]}"#, "size: 1e308 is out of range"),
        (##"{"size": [100, 100], "layers": [{"bounds": [50, 50], "backgroundColor": "#ff0000", "shadowOpacity": 1, "shadowRadius": 1e308}]}"##,
         "layers[0].shadowRadius: 1e308 is out of range"),
        (#"{"size": [100, 100], "duration": 1e308}"#, "duration: 1e308 is out of range"),
    ]

    @Test("numbers that trapped are one-line errors naming the key", arguments: trapping)
    func trappingNumbers(json: String, expected: String) throws {
        let folder = TestPaths.scratchFolder("animate-trap")
        let result = try viewfinder(["animate", try scene(json, in: folder).path, "-o", folder.appendingPathComponent("a.mp4").path, "-q"],
                                    timeout: 10)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("viewfinder: scene: \(expected) ("), "\(result.stderr)")
        #expect(result.stderr.filter { $0 == "\n" }.count == 1)
        #expect(leftovers(in: folder) == ["scene.json"])
    }

    @Test("a duration of 1e9 s is refused at once, before any partial file is written")
    func endlessDuration() throws {
        let folder = TestPaths.scratchFolder("animate-endless")
        let url = try scene(#"{"size": [64, 64], "duration": 1e9}"#, in: folder)
        let result = try viewfinder(["animate", url.path, "-o", folder.appendingPathComponent("a.mp4").path, "-q"], timeout: 10)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("viewfinder: scene: duration: 1000000000 is out of range ("), "\(result.stderr)")
        #expect(leftovers(in: folder) == ["scene.json"])
    }

    @Test("--duration × --fps beyond the frame budget is a usage error")
    func tooManyFrames() throws {
        let folder = TestPaths.scratchFolder("animate-frames")
        let url = try scene(#"{"size": [64, 64]}"#, in: folder)
        let result = try viewfinder(["animate", url.path, "-o", folder.appendingPathComponent("a.gif").path,
                                     "--duration", "3600", "--fps", "120", "-q"], timeout: 10)
        #expect(result.status == 2)
        #expect(result.stderr.contains("432000 frames"), "\(result.stderr)")
        #expect(leftovers(in: folder) == ["scene.json"])
    }

    @Test("--at beyond the longest scene is a usage error")
    func atOutOfRange() throws {
        let folder = TestPaths.scratchFolder("animate-at")
        let url = try scene(#"{"size": [64, 64]}"#, in: folder)
        let result = try viewfinder(["animate", url.path, "--at", "99999999", "--json"], timeout: 10)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("viewfinder animate: --at: 99999999 is out of range (0…3600 seconds)"), "\(result.stderr)")
    }

    /// Contents that are not regular files: reading them never ends (/dev/zero), blocks for
    /// ever (a FIFO nobody writes) or fails obscurely (a folder).
    static let specialContents = ["/dev/zero", "fifo", "folder"]

    @Test("contents that is not a regular file is refused in seconds, naming the layer and the path", arguments: specialContents)
    func specialFileContents(_ kind: String) throws {
        let folder = TestPaths.scratchFolder("animate-contents")
        let path: String
        switch kind {
        case "fifo":
            path = folder.appendingPathComponent("pipe.png").path
            #expect(mkfifo(path, 0o600) == 0)
        case "folder":
            path = folder.appendingPathComponent("pictures.png").path
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        default:
            path = kind
        }
        let json = #"{"size": [64, 64], "layers": [{"name": "photo", "bounds": [32, 32], "contents": "\#(path)"}]}"#
        let out = folder.appendingPathComponent("f.png")
        let result = try viewfinder(["animate", try scene(json, in: folder).path, "--at", "0", "-o", out.path], timeout: 10)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("viewfinder: layer \"photo\" shows \(path), which "), "\(result.stderr)")
        #expect(result.stderr.contains("not a regular file"), "\(result.stderr)")
        #expect(result.stderr.filter { $0 == "\n" }.count == 1)
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    @Test("a shadow blurred far beyond the canvas renders in well under 300 MB")
    func hugeShadow() throws {
        let folder = TestPaths.scratchFolder("animate-shadow")
        // Radius 1000 is within the scene's limit; scaled 5 times it is a blur of 5000 pixels.
        let json = """
        {"size": [100, 100], "layers": [{"position": [50, 50], "bounds": [20, 20], "backgroundColor": "#ff0000",
          "shadowOpacity": 1, "shadowRadius": 1000, "scale": 5}]}
        """
        let out = folder.appendingPathComponent("f.png")
        let result = try Subprocess.run(URL(fileURLWithPath: "/usr/bin/time"),
                                        ["-f", "%M", TestPaths.tool.path, "animate", try scene(json, in: folder).path, "--at", "0", "-o", out.path],
                                        timeout: 30)
        #expect(result.status == 0, "\(result.stderr)")
        let peakKB = Int(result.stderr.split(separator: "\n").last.map(String.init) ?? "") ?? Int.max
        #expect(peakKB < 150_000, "peak \(peakKB) KB")
        let frame = try #require(try decodeImage(out))
        #expect(frame[50, 50] == RGB(255, 0, 0))
    }
}
