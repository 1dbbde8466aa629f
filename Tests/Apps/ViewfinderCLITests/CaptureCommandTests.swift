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

    @Test("with no sound server, devices says so in one line and lists no Pulse source")
    func noSoundServer() throws {
        let listed = try Subprocess.run("env", ["-u", "PULSE_SERVER", "XDG_RUNTIME_DIR=/nonexistent", TestPaths.tool.path, "devices"])
        #expect(listed.status == 0)
        let lines = listed.stdout.split(separator: "\n")
        #expect(lines.last == "no sound server (PulseAudio or PipeWire) is running: only ALSA capture devices are listed")
        #expect(!lines.contains { $0.hasPrefix("pulse:") })
        let server = try Subprocess.run("env", ["PULSE_SERVER=unix:/nonexistent/pulse", TestPaths.tool.path, "devices"])
        #expect(!server.stdout.contains("no sound server"), "a server is named: it is not said to be missing")
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

    /// A `capture video` from the virtual camera to `out`, once it has written 20 KB (it writes
    /// beside its destination until it is finished).
    func recordingUnderWay(to out: URL) throws -> RunningProcess {
        let folder = out.deletingLastPathComponent()
        let running = try Subprocess.start(TestPaths.tool, ["capture", "video", "--device", "virtual", "--size", "320x240", "-o", out.path, "-q"])
        func written() -> Int {
            leftovers(in: folder).compactMap { name in
                (try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(name).path))?[.size] as? Int
            }.reduce(0, +)
        }
        Poll.until(within: 30) { !running.isRunning || written() >= 20_000 }
        #expect(running.isRunning, "the recording ended before the test could signal it")
        return running
    }

    @Test("Ctrl-C ends a recording cleanly: exit 0, the file is finished and playable")
    func videoInterrupted() throws {
        let folder = TestPaths.scratchFolder("capture-sigint")
        let out = folder.appendingPathComponent("v.mp4")
        let running = try recordingUnderWay(to: out)
        running.interrupt()
        let result = try running.finish(timeout: 30)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == out.path + "\n")
        let json = try #require(jsonObject(try viewfinder("info", out.path, "--json")))
        #expect(((json["duration"] as? NSNumber)?.doubleValue ?? 0) > 0.2)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["v.mp4"], "nothing left beside it")
    }

    @Test("a recording from the virtual camera carries the virtual microphone as AAC, each click within a frame of its flash")
    func soundInSync() throws {
        let out = TestPaths.scratchFolder("capture-sound").appendingPathComponent("v.mp4")
        let result = try viewfinder("capture", "video", "--device", "virtual", "--size", "320x240", "--quality", "medium",
                                    "--max-duration", "3.5", "-o", out.path, "-q")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "no note: the virtual camera has its microphone")
        let streams = try Subprocess.run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_type,codec_name,sample_rate",
                                                     "-of", "csv=p=0", out.path])
        #expect(streams.stdout == "h264,video\naac,audio,48000\n")
        let flashes = try FFmpegOracle.whiteTopFrameTimes(of: out)
        #expect(flashes.count >= 3, "one flash a second: \(flashes)")
        // Click onsets: the first loud sample after at least 0.1 s of quiet.
        let samples = try FFmpegOracle.audioSamples(of: out)
        var clicks: [Double] = []
        var lastLoud = -48000
        for (index, sample) in samples.enumerated() where abs(Int(sample)) > 8000 {
            if index - lastLoud > 4800 { clicks.append(Double(index) / 48000) }
            lastLoud = index
        }
        #expect(clicks.count == flashes.count, "clicks \(clicks), flashes \(flashes)")
        for (click, flash) in zip(clicks, flashes) {
            #expect(abs(click - flash) <= 1.0 / 30, "click at \(click) s, flash at \(flash) s")
        }
    }

    @Test("--microphone none records pictures only; an unopenable microphone fails in one line, leaving nothing")
    func microphoneChoices() throws {
        let folder = TestPaths.scratchFolder("capture-mics")
        let silent = folder.appendingPathComponent("silent.mp4")
        let none = try viewfinder("capture", "video", "--device", "virtual", "--size", "320x240", "--max-duration", "0.5",
                                  "--microphone", "none", "-o", silent.path, "-q")
        #expect(none.status == 0, "\(none.stderr)")
        let streams = try Subprocess.run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_type", "-of", "csv=p=0", silent.path])
        #expect(streams.stdout == "video\n")
        // No machine has a 100th sound card: the ALSA path must fail at once, not hang.
        let broken = folder.appendingPathComponent("broken.mp4")
        let started = Date()
        let failed = try viewfinder(["capture", "video", "--device", "virtual", "--size", "320x240", "--max-duration", "0.5",
                                     "--microphone", "alsa:hw:99,0", "-o", broken.path, "-q"], timeout: 30)
        #expect(failed.status == 1)
        #expect(failed.stderr.hasPrefix("viewfinder: cannot open alsa:hw:99,0: "), "\(failed.stderr)")
        #expect(failed.stderr.split(separator: "\n").count == 1, "\(failed.stderr)")
        #expect(Date().timeIntervalSince(started) < 20)
        let unknown = try viewfinder("capture", "video", "--device", "virtual", "--microphone", "nosuch", "-o", broken.path, "-q")
        #expect(unknown.status == 1)
        #expect(unknown.stderr == "viewfinder: no microphone 'nosuch'; 'viewfinder devices' lists them\n")
        #expect(leftovers(in: folder) == ["silent.mp4"])
    }

    @Test("with a sound server named, devices lists its input first as the default; a server that does not answer fails at once")
    func soundServer() throws {
        let folder = TestPaths.scratchFolder("capture-pulse")
        let server = "PULSE_SERVER=unix:\(folder.path)/no-server"
        let listed = try Subprocess.run("env", [server, TestPaths.tool.path, "devices", "--json"])
        let items = try #require(try JSONSerialization.jsonObject(with: listed.stdoutData) as? [[String: Any]])
        let first = try #require(items.first { $0["kind"] as? String == "microphone" })
        // libavdevice's listing of the server's sources fails: its default input stands for it.
        #expect(first["id"] as? String == "pulse:default" && first["default"] as? Bool == true)
        let out = folder.appendingPathComponent("v.mp4")
        let failed = try Subprocess.run("env", [server, TestPaths.tool.path, "capture", "video", "--device", "virtual",
                                                "--microphone", "pulse:default", "--max-duration", "0.5", "-o", out.path, "-q"], timeout: 30)
        #expect(failed.status == 1)
        #expect(failed.stderr.hasPrefix("viewfinder: cannot open pulse:default: the sound server does not answer"), "\(failed.stderr)")
        #expect(failed.stderr.split(separator: "\n").count == 1)
        #expect(leftovers(in: folder).isEmpty)
    }

    @Test("SIGTERM stops a recording and throws it away: exit 143, nothing left")
    func videoTerminated() throws {
        let folder = TestPaths.scratchFolder("capture-sigterm")
        let out = folder.appendingPathComponent("v.mp4")
        let running = try recordingUnderWay(to: out)
        running.terminate()
        let result = try running.finish(timeout: 30)
        #expect(result.status == 143, "\(result.stderr)")
        #expect(result.stderr == "viewfinder: the recording was stopped and thrown away; nothing was kept\n")
        #expect(result.stdout.isEmpty)
        #expect(leftovers(in: folder).isEmpty)
    }

    @Test("a camera node the user may not open is listed with the reason, and capture on it fails with it")
    func permissionDenied() throws {
        guard geteuid() == 0 else {
            Issue.record("this test makes a device node with mknod and runs the tool as nobody: run it as root")
            return
        }
        let folder = TestPaths.scratchFolder("capture-nodes")
        // nobody must be able to list the folder to find the node, and reach it.
        var walk = folder
        while walk.path != "/" && walk.path != FileManager.default.temporaryDirectory.path {
            chmod(walk.path, 0o755)
            walk.deleteLastPathComponent()
        }
        let node = folder.appendingPathComponent("video3").path
        let made = try Subprocess.run("mknod", ["-m", "000", node, "c", "81", "3"])
        try #require(made.status == 0, "mknod: \(made.stderr)")
        func asNobody(_ arguments: String...) throws -> RunResult { try asNobody(arguments) }
        func asNobody(_ arguments: [String]) throws -> RunResult {
            try Subprocess.run("env", ["VIEWFINDER_DEVICES=\(folder.path)", "setpriv", "--reuid=nobody", "--regid=nogroup",
                                       "--clear-groups", TestPaths.tool.path] + arguments)
        }
        let reason = "permission denied: add your user to the video group"
        let listed = try asNobody("devices")
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout.hasPrefix("\(node)\tcannot be opened: \(reason)\n"), "\(listed.stdout)")
        let json = try asNobody("devices", "--json")
        let items = try #require(try JSONSerialization.jsonObject(with: json.stdoutData) as? [[String: Any]])
        let camera = try #require(items.first { $0["kind"] as? String == "camera" })
        #expect(camera["id"] as? String == node)
        #expect(camera["unavailable"] as? String == reason)
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("nobody-\(UUID().uuidString).jpg").path
        for arguments in [["capture", "photo", "--device", node, "-o", out], ["capture", "photo", "-o", out]] {
            let capture = try asNobody(arguments)
            #expect(capture.status == 1)
            #expect(capture.stderr == "viewfinder: cannot open \(node): \(reason)\n", "\(arguments)")
            #expect(!FileManager.default.fileExists(atPath: out))
        }
        // For root the mode is no obstacle, and no driver stands behind the node: it is no camera.
        let asRoot = try Subprocess.run("env", ["VIEWFINDER_DEVICES=\(folder.path)", TestPaths.tool.path, "devices", "--json"])
        let rootItems = try #require(try JSONSerialization.jsonObject(with: asRoot.stdoutData) as? [[String: Any]])
        #expect(!rootItems.contains { $0["kind"] as? String == "camera" })
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
