import Foundation
import Imaging
import MediaIO
import Testing
import ViewfinderCore
import ViewfinderTestSupport

@testable import Capture

@Suite("Camera session")
@MainActor
struct CameraSessionTests {
    static let size = PixelSize(width: 320, height: 240)

    func session() -> CameraSession {
        CameraSession(device: .virtual, size: Self.size)
    }

    /// Waits for `camera`'s events (on real time: the virtual camera runs at a camera's pace)
    /// until `condition` holds after one; false when it does not after `timeout` seconds of
    /// waiting, or when the camera closed without it. Only time between events counts, at most
    /// 0.1 s each: when a busy test process leaves the main actor unscheduled for a while,
    /// events queued meanwhile still get their turn before the wait is called off.
    static func events(of camera: CameraSession, until condition: @escaping @MainActor () -> Bool,
                       timeout: TimeInterval = 90) async -> Bool {
        guard !condition() else { return true }
        return await withCheckedContinuation { (done: CheckedContinuation<Bool, Never>) in
            var waited = 0.0
            var last = Date()
            camera.afterEvent = {
                let now = Date()
                waited += min(now.timeIntervalSince(last), 0.1)
                last = now
                let holds = condition()
                guard holds || waited >= timeout || !camera.isCameraOpen else { return }
                camera.afterEvent = nil
                done.resume(returning: holds)
            }
        }
    }

    /// `events(of:until:)`, recording an issue that names `what` when it was not seen.
    func waitUntil(_ what: String, of camera: CameraSession, timeout: TimeInterval = 90,
                   _ condition: @escaping @MainActor () -> Bool) async throws {
        if await !Self.events(of: camera, until: condition, timeout: timeout) {
            Issue.record("timed out waiting until \(what)\(camera.isCameraOpen ? "" : " (the camera closed)")")
        }
    }

    @Test("the virtual camera is offered only when asked for")
    func cameras() {
        #expect(CameraSession.availableCameras(includeVirtual: true).contains(.virtual))
        #expect(!CameraSession.availableCameras(includeVirtual: false).contains(.virtual))
    }

    @Test("the preview delivers pictures of the camera's size until stopped; the camera then closes")
    func preview() async throws {
        let camera = session()
        var sizes: [PixelSize] = []
        try camera.startPreview { sizes.append($0.size) }
        #expect(camera.isPreviewing && camera.isCameraOpen)
        #expect(camera.frameSize == Self.size)
        try await waitUntil("five preview frames arrived", of: camera) { sizes.count >= 5 }
        #expect(sizes.allSatisfy { $0 == Self.size })
        camera.stopPreview()
        #expect(!camera.isPreviewing && !camera.isCameraOpen)
        let seen = sizes.count
        try camera.startPreview { sizes.append($0.size) }
        try await waitUntil("the preview came back", of: camera) { sizes.count > seen }
        camera.stopPreview()
    }

    @Test("a photo is a JPEG of the camera's size that records when it was taken", arguments: [false, true])
    func photo(_ previewing: Bool) async throws {
        let camera = session()
        if previewing { try camera.startPreview { _ in } }
        let url = TestPaths.scratchFolder("camera-photo").appendingPathComponent("shot.jpg")
        let before = Date()
        #expect(try await camera.takePhoto(to: url) == url)
        let after = Date()
        let info = try #require(try ImageInfo.probe(url))
        #expect(info.format == "jpeg")
        #expect(info.storedSize == Self.size)
        let taken = try #require(info.creationDate)
        #expect(taken >= before.addingTimeInterval(-1) && taken <= after, "EXIF keeps whole seconds")
        #expect(camera.isCameraOpen == previewing, "the camera stays open only for the preview")
        camera.stopPreview()
    }

