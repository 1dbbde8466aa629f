import Foundation
import Testing
import ViewfinderCore
import ViewfinderTestSupport

@Suite("devices and capture commands")
struct CaptureCommandTests {
    @Test("devices exits 0 with or without cameras; --json is an array")
    func devices() throws {
        let text = try viewfinder("devices")
        #expect(text.status == 0)
        let json = try viewfinder("devices", "--json")
        #expect(json.status == 0)
        #expect((try JSONSerialization.jsonObject(with: json.stdoutData)) is [Any])
    }

    @Test("a photo from the virtual camera, saved into the library's Captures")
    func photoToLibrary() throws {
        let library = TestPaths.scratchFolder("capture-lib").appendingPathComponent("Lib").path
        let result = try viewfinder("capture", "photo", "--device", "virtual", "--size", "320x240", "--save", "--library", library)
        #expect(result.status == 0, "\(result.stderr)")
        let list = try viewfinder("library", "--library", library, "list", "--json")
        let items = try #require(try JSONSerialization.jsonObject(with: list.stdoutData) as? [[String: Any]])
        #expect(items.count == 1)
        #expect(items.first?["source"] as? String == "capture")
        #expect(items.first?["width"] as? Int == 320)
    }

    @Test("a video stops at --max-duration by itself")
    func video() throws {
        let out = TestPaths.scratchFolder("capture-video").appendingPathComponent("v.mp4")
        let result = try viewfinder("capture", "video", "--device", "virtual", "--size", "320x240", "--quality", "medium",
                                    "--max-duration", "0.5", "-o", out.path, "-q")
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(jsonObject(try viewfinder("info", out.path, "--json")))
        #expect(((json["duration"] as? NSNumber)?.doubleValue ?? 9) <= 0.5)
        #expect(json["videoCodec"] as? String == "h264")
    }

    @Test("Ctrl-C ends a recording cleanly: exit 0, the file is finished and playable")
    func videoInterrupted() throws {
        let folder = TestPaths.scratchFolder("capture-sigint")
        let out = folder.appendingPathComponent("v.mp4")
        let running = try Subprocess.start(TestPaths.tool, ["capture", "video", "--device", "virtual", "--size", "320x240", "-o", out.path, "-q"])
        // The recording is written beside its destination until it is finished: wait for it to grow.
        let deadline = Date().addingTimeInterval(30)
        func written() -> Int {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            return names.compactMap { name in
                (try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(name).path))?[.size] as? Int
            }.reduce(0, +)
        }
        while running.isRunning, Date() < deadline, written() < 20_000 { Thread.sleep(forTimeInterval: 0.02) }
        #expect(running.isRunning, "the recording ended before it could be interrupted")
        running.interrupt()
        let result = try running.finish(timeout: 30)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == out.path + "\n")
        let json = try #require(jsonObject(try viewfinder("info", out.path, "--json")))
        #expect(((json["duration"] as? NSNumber)?.doubleValue ?? 0) > 0.2)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["v.mp4"], "nothing left beside it")
    }

    static let misuses: [([String], Int32)] = [
        (["capture", "photo", "--device", "virtual"], 2),
        (["capture", "sound", "--device", "virtual", "-o", "/tmp/x.jpg"], 2),
        (["capture", "photo", "--device", "/dev/nonexistent", "-o", "/tmp/x.jpg"], 1),
        (["capture", "video", "--device", "virtual", "-o", "/tmp/x.jpg"], 2),
    ]

    @Test("bad usage and unknown devices", arguments: misuses)
    func usage(_ arguments: [String], _ status: Int32) throws {
        let result = try viewfinder(arguments)
        #expect(result.status == status, "\(arguments): \(result.stderr)")
    }
}
