import Foundation
import Testing
import ViewfinderCore
import ViewfinderTestSupport

/// Cameras through PipeWire and the Camera portal, each test in a PipeWire session of its own
/// (`PipeWireSession`) with a camera GStreamer publishes: a solid colour, so pictures can be
/// checked by their pixels. One publisher serves one test: GStreamer's pipewiresink (Debian 12)
/// stops sending after a few consumers have come and gone, which a real camera does not.
@Suite("PipeWire cameras and the Camera portal", .serialized)
struct PipeWireCaptureTests {
    /// The published camera's colour, ARGB for videotestsrc, and as RGB.
    static let colour = "0xff2050c0"
    static let rgb = (r: 32.0, g: 80.0, b: 192.0)

    /// A camera of 320×240 at 15 frames a second in `format`, facing front.
    static func publishCamera(in session: PipeWireSession, name: String = "vf-test-cam", format: String = "YUY2") throws {
        try session.publishCamera(
            name: name, description: "Test Camera",
            source: "videotestsrc is-live=true pattern=solid-color foreground-color=\(colour) ! video/x-raw,format=\(format),width=320,height=240,framerate=15/1",
            properties: ["api.libcamera.location=front"])
    }

    /// The mean colour of the middle 64×64 pixels of a photo, decoded by ffmpeg.
    static func middleColour(of url: URL) throws -> (r: Double, g: Double, b: Double, width: Int, height: Int) {
        let picture = try #require(try decodeImage(url), "ffmpeg cannot decode \(url.path)")
        var sum = (0.0, 0.0, 0.0)
        for y in (picture.height / 2 - 32)..<(picture.height / 2 + 32) {
            for x in (picture.width / 2 - 32)..<(picture.width / 2 + 32) {
                let i = (y * picture.width + x) * 3
                sum.0 += Double(picture.bytes[i]); sum.1 += Double(picture.bytes[i + 1]); sum.2 += Double(picture.bytes[i + 2])
            }
        }
        return (sum.0 / 4096, sum.1 / 4096, sum.2 / 4096, picture.width, picture.height)
    }

    static func expectColour(_ found: (r: Double, g: Double, b: Double, width: Int, height: Int), tolerance: Double = 6,
                             sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(abs(found.r - rgb.r) <= tolerance && abs(found.g - rgb.g) <= tolerance && abs(found.b - rgb.b) <= tolerance,
                "middle colour \(found), published \(rgb)", sourceLocation: sourceLocation)
    }

    /// Records one second without sound from the camera `name` into a scratch folder.
    static func recordSecond(in session: PipeWireSession, from name: String, folder: String) throws -> (result: RunResult, file: URL) {
        let out = TestPaths.scratchFolder(folder).appendingPathComponent("v.mp4")
        let result = try session.viewfinder(["capture", "video", "--device", "pipewire:\(name)", "--max-duration", "1",
                                             "--microphone", "none", "-q", "-o", out.path])
        return (result, out)
    }

    /// Frame `index` of a recording as a PNG beside it, extracted by ffmpeg.
    static func still(_ index: Int, of video: URL, sourceLocation: SourceLocation = #_sourceLocation) throws -> URL {
        let still = video.deletingLastPathComponent().appendingPathComponent("frame.png")
        let extract = try Subprocess.run("ffmpeg", ["-v", "error", "-i", video.path, "-vf", "select=eq(n\\,\(index))", "-frames:v", "1", still.path])
        #expect(extract.status == 0, "\(extract.stderr)", sourceLocation: sourceLocation)
        return still
    }