    @Test("a recording with a 1 s limit stops by itself, counting down, and is at most 1 s long")
    func recordsToLimit() async throws {
        let camera = session()
        var states: [CameraSession.RecordingState] = []
        camera.onRecordingChange = { states.append($0) }
        let url = TestPaths.scratchFolder("camera-record").appendingPathComponent("clip.mp4")
        try camera.startRecording(to: url, quality: .low, maxDuration: MediaTime(seconds: 1))
        #expect(camera.recording == .recording(remaining: 1))
        #expect(throws: CaptureError.alreadyRecording) {
            try camera.startRecording(to: url, quality: .low, maxDuration: nil)
        }
        try await waitUntil("the recording finished", of: camera) {
            if case .recording = camera.recording { return false }
            return true
        }
        #expect(camera.recording == .finished(url))
        #expect(states.last == .finished(url))
        let countdown = states.compactMap { state -> TimeInterval? in
            if case .recording(let remaining) = state { return remaining }
            return nil
        }
        #expect(countdown.count >= 4, "\(countdown)")
        #expect(countdown == countdown.sorted(by: >) && Set(countdown).count == countdown.count, "\(countdown)")
        #expect((countdown.last ?? 1) < 0.3)
        let reader = try FrameReader(url: url)
        #expect(reader.duration <= MediaTime(seconds: 1))
        #expect(reader.duration >= MediaTime(value: 9, timescale: 10))
        #expect(reader.video.codedSize == Self.size)
        #expect(!camera.isCameraOpen)
    }

    @Test("record(to:) returns the finished file at the maximum duration: 0.5 s at 30 fps is 15 frames")
    func recordAwaits() async throws {
        let camera = session()
        let url = TestPaths.scratchFolder("camera-await").appendingPathComponent("v.mp4")
        #expect(try await camera.record(to: url, quality: .low, maxDuration: MediaTime(value: 1, timescale: 2)) == url)
        let reader = try FrameReader(url: url)
        #expect(reader.duration == MediaTime(value: 1, timescale: 2))
        #expect(reader.video.codedSize == Self.size)
        _ = try reader.frame(at: .frame(14))
        #expect(throws: (any Error).self) { try reader.frame(at: .frame(15)) }
        #expect(!camera.isCameraOpen)
    }

    @Test("cancelling the task of record(to:) (Ctrl-C) stops the recording and keeps a playable file")
    func recordCancelKeeps() async throws {
        let camera = session()
        let url = TestPaths.scratchFolder("camera-cancel").appendingPathComponent("v.mp4")
        // The camera is not open yet, so only its events would end the wait: the task's end does
        // too, so a recording that fails before any event is reported at once, not never.
        let recording = Task {
            defer { camera.afterEvent?() }
            return try await camera.record(to: url, quality: .low, maxDuration: nil)
        }
        try await waitUntil("a third of a second is recorded", of: camera) { camera.recordedDuration >= MediaTime(value: 1, timescale: 3) }
        recording.cancel()
        #expect(try await recording.value == url)
        #expect(try FrameReader(url: url).duration >= MediaTime(value: 1, timescale: 3))
        #expect(!camera.isCameraOpen)
    }

    @Test("stopping a recording early leaves a playable file")
    func stopsEarly() async throws {
        let camera = session()
        let url = TestPaths.scratchFolder("camera-stop").appendingPathComponent("clip.mp4")
        try camera.startRecording(to: url, quality: .medium, maxDuration: nil)
        try await waitUntil("a third of a second is recorded", of: camera) { camera.recordedDuration >= MediaTime(value: 1, timescale: 3) }
        let state = await camera.stopRecording()
        #expect(state == .finished(url))
        let reader = try FrameReader(url: url)
        #expect(reader.duration >= MediaTime(value: 1, timescale: 4))
        let last = try reader.frame(at: .time(reader.duration))
        #expect(last.image.size == Self.size)
        #expect(await camera.stopRecording() == .finished(url), "stopping again changes nothing")
    }

    @Test("discarding a recording (the UI's Cancel) leaves nothing and goes back to idle; the preview goes on")
    func discards() async throws {
        let camera = CameraSession(device: .virtual, size: Self.size, microphone: .virtual)
        var frames = 0
        try camera.startPreview { _ in frames += 1 }
        let folder = TestPaths.scratchFolder("camera-discard")
        let url = folder.appendingPathComponent("clip.mp4")
        let recording = Task { try await camera.record(to: url, quality: .low, maxDuration: nil) }
        try await waitUntil("a third of a second is recorded", of: camera) { camera.recordedDuration >= MediaTime(value: 1, timescale: 3) }
        await camera.discardRecording()
        #expect(camera.recording == .idle)
        #expect(camera.recordedDuration == .zero)
        await #expect(throws: CaptureError.recordingDiscarded) { try await recording.value }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
        let seen = frames
        try await waitUntil("the preview goes on", of: camera) { frames > seen + 2 }
        #expect(camera.isCameraOpen)
        camera.stopPreview()
        #expect(!camera.isCameraOpen)
        await camera.discardRecording()
        #expect(camera.recording == .idle, "discarding without a recording changes nothing")
    }

    @Test("microphones: the sound server's input when one runs, then ALSA's capture devices")
    func microphones() throws {
        let listing = TestPaths.scratchFolder("mic-list").appendingPathComponent("pcm")
        try "00-00: ALC257 Analog : ALC257 Analog : playback 1 : capture 1\n01-03: HDMI 0 : HDMI 0 : playback 1\n01-07: USB Mic : USB Audio : capture 1\n"
            .write(to: listing, atomically: true, encoding: .utf8)
        let alsa = MicrophoneDevice.microphones(environment: ["XDG_RUNTIME_DIR": "/nonexistent"], alsaList: listing.path)
        #expect(alsa.map(\.id) == ["alsa:hw:0,0", "alsa:hw:1,7"])
        #expect(alsa.map(\.name) == ["ALC257 Analog", "USB Mic"])
        let withServer = MicrophoneDevice.microphones(environment: ["PULSE_SERVER": "unix:/tmp/x"], alsaList: listing.path)
        #expect(withServer.map(\.id) == ["pulse:default", "alsa:hw:0,0", "alsa:hw:1,7"])
        #expect(MicrophoneDevice.microphones(environment: ["XDG_RUNTIME_DIR": "/nonexistent"], alsaList: "/nonexistent").isEmpty)
        #expect(CameraSession.defaultMicrophone(for: .virtual) == .virtual)
    }

    @Test("with a sound server, every source it lists, its default first, then ALSA; its default input when it lists none")
    func soundServerSources() throws {
        let listing = TestPaths.scratchFolder("mic-sources").appendingPathComponent("pcm")
        try "00-00: ALC257 Analog : ALC257 Analog : playback 1 : capture 1\n".write(to: listing, atomically: true, encoding: .utf8)
        let server = ["PULSE_SERVER": "unix:/tmp/x"]
        let sources = [
            MicrophoneDevice.SoundSource(name: "alsa_output.pci.analog-stereo.monitor", description: "Monitor of Built-in Audio", isDefault: false),
            MicrophoneDevice.SoundSource(name: "alsa_input.usb-Blue_Yeti.analog-stereo", description: "Yeti Stereo Microphone", isDefault: false),
            MicrophoneDevice.SoundSource(name: "alsa_input.pci.analog-stereo", description: "Built-in Audio Analog Stereo", isDefault: true),
        ]
        let listed = MicrophoneDevice.microphones(environment: server, alsaList: listing.path, sources: { sources })
        #expect(listed.map(\.id) == ["pulse:alsa_input.pci.analog-stereo", "pulse:alsa_output.pci.analog-stereo.monitor",
                                     "pulse:alsa_input.usb-Blue_Yeti.analog-stereo", "alsa:hw:0,0"])
        #expect(listed.map(\.name) == ["Built-in Audio Analog Stereo", "Monitor of Built-in Audio", "Yeti Stereo Microphone", "ALC257 Analog"])
        #expect(listed.prefix(3).allSatisfy { $0.kind == .pulse })
        for answer in [nil, [] as [MicrophoneDevice.SoundSource]] {
            #expect(MicrophoneDevice.microphones(environment: server, alsaList: listing.path, sources: { answer }).map(\.id)
                    == ["pulse:default", "alsa:hw:0,0"])
        }
        var asked = false
        let none = MicrophoneDevice.microphones(environment: ["XDG_RUNTIME_DIR": "/nonexistent"], alsaList: listing.path,
                                                sources: { asked = true; return sources })
        #expect(none.map(\.id) == ["alsa:hw:0,0"] && !asked, "no server: it is not asked")
    }

    @Test("preview pictures keep coming while the camera records")
    func previewWhileRecording() async throws {
        let camera = session()
        var frames = 0
        try camera.startPreview { _ in frames += 1 }
        try await waitUntil("the preview runs", of: camera) { frames >= 2 }
        let url = TestPaths.scratchFolder("camera-both").appendingPathComponent("clip.mp4")
        try camera.startRecording(to: url, quality: .low, maxDuration: nil)
        let atStart = frames
        try await waitUntil("five preview frames came while recording", of: camera) { frames >= atStart + 5 }
        #expect(camera.recording == .recording(remaining: nil), "still recording")
        try await waitUntil("some video is recorded", of: camera) { camera.recordedDuration >= MediaTime(value: 2, timescale: 5) }
        #expect(await camera.stopRecording() == .finished(url))
        #expect(camera.isCameraOpen, "the preview still needs the camera")
        let afterStop = frames
        try await waitUntil("the preview goes on after the recording", of: camera) { frames > afterStop + 2 }
        camera.stopPreview()
        #expect(try FrameReader(url: url).duration >= MediaTime(value: 2, timescale: 5))
    }

    @Test("a recording that cannot be written is refused at once, and the camera closes")
    func unwritable() async throws {
        let camera = session()
        let url = URL(fileURLWithPath: "/nonexistent-folder/clip.mp4")
        #expect(throws: MediaIOError.self) { try camera.startRecording(to: url, quality: .low, maxDuration: nil) }
        #expect(camera.recording == .idle)
        #expect(!camera.isCameraOpen)
        #expect(throws: CaptureError.maxDurationNotPositive) {
            try camera.startRecording(to: url, quality: .low, maxDuration: .zero)
        }
    }
}

