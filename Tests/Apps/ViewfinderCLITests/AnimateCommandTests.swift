import Foundation
import Testing
import ViewfinderCore
import ViewfinderTestSupport

@Suite("animate command")
struct AnimateCommandTests {
    static let scene = exampleScene

    func sceneFile() throws -> URL {
        let url = TestPaths.scratchFolder("scene").appendingPathComponent("scene.json")
        try Data(Self.scene.utf8).write(to: url)
        return url
    }

    @Test("--at T --json prints the presentation values of every layer")
    func json() throws {
        let result = try viewfinder("animate", try sceneFile().path, "--at", "0.5", "--json")
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(jsonObject(result))
        #expect((json["t"] as? NSNumber)?.doubleValue == 0.5)
        let box = try #require((json["layers"] as? [String: Any])?["box"] as? [String: Any])
        // Half-way through a one-second linear move from x = 160 to 260.
        #expect((box["position"] as? [NSNumber])?.map(\.doubleValue) == [210, 120])
        let rotation = (box["rotation"] as? [NSNumber])?.map(\.doubleValue) ?? []
        #expect(abs((rotation.last ?? 0) - .pi) < 1e-9, "half a turn at 0.5 s")
        #expect((box["opacity"] as? NSNumber)?.doubleValue == 1, "the fade starts at 0.5 s")
    }

    @Test("a PNG frame: the red box is where the scene says, on black")
    func png() throws {
        let out = TestPaths.scratchFolder("animate-png").appendingPathComponent("f.png")
        let result = try viewfinder("animate", try sceneFile().path, "--at", "0", "-o", out.path)
        #expect(result.status == 0, "\(result.stderr)")
        let frame = try #require(try decodeImage(out))
        #expect(frame.size == PixelSize(width: 320, height: 240))
        #expect(frame[160, 120] == RGB(255, 0, 0))
        #expect(frame[10, 10] == RGB(0, 0, 0))
        #expect(frame[300, 120] == RGB(0, 0, 0))
    }

    @Test("MP4 and GIF outputs have the right frame count and size", arguments: ["mp4", "gif"])
    func video(_ ext: String) throws {
        let out = TestPaths.scratchFolder("animate-\(ext)").appendingPathComponent("a.\(ext)")
        let result = try viewfinder("animate", try sceneFile().path, "-o", out.path, "--fps", "10", "--duration", "1.5", "-q")
        #expect(result.status == 0, "\(result.stderr)")
        let frames = try FFprobe.frames(of: out)
        #expect(frames.timestamps.count == 15)
        let probe = try Subprocess.run("ffprobe", ["-v", "error", "-show_entries", "stream=width,height", "-of", "csv=p=0", out.path])
        #expect(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "320,240")
    }

    @Test("malformed scenes are one-line errors naming the key")
    func malformed() throws {
        let folder = TestPaths.scratchFolder("animate-bad")
        let bad = folder.appendingPathComponent("bad.json")
        try Data(#"{"size": [320, 240], "layers": [{"name": "a", "sprites": [{"kind": "wobble", "to": 1}]}]}"#.utf8).write(to: bad)
        let result = try viewfinder("animate", bad.path, "--at", "0", "--json")
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("viewfinder: ") && result.stderr.contains("kind"))
        #expect(result.stderr.filter { $0 == "\n" }.count == 1)
        let notJSON = folder.appendingPathComponent("x.json")
        try Data("{".utf8).write(to: notJSON)
        #expect(try viewfinder("animate", notJSON.path, "-o", folder.appendingPathComponent("o.png").path).status == 1)
        #expect(try viewfinder("animate", bad.path, "-o", folder.appendingPathComponent("o.avi").path).status == 2)
    }
}
