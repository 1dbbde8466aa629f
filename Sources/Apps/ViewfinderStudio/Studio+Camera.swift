import Capture
import Foundation
import MediaIO
import MediaLibrary
import StudioKit
import ViewfinderCore
import ViewfinderUI

extension Studio {
    /// The cameras offered: the real ones, plus those `--device` names (comma-separated:
    /// `virtual`, `virtual-front`, device paths, `pipewire:` node names), in that order.
    var cameras: [CaptureDevice] {
        var found = CameraSession.availableCameras(includeVirtual: false)
        for id in (options.device ?? "").split(separator: ",").map(String.init) {
            if let named = try? CameraDiscovery.named(id), !found.contains(named) { found.append(named) }
        }
        return found
    }

    /// The Camera screen is offered only when there is a camera.
    var cameraAvailable: Bool { !cameras.isEmpty }

    /// Where captures wait before they move into the library.
    var captureFolder: URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("viewfinder-captures", isDirectory: true)
    }

    /// The camera; every photo and recording moves into the library's Captures.
    /// With `finish` (pick), every outcome goes there instead; `editing` adds the crop step.
    func openCamera(quality: CaptureQuality = .medium, limit: Int = 30, editing: CameraView.CropRatio? = nil,
                    finish: ((PickerOutcome<CameraView.Capture>) -> Void)? = nil) {
        guard let device = cameras.first else {
            return report(CaptureUnavailable(), doing: tr("No camera"))
        }
        let camera = CameraView(device: device, captureFolder: captureFolder, quality: quality, limit: limit, editing: editing,
                                cameras: cameras)
        camera.onEditorReady = { [unowned self] editor in
            let viewport = editor.session.viewportSize
            self.events.emit("edit-ready", ["spec": editor.session.spec(side: editor.side)?.json() ?? "",
                                            "viewport": [viewport.width, viewport.height]])
        }
        camera.onFirstFrame = { [unowned self, unowned camera] size in
            self.events.emit("camera-preview", ["width": size.width, "height": size.height, "device": camera.session.device.id])
        }
        camera.onSwitch = { [unowned self] device, error in
            self.events.emit("camera-switched", ["device": device.id, "error": error.map { "\($0)" } ?? ""])
        }
        camera.onRecording = { [unowned self] quality, limit in
            self.events.emit("recording", ["quality": quality.rawValue, "limit": limit])
        }
        camera.onDiscarded = { [unowned self] in self.events.emit("recording-discarded", [:]) }
        camera.onRecordingChange = { [unowned self] state in
            if case .recording(let remaining) = state { self.events.emit("countdown", ["remaining": remaining ?? -1]) }
        }
        camera.completion = { [unowned self, unowned camera] outcome in
            if let finish { return finish(outcome) }
            self.settle(outcome, of: camera, staysOnFailure: true) { capture in
                Task {
                    do {
                        try await self.storeCapture(capture.file, kind: capture.kind == .photo ? "photo" : "recording")
                    } catch {
                        self.report(error, doing: capture.kind == .photo ? tr("Cannot take the photo") : tr("Cannot keep the recording"))
                    }
                }
            }
        }
        push(camera)
        do {
            try camera.start()
        } catch {
            back()
            report(error, doing: tr("Cannot open the camera"))
        }
    }

    /// Moves a capture into the library's Captures and says so.
    private func storeCapture(_ file: URL, kind: String) async throws {
        guard let library else { return }
        let asset = try await library.saveCapture(file)
        events.emit("\(kind)-saved", ["id": asset.id, "path": try library.originalURL(of: asset).path,
                                      "duration": asset.duration?.seconds ?? 0])
        toast(kind == "photo" ? tr("Photo saved in Captures") : tr("Video saved in Captures"))
    }
}

/// No camera on this machine (and no `--device`).
struct CaptureUnavailable: Error, CustomStringConvertible {
    var description: String {
        tr("no camera was found (no /dev/video device); start with --device virtual for a test pattern")
    }
}