@Suite("Camera hardware")
@MainActor
struct CameraHardwareTests {
    @Test("position comes from the firmware's panel in sysfs, else external for removable devices, else unspecified")
    func position() throws {
        let sysfs = TestPaths.scratchFolder("sysfs")
        let manager = FileManager.default
        func device(_ node: String, at path: String, files: [String: String]) throws {
            let folder = sysfs.appendingPathComponent(path)
            try manager.createDirectory(at: folder, withIntermediateDirectories: true)
            for (name, text) in files {
                let file = sysfs.appendingPathComponent(name)
                try manager.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                try text.write(to: file, atomically: true, encoding: .utf8)
            }
            let link = sysfs.appendingPathComponent("class/video4linux/\(node)")
            try manager.createDirectory(at: link, withIntermediateDirectories: true)
            try manager.createSymbolicLink(at: link.appendingPathComponent("device"), withDestinationURL: folder)
        }
        try device("video0", at: "devices/pci0/i2c/ov5693/video0", files: ["devices/pci0/i2c/ov5693/firmware_node/physical_location/panel": "back\n"])
        try device("video2", at: "devices/pci0/i2c/ov2740/video2", files: ["devices/pci0/i2c/physical_location/panel": "front\n"])
        try device("video4", at: "devices/pci0/usb1/1-2/1-2:1.0", files: ["devices/pci0/usb1/1-2/removable": "removable\n"])
        try device("video6", at: "devices/pci0/usb1/1-3/1-3:1.0", files: ["devices/pci0/usb1/1-3/removable": "fixed\n"])
        #expect(CaptureDevice.position(ofNode: "video0", sysfs: sysfs.path) == .rear)
        #expect(CaptureDevice.position(ofNode: "video2", sysfs: sysfs.path) == .front)
        #expect(CaptureDevice.position(ofNode: "video4", sysfs: sysfs.path) == .external)
        #expect(CaptureDevice.position(ofNode: "video6", sysfs: sysfs.path) == .unspecified)
        #expect(CaptureDevice.position(ofNode: "video9", sysfs: sysfs.path) == .unspecified)
    }