    @Test("devices lists a PipeWire camera through pipewire: its name, side, size and rate, in text and JSON")
    func devicesList() throws {
        let session = try PipeWireSession()
        defer { session.stop() }
        try Self.publishCamera(in: session)
        let text = try session.viewfinder(["devices"])
        #expect(text.status == 0, "\(text.stderr)")
        let lines = text.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "pipewire:vf-test-cam\tTest Camera\tfront\t320x240\t15 fps\tno flash\tthrough PipeWire", "\(lines)")
        #expect(!text.stdout.contains("PipeWire daemon"), "a running daemon is not said to be missing")
        let json = try session.viewfinder(["devices", "--json"])
        let items = try #require(try JSONSerialization.jsonObject(with: json.stdoutData) as? [[String: Any]])
        let camera = try #require(items.first { $0["kind"] as? String == "camera" })
        #expect(camera["id"] as? String == "pipewire:vf-test-cam")
        #expect(camera["name"] as? String == "Test Camera")
        #expect(camera["through"] as? String == "pipewire")
        #expect(camera["portal"] as? Bool == false)
        #expect(camera["position"] as? String == "front")
        #expect(camera["sizes"] as? [String] == ["320x240"])
        #expect(camera["frameRates"] as? [Int] == [15])
        #expect(items.filter { $0["kind"] as? String == "camera" }.count == 1)
    }

    @Test("a photo from a PipeWire camera is its picture at its size, in each raw format", arguments: ["YUY2", "I420", "NV12", "BGRx", "RGB"])
    func photo(format: String) throws {
        let session = try PipeWireSession()
        defer { session.stop() }
        try Self.publishCamera(in: session, format: format)
        let photo = TestPaths.scratchFolder("pipewire-photo").appendingPathComponent("named.jpg")
        let taken = try session.viewfinder(["capture", "photo", "--device", "pipewire:vf-test-cam", "-o", photo.path])
        #expect(taken.status == 0, "\(taken.stderr)")
        let colour = try Self.middleColour(of: photo)
        #expect(colour.width == 320 && colour.height == 240)
        Self.expectColour(colour)
    }

    /// GStreamer's pipewiresink sends an MJPEG consumer only its first few pictures here (raw
    /// ones flow on), so this checks the listing and what those pictures decode to, not a rate.
    @Test("an MJPEG PipeWire camera is listed as readable and its pictures are decoded by FFmpeg's JPEG decoder")
    func mjpegCamera() throws {
        let session = try PipeWireSession()
        defer { session.stop() }
        try session.publishCamera(
            name: "vf-jpeg-cam", description: "JPEG Camera",
            source: "videotestsrc is-live=true pattern=solid-color foreground-color=\(Self.colour) ! video/x-raw,width=320,height=240,framerate=15/1 ! jpegenc quality=95 ! image/jpeg")
        let listed = try session.viewfinder(["devices"])
        #expect(listed.stdout.split(separator: "\n").first == "pipewire:vf-jpeg-cam\tJPEG Camera\tunspecified\t320x240\t15 fps\tno flash\tthrough PipeWire",
                "\(listed.stdout)")
        let (recorded, out) = try Self.recordSecond(in: session, from: "vf-jpeg-cam", folder: "pipewire-jpeg")
        #expect(recorded.status == 0, "\(recorded.stderr)")
        let colour = try Self.middleColour(of: try Self.still(0, of: out))
        #expect(colour.width == 320 && colour.height == 240)
        // The oracle: the same JPEG as GStreamer writes it, decoded by ffmpeg (jpegenc keeps
        // videotestsrc's limited-range YUV, which every JPEG reader takes as full range).
        let reference = out.deletingLastPathComponent().appendingPathComponent("reference.jpg")
        let made = try Subprocess.run("gst-launch-1.0", ["-q", "videotestsrc", "num-buffers=1", "pattern=solid-color", "foreground-color=\(Self.colour)",
                                                         "!", "video/x-raw,width=320,height=240", "!", "jpegenc", "quality=95", "!",
                                                         "filesink", "location=\(reference.path)"])
        #expect(made.status == 0, "\(made.stderr)")
        let expected = try Self.middleColour(of: reference)
        #expect(abs(colour.r - expected.r) <= 6 && abs(colour.g - expected.g) <= 6 && abs(colour.b - expected.b) <= 6,
                "decoded \(colour), ffmpeg's decoding of the same JPEG \(expected)")
    }

    @Test("without --device, capture takes the first PipeWire camera")
    func photoFromFirstCamera() throws {
        let session = try PipeWireSession()
        defer { session.stop() }
        try Self.publishCamera(in: session)
        let photo = TestPaths.scratchFolder("pipewire-first").appendingPathComponent("first.jpg")
        let taken = try session.viewfinder(["capture", "photo", "-o", photo.path, "--json"])
        #expect(taken.status == 0, "\(taken.stderr)")
        #expect(jsonObject(taken)?["device"] as? String == "pipewire:vf-test-cam")
        Self.expectColour(try Self.middleColour(of: photo))
    }

    @Test("a video from a PipeWire camera has its size and rate (ffprobe) and its picture")
    func video() throws {
        let session = try PipeWireSession()
        defer { session.stop() }
        try Self.publishCamera(in: session)
        let (result, out) = try Self.recordSecond(in: session, from: "vf-test-cam", folder: "pipewire-video")
        #expect(result.status == 0, "\(result.stderr)")
        let probe = try Subprocess.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-count_frames", "-show_entries",
                                                   "stream=codec_name,width,height,r_frame_rate,nb_read_frames", "-of", "json", out.path])
        let streams = try #require((try JSONSerialization.jsonObject(with: probe.stdoutData) as? [String: Any])?["streams"] as? [[String: Any]])
        let stream = try #require(streams.first)
        #expect(stream["codec_name"] as? String == "h264")
        #expect(stream["width"] as? Int == 320 && stream["height"] as? Int == 240)
        #expect(stream["r_frame_rate"] as? String == "15/1")
        // One second at 15 frames a second; the camera's own timing may let one more in.
        let frames = Int(stream["nb_read_frames"] as? String ?? "") ?? 0
        #expect((15...16).contains(frames), "\(frames) frames")
        Self.expectColour(try Self.middleColour(of: try Self.still(7, of: out)))
    }

    /// GStreamer's pipewiresink says how large its buffers are only once its pool is first used;
    /// behind a converter (which asks the pool before the link is made) PipeWire then hands it
    /// buffers of the size the consumer asked for. A consumer that asks for none gets empty
    /// buffers the camera cannot fill: no picture ever comes (and pipewiresink copying a
    /// picture into one crashes). The recorder asks for at least one picture's bytes.
    @Test("a camera that says how large its buffers are only with its first picture still sends them: the recording has its frames and colour")
    func producerWithoutBufferSize() throws {
        let session = try PipeWireSession()
        defer { session.stop() }
        try session.publishCamera(
            name: "vf-late-cam", description: "Late Camera",
            source: "videotestsrc is-live=true pattern=solid-color foreground-color=\(Self.colour) ! video/x-raw,format=I420,width=320,height=240,framerate=15/1 ! videoconvert ! video/x-raw,format=YUY2")
        let (result, out) = try Self.recordSecond(in: session, from: "vf-late-cam", folder: "pipewire-late")
        try #require(result.status == 0, "\(result.stderr)")
        let frames = try FFmpegOracle.frameLuma(of: out)
        #expect((15...16).contains(frames.count), "\(frames.count) frames")
        Self.expectColour(try Self.middleColour(of: try Self.still(7, of: out)))
    }

    @Test("a PipeWire camera that agrees a format but never sends a picture is an error in one line after 5 s, not a hang")
    func silentCamera() throws {
        let session = try PipeWireSession()
        defer { session.stop() }
        // The valve lets the format through and drops every picture.
        try session.publishCamera(
            name: "vf-silent-cam", description: "Silent Camera",
            source: "videotestsrc is-live=true ! video/x-raw,format=YUY2,width=320,height=240,framerate=15/1 ! valve drop=true drop-mode=forward-sticky-events")
        let folder = TestPaths.scratchFolder("pipewire-silent")
        let started = Date()
        let result = try session.viewfinder(["capture", "photo", "--device", "pipewire:vf-silent-cam", "-o", folder.appendingPathComponent("p.jpg").path],
                                            timeout: 60)
        let took = Date().timeIntervalSince(started)
        #expect(result.status == 1)
        #expect(result.stderr == "viewfinder: cannot read pipewire:vf-silent-cam: the camera sent no picture in 5 s\n")
        // It waited its 5 s (the run's own time limit is what catches a hang).
        #expect(took >= 5, "\(took) s")
        #expect(leftovers(in: folder).isEmpty)
    }

    @Test("a microphone that agrees a format but never sends sound ends a recording's start in one line after 5 s, not a hang, and leaves no file")
    func silentMicrophone() throws {
        let session = try PipeWireSession()
        defer { session.stop() }
        // The valve lets the format through and drops every block of sound.
        try session.publishMicrophone(
            name: "vf-silent-mic",
            source: "audiotestsrc is-live=true ! audio/x-raw,format=S16LE,rate=48000,channels=2 ! valve drop=true drop-mode=forward-sticky-events")
        let folder = TestPaths.scratchFolder("pipewire-silent-mic")
        let out = folder.appendingPathComponent("v.mp4")
        let started = Date()
        let result = try session.viewfinder(["capture", "video", "--device", "virtual", "--microphone", "pulse:vf-silent-mic",
                                             "--max-duration", "1", "-q", "-o", out.path], timeout: 60)
        let took = Date().timeIntervalSince(started)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.hasSuffix("pulse:vf-silent-mic: it sent no sound within 5 s; use --microphone none to record without sound\n"),
                "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(took >= 5, "\(took) s")
        #expect(!FileManager.default.fileExists(atPath: out.path))
        #expect(leftovers(in: folder).isEmpty)
    }

    @Test("without a PipeWire daemon, devices says so in one line and every camera comes through V4L2")
    func noDaemon() throws {
        let text = try Subprocess.run(URL(fileURLWithPath: "/usr/bin/env"),
                                      ["-u", "PIPEWIRE_REMOTE", "-u", "PIPEWIRE_RUNTIME_DIR", "XDG_RUNTIME_DIR=/nonexistent",
                                       "VIEWFINDER_CAMERA_PORTAL=0", TestPaths.tool.path, "devices"])
        #expect(text.status == 0, "\(text.stderr)")
        let lines = text.stdout.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0 == "no PipeWire daemon is running: cameras are looked for through V4L2 (/dev/video*)" }.count == 1,
                "\(lines)")
        #expect(!lines.contains { $0.hasPrefix("pipewire:") })
        let json = try Subprocess.run(URL(fileURLWithPath: "/usr/bin/env"),
                                      ["-u", "PIPEWIRE_REMOTE", "-u", "PIPEWIRE_RUNTIME_DIR", "XDG_RUNTIME_DIR=/nonexistent",
                                       "VIEWFINDER_CAMERA_PORTAL=0", TestPaths.tool.path, "devices", "--json"])
        let items = try #require(try JSONSerialization.jsonObject(with: json.stdoutData) as? [[String: Any]])
        #expect(items.filter { $0["kind"] as? String == "camera" }.allSatisfy { $0["through"] as? String == "v4l2" })
    }

    /// Run as if sandboxed: cameras come through the Camera portal alone.
    static let sandboxed = ["VIEWFINDER_CAMERA_PORTAL": "1"]

    /// A session with the Camera portal and the test camera, whose permission store says
    /// whether programs outside a sandbox may use cameras.
    static func portalSession(allowed: Bool) throws -> PipeWireSession {
        let session = try PipeWireSession(portal: true)
        do {
            try publishCamera(in: session)
            try session.setCameraPermission(allowed)
        } catch {
            session.stop()
            throw error
        }
        return session
    }

    @Test("a PipeWire camera named without a daemon running is an error that says so")
    func namedWithoutDaemon() throws {
        let folder = TestPaths.scratchFolder("pipewire-none")
        let result = try Subprocess.run(URL(fileURLWithPath: "/usr/bin/env"),
                                        ["-u", "PIPEWIRE_REMOTE", "-u", "PIPEWIRE_RUNTIME_DIR", "XDG_RUNTIME_DIR=/nonexistent",
                                         "VIEWFINDER_CAMERA_PORTAL=0", TestPaths.tool.path, "capture", "photo", "--device", "pipewire:nothing",
                                         "-o", folder.appendingPathComponent("p.jpg").path], timeout: 30)
        #expect(result.status == 1)
        #expect(result.stderr == "viewfinder: cannot open pipewire: no PipeWire daemon is running\n")
        #expect(leftovers(in: folder).isEmpty)
    }

    @Test("sandboxed, the Camera portal hands over PipeWire's cameras when the permission store allows it")
    func portalGranted() throws {
        let session = try Self.portalSession(allowed: true)
        defer { session.stop() }
        let sandboxed = Self.sandboxed
        let text = try session.viewfinder(["devices"], extra: sandboxed)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.split(separator: "\n").first == "pipewire:vf-test-cam\tTest Camera\tfront\t320x240\t15 fps\tno flash\tthrough PipeWire (Camera portal)")
        let json = try session.viewfinder(["devices", "--json"], extra: sandboxed)
        let items = try #require(try JSONSerialization.jsonObject(with: json.stdoutData) as? [[String: Any]])
        let camera = try #require(items.first { $0["kind"] as? String == "camera" })
        #expect(camera["through"] as? String == "pipewire" && camera["portal"] as? Bool == true)
        let photo = TestPaths.scratchFolder("portal-photo").appendingPathComponent("p.jpg")
        let taken = try session.viewfinder(["capture", "photo", "-o", photo.path], extra: sandboxed)
        #expect(taken.status == 0, "\(taken.stderr)")
        Self.expectColour(try Self.middleColour(of: photo))
    }

    @Test("when no /dev/video* node may be opened and PipeWire's socket cannot be seen, the Camera portal is asked")
    func portalWhenNodesRefuse() throws {
        let session = try Self.portalSession(allowed: true)
        defer { session.stop() }
        // A node that cannot be opened (a folder named video0: EISDIR, even for root), and a
        // PipeWire socket the program cannot see, as in a sandbox that shows neither.
        let nodes = TestPaths.scratchFolder("unopenable-nodes")
        try FileManager.default.createDirectory(at: nodes.appendingPathComponent("video0"), withIntermediateDirectories: true)
        let hidden = ["VIEWFINDER_DEVICES": nodes.path, "PIPEWIRE_REMOTE": "hidden-socket"]
        let text = try session.viewfinder(["devices"], extra: hidden)
        #expect(text.status == 0, "\(text.stderr)")
        let lines = text.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "pipewire:vf-test-cam\tTest Camera\tfront\t320x240\t15 fps\tno flash\tthrough PipeWire (Camera portal)", "\(lines)")
        #expect(lines.contains("no PipeWire daemon is running: cameras are looked for through V4L2 (/dev/video*)"))
        let photo = TestPaths.scratchFolder("portal-fallback").appendingPathComponent("p.jpg")
        let taken = try session.viewfinder(["capture", "photo", "-o", photo.path, "--json"], extra: hidden)
        #expect(taken.status == 0, "\(taken.stderr)")
        #expect(jsonObject(taken)?["device"] as? String == "pipewire:vf-test-cam")
        Self.expectColour(try Self.middleColour(of: photo))
    }

    @Test("a camera the permission store refuses is 'permission denied' with what to do: one line, exit 1, nothing written")
    func portalDenied() throws {
        let session = try Self.portalSession(allowed: false)
        defer { session.stop() }
        let sandboxed = Self.sandboxed
        let expected = "viewfinder: cannot open camera portal: permission denied: allow Viewfinder to use the camera in your desktop's privacy settings (Settings › Privacy › Camera), then try again\n"
        let listed = try session.viewfinder(["devices"], extra: sandboxed)
        #expect(listed.status == 1)
        #expect(listed.stderr == expected)
        let folder = TestPaths.scratchFolder("portal-denied")
        let photo = folder.appendingPathComponent("p.jpg")
        let taken = try session.viewfinder(["capture", "photo", "-o", photo.path], extra: sandboxed)
        #expect(taken.status == 1)
        #expect(taken.stderr == expected)
        let named = try session.viewfinder(["capture", "photo", "--device", "pipewire:vf-test-cam", "-o", photo.path], extra: sandboxed)
        #expect(named.status == 1)
        #expect(named.stderr == expected)
        #expect(leftovers(in: folder).isEmpty)
    }
}
