import Capture
import Foundation
import MediaIO
import StudioKit
import ViewfinderCore

/// The Camera screen (seeds.md §3): the live preview, Take Photo, and Record with a quality and
/// a maximum duration whose countdown shows while it records. Bound to `CameraSession`; the
/// flow stores results in the library's Captures.
@MainActor
final class CameraScreen: Screen {
    let session: CameraSession
    let title = "Camera"
    private let root = Box(.vertical, spacing: 10)
    var page: Widget { root }
    private let preview = Picture()
    private let statusLabel = Label("")
    let photoButton = Button("Take Photo")
    let recordButton = Button("Record")
    /// Stops a recording and throws it away (only while one runs).
    let cancelButton = Button("Cancel")
    let backButton = Button("Back")
    private var qualityButtons: [CaptureQuality: ToggleButton] = [:]
    private var limitButtons: [Int: ToggleButton] = [:]
    private(set) var quality: CaptureQuality = .medium
    private(set) var limit = 30
    private(set) var framesShown = 0
    var onFirstFrame: ((PixelSize) -> Void)?
    var onPhoto: (() -> Void)?
    var onRecord: (() -> Void)?
    var onStop: (() -> Void)?
    var onCancel: (() -> Void)?
    var onBack: (() -> Void)?

    init(device: CaptureDevice) {
        session = CameraSession(device: device, microphone: CameraSession.defaultMicrophone(for: device))
        preview.name = "camera-preview"
        preview.expand()
        preview.setMinimumSize(width: 320, height: 240)
        let details = Label("\(device.name) · \(device.position == .unspecified ? "position unknown" : device.position.rawValue) · "
                            + (device.hasFlash ? "flash" : "no flash"))
        details.addStyleClass("dim-label")
        photoButton.addStyleClass("suggested-action")
        recordButton.addStyleClass("destructive-action")
        photoButton.on("clicked") { [unowned self] in self.onPhoto?() }
        recordButton.on("clicked") { [unowned self] in
            if case .recording = self.session.recording { self.onStop?() } else { self.onRecord?() }
        }
        backButton.on("clicked") { [unowned self] in self.onBack?() }
        cancelButton.on("clicked") { [unowned self] in self.onCancel?() }
        cancelButton.isSensitive = false

        let qualities = ChoiceGroup(CaptureQuality.allCases.map { ($0, $0.rawValue.capitalized) }, selected: quality) {
            [unowned self] choice in self.quality = choice
        }
        let limits = ChoiceGroup([10, 30, 60].map { ($0, "\($0) s") }, selected: limit) { [unowned self] seconds in self.limit = seconds }
        qualityButtons = qualities.buttons
        limitButtons = limits.buttons
        let controls = buttonRow([backButton], [qualities.box, limits.box, cancelButton, recordButton, photoButton])
        root.setMargins(16)
        root.append(preview)
        root.append(details)
        root.append(statusLabel)
        root.append(controls)
    }

    /// Starts the live preview.
    func start() throws(MediaIOError) {
        try session.startPreview { [unowned self] picture in
            self.preview.setTexture(Texture(RasterImage(picture)))
            self.framesShown += 1
            if self.framesShown == 1 { self.onFirstFrame?(picture.size) }
        }
        statusLabel.text = "Live"
    }

    func leave() {
        session.stopPreview()
        if case .recording = session.recording {
            Task { _ = await session.stopRecording() }
        }
    }

    func button(named name: String) -> Widget? {
        if let quality = CaptureQuality(rawValue: name) { return qualityButtons[quality] }
        if name.hasSuffix("s"), let seconds = Int(name.dropLast()) { return limitButtons[seconds] }
        return ["photo": photoButton, "record": recordButton, "cancel": cancelButton, "back": backButton][name]
    }

    func part(named name: String) -> Widget? {
        name == "preview" ? preview : nil
    }

    /// Shows a recording's state: the countdown, or where it went.
    func showRecording(_ state: CameraSession.RecordingState) {
        if case .recording = state { cancelButton.isSensitive = true } else { cancelButton.isSensitive = false }
        switch state {
        case .idle:
            statusLabel.text = "Live"
            recordButton.title = "Record"
        case .recording(let remaining):
            recordButton.title = "Stop"
            if let remaining {
                let left = Int(remaining.rounded(.up))
                statusLabel.text = String(format: "Recording · %d:%02d left", left / 60, left % 60)
            } else {
                statusLabel.text = "Recording"
            }
        case .finished:
            statusLabel.text = "Saved to Captures"
            recordButton.title = "Record"
        case .failed(let message):
            statusLabel.text = "Recording failed: \(message)"
            recordButton.title = "Record"
        }
    }
}