    @Test("flash modes: on always fires, auto only in the dark, off and torch never at the photo; no flash is an error")
    func flash() throws {
        #expect(FlashMode.on.fires(atBrightness: 200) && FlashMode.on.fires(atBrightness: 0))
        #expect(FlashMode.auto.fires(atBrightness: FlashMode.darkLuma - 1) && !FlashMode.auto.fires(atBrightness: FlashMode.darkLuma))
        #expect(!FlashMode.off.fires(atBrightness: 0) && !FlashMode.torch.fires(atBrightness: 0))
        let camera = CameraSession(device: .virtual, size: PixelSize(width: 320, height: 240))
        try camera.setFlashMode(.off)
        for mode in [FlashMode.on, .auto, .torch] {
            #expect(throws: MediaIOError.deviceUnavailable(device: "virtual", reason: "this camera has no flash")) {
                try camera.setFlashMode(mode)
            }
        }
        #expect(camera.flashMode == .off)
        #expect(PixelBuffer(width: 64, height: 48, fill: RGB(255, 255, 255)).sampledLuma == 255)
        #expect(PixelBuffer(width: 64, height: 48, fill: RGB(0, 0, 0)).sampledLuma == 0)
    }

    @Test("switching cameras: the preview goes on from the new one at its size; refused while recording or to a camera that will not open")
    func switching() async throws {
        let camera = CameraSession(device: .virtual, size: PixelSize(width: 320, height: 240))
        var sizes: [PixelSize] = []
        try camera.startPreview { sizes.append($0.size) }
        let second = CaptureDevice(id: "virtual", name: "Second virtual camera", position: .front,
                                   sizes: [PixelSize(width: 160, height: 120)], frameRates: [30], hasFlash: false)
        let denied = CaptureDevice(id: "/dev/video9", name: "video9", position: .rear, sizes: [], frameRates: [], hasFlash: false,
                                   unavailableReason: "permission denied: add your user to the video group")
        #expect(throws: MediaIOError.deviceUnavailable(device: "/dev/video9", reason: "permission denied: add your user to the video group")) {
            try camera.switchCamera(to: denied)
        }
        #expect(camera.device == .virtual && camera.isPreviewing)
        let url = TestPaths.scratchFolder("camera-switch").appendingPathComponent("clip.mp4")
        try camera.startRecording(to: url, quality: .low, maxDuration: nil)
        #expect(throws: CaptureError.switchWhileRecording) { try camera.switchCamera(to: second) }
        #expect(await camera.stopRecording() == .finished(url))
        try camera.switchCamera(to: second)
        #expect(camera.device == second && camera.isPreviewing)
        #expect(camera.frameSize == PixelSize(width: 160, height: 120), "the new camera's own size: it does not offer 320×240")
        let seen = sizes.count
        _ = await CameraSessionTests.events(of: camera) { sizes.count >= seen + 3 }
        #expect(sizes.suffix(2).allSatisfy { $0 == PixelSize(width: 160, height: 120) }, "\(sizes.suffix(3))")
        camera.stopPreview()
        #expect(!camera.isCameraOpen)
    }
}
