import Capture
import CoverPicker
import Foundation
import Imaging
import MediaIO
import MediaLibrary
import StudioKit
import ViewfinderCore

extension Studio {
    /// The cameras offered: the real ones, plus `--device virtual` or a device path.
    var cameras: [CaptureDevice] {
        var found = CameraSession.availableCameras(includeVirtual: options.device == "virtual")
        if let id = options.device, id != "virtual", let named = CaptureDevice.named(id), !found.contains(named) {
            found.append(named)
        }
        return found
    }

    /// The Camera screen is offered only when there is a camera.
    var cameraAvailable: Bool { !cameras.isEmpty }

    func openCamera() {
        guard let device = cameras.first else {
            return report(CaptureUnavailable(), doing: "No camera")
        }
        let screen = CameraScreen(device: device)
        screen.onBack = { [unowned self] in self.back() }
        screen.onFirstFrame = { [unowned self] size in
            self.events.emit("camera-preview", ["width": size.width, "height": size.height, "device": device.id])
        }
        screen.onPhoto = { [unowned self, unowned screen] in self.takePhoto(screen) }
        screen.onRecord = { [unowned self, unowned screen] in self.startRecording(screen) }
        screen.onStop = { [unowned screen] in Task { _ = await screen.session.stopRecording() } }
        screen.onCancel = { [unowned self, unowned screen] in
            Task {
                await screen.session.discardRecording()
                self.events.emit("recording-discarded", [:])
            }
        }
        screen.session.onRecordingChange = { [unowned self, unowned screen] state in
            screen.showRecording(state)
            self.recordingChanged(state)
        }
        push(screen)
        do {
            try screen.start()
        } catch {
            back()
            report(error, doing: "Cannot open the camera")
        }
    }

    private func captureURL(_ ext: String) -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("viewfinder-captures", isDirectory: true)
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return CoverPicker.outputURL(in: folder, extension: ext)
    }

    private func takePhoto(_ screen: CameraScreen) {
        let url = captureURL("jpg")
        Task {
            do {
                let file = try await screen.session.takePhoto(to: url)
                try await storeCapture(file, kind: "photo", fields: [:])
            } catch {
                report(error, doing: "Cannot take the photo")
            }
        }
    }

    private func startRecording(_ screen: CameraScreen) {
        do {
            try screen.session.startRecording(to: captureURL("mp4"), quality: screen.quality,
                                              maxDuration: MediaTime(seconds: Int64(screen.limit)))
            events.emit("recording", ["quality": screen.quality.rawValue, "limit": screen.limit])
        } catch {
            report(error, doing: "Cannot record")
        }
    }

    private func recordingChanged(_ state: CameraSession.RecordingState) {
        switch state {
        case .recording(let remaining):
            events.emit("countdown", ["remaining": remaining ?? -1])
        case .finished(let url):
            Task {
                do {
                    try await storeCapture(url, kind: "recording", fields: [:])
                } catch {
                    report(error, doing: "Cannot keep the recording")
                }
            }
        case .failed(let message):
            events.emit("error", ["what": "recording", "message": message])
            hudOverlay.flash(.error, label: "Recording failed", details: message)
        case .idle:
            break
        }
    }

    /// Moves a capture into the library's Captures and says so.
    private func storeCapture(_ file: URL, kind: String, fields: [String: Any]) async throws {
        guard let library else { return }
        let asset = try await library.saveCapture(file)
        var all = fields
        all["id"] = asset.id
        all["path"] = try library.originalURL(of: asset).path
        all["duration"] = asset.duration?.seconds ?? 0
        events.emit("\(kind)-saved", all)
        hudOverlay.flash(.success, label: kind == "photo" ? "Photo saved" : "Video saved", details: "in Captures")
    }
}

/// No camera on this machine (and no `--device`).
struct CaptureUnavailable: Error, CustomStringConvertible {
    var description: String {
        "no camera was found (no /dev/video device); start with --device virtual for a test pattern"
    }
}
