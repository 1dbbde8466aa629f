import Capture
import CoverPicker
import Foundation
import Imaging
import MediaLibrary
import MediaIO
import StudioKit
import ViewfinderCore

/// The camera (seeds.md §3): the live preview, Take Photo, and Record with a quality and a
/// maximum duration whose countdown shows while it records. Bound to `CameraSession`. Each
/// photo or recording, written into `captureFolder`, goes to the completion as `.done(Capture)`
/// (a host may keep the camera open for more); Back completes with `.cancelled`, a failed
/// capture with `.failed`. With an editing step, Take Photo opens the photo in the crop editor
/// (`AvatarPicker`'s, with a rectangle of the chosen ratio) and Done hands back the original,
/// the edited image and the crop in the original's pixels; the editor's Back cancels.
@MainActor
public final class CameraView: Component {
    public let session: CameraSession
    public let title = tr("Camera")
    private let root = Box(.vertical, spacing: 10)
    public var page: Widget { root }
    private let preview = Picture()
    private let statusLabel = Label("")
    public let photoButton = Button(tr("Take Photo"))
    public let recordButton = Button(tr("Record"))
    /// Stops a recording and throws it away (only while one runs).
    public let cancelButton = Button(tr("Cancel"))
    public let backButton = Button(tr("Back"))
    /// Swaps the session to the next camera offered (shown only when there are two or more).
    public let switchButton = Button.icon("camera-switch-symbolic", tooltip: tr("Switch camera")) {}
    /// The cameras the switch goes through, in order (the session's among them).
    public let cameras: [CaptureDevice]
    private let details = Label("")
    /// Told when the camera was switched, or why it could not be.
    public var onSwitch: ((CaptureDevice, (any Error)?) -> Void)?
    private var qualityButtons: [CaptureQuality: ToggleButton] = [:]
    private var limitButtons: [Int: ToggleButton] = [:]
    public private(set) var quality: CaptureQuality
    public private(set) var limit: Int
    public private(set) var framesShown = 0
    private var previewSize: PixelSize?
    /// One photo or video taken, as the original picker's info: the media type, the file, the
    /// edited image and its crop (with an editing step), and its metadata.
    public struct Capture: Sendable, Equatable {
        /// Photo or video.
        public let kind: AssetKind
        /// The file written.
        public let file: URL
        /// The camera's name and id.
        public let device: String
        /// When it was taken.
        public let date: Date
        /// The picture's size (the preview's, which the capture keeps), when known.
        public let size: PixelSize?
        /// The EXIF orientation of the file (1…8, 1 upright).
        public var orientation = 1
        /// The edited image (PNG, beside the original), after an editing step.
        public var edited: URL? = nil
        /// The part of the original the edited image shows, in the original's pixels.
        public var cropRect: Rect? = nil
    }

    /// The shape of the editing step's crop.
    public enum CropRatio: Sendable, Equatable {
        /// The photo's own shape: the crop chooses how much of it, and where.
        case free
        /// Width divided by height.
        case fixed(Double)
    }

    /// The editing step after Take Photo, or nil for none.
    public let editing: CropRatio?
    /// The crop editor while a photo is being edited.
    public private(set) var editor: AvatarPicker?
    private let live = Box(.vertical, spacing: 10)
    /// Told when the editor has opened the photo, with the crop as Done would hand it back.
    public var onEditorReady: ((AvatarPicker) -> Void)?

    /// Where captures are written.
    public let captureFolder: URL
    public var onFirstFrame: ((PixelSize) -> Void)?
    /// Told when a recording starts.
    public var onRecording: ((CaptureQuality, Int) -> Void)?
    /// Told when Cancel has thrown a recording away.
    public var onDiscarded: (() -> Void)?
    /// Told of every change of the recording's state (the countdown, the end).
    public var onRecordingChange: ((CameraSession.RecordingState) -> Void)?
    /// Told of every capture, and once more with `.cancelled` when Back is pressed.
    public var completion: ((PickerOutcome<Capture>) -> Void)?

    /// A camera on `device` writing into `captureFolder`, starting at `quality` and a limit of
    /// `limit` seconds (offered beside 10, 30 and 60 s when it is another); `editing` adds the
    /// crop step after Take Photo. With more than one of `cameras`, a switch button goes from
    /// one to the next.
    public init(device: CaptureDevice, captureFolder: URL, quality: CaptureQuality = .medium, limit: Int = 30,
                editing: CropRatio? = nil, cameras: [CaptureDevice] = []) {
        self.captureFolder = captureFolder
        self.editing = editing
        self.cameras = cameras.contains(device) ? cameras : [device] + cameras
        self.quality = quality
        self.limit = max(1, limit)
        session = CameraSession(device: device, microphone: CameraSession.defaultMicrophone(for: device))
        preview.name = "camera-preview"
        preview.expand()
        preview.setMinimumSize(width: 320, height: 240)
        details.addStyleClass("dim-label")
        details.setWraps(true)
        statusLabel.setWraps(true)
        describe(device)
        switchButton.isVisible = self.cameras.count > 1
        switchButton.on("clicked") { [unowned self] in self.switchCamera() }
        photoButton.addStyleClass("suggested-action")
        recordButton.addStyleClass("destructive-action")
        photoButton.on("clicked") { [unowned self] in self.takePhoto() }
        recordButton.on("clicked") { [unowned self] in
            if case .recording = self.session.recording {
                Task { _ = await self.session.stopRecording() }
            } else {
                self.startRecording()
            }
        }
        backButton.on("clicked") { [unowned self] in self.completion?(.cancelled) }
        cancelButton.on("clicked") { [unowned self] in
            Task {
                await self.session.discardRecording()
                self.onDiscarded?()
            }
        }
        cancelButton.isSensitive = false
        session.onRecordingChange = { [unowned self] state in
            self.showRecording(state)
            self.onRecordingChange?(state)
            switch state {
            case .finished(let url): self.captured(.video, url)
            case .failed(let message):
                self.completion?(.failed(PickerError(tr("Recording failed"), CameraError(message: message))))
            case .idle, .recording: break
            }
        }

        let qualities = ChoiceGroup(CaptureQuality.allCases.map { ($0, Self.title(of: $0)) }, selected: quality) {
            [unowned self] choice in self.quality = choice
        }
        let limits = ChoiceGroup(Set([10, 30, 60, self.limit]).sorted().map { ($0, tr("{seconds} s", ["seconds": $0])) }, selected: self.limit) { [unowned self] seconds in self.limit = seconds }
        qualityButtons = qualities.buttons
        limitButtons = limits.buttons
        // Four groups on one line, wrapping onto more in a narrow window.
        let controls = WrappingRow()
        let leading = Box(.horizontal, spacing: 8), actions = Box(.horizontal, spacing: 8)
        for button in [backButton, switchButton] { leading.append(button) }
        for button in [cancelButton, recordButton, photoButton] { actions.append(button) }
        for group in [leading, qualities.box, limits.box, actions] { controls.append(group) }
        root.setMargins(16)
        live.expand()
        live.append(preview)
        live.append(details)
        live.append(statusLabel)
        live.append(controls)
        root.append(live)
    }

    /// Names the camera in use: its name, which way it faces, its flash; the switch says where it goes.
    private func describe(_ device: CaptureDevice) {
        let position = Self.words(for: device.position)
        details.text = device.hasFlash
            ? tr("{camera} · {position} · flash", ["camera": device.name, "position": position])
            : tr("{camera} · {position} · no flash", ["camera": device.name, "position": position])
        if let next = nextCamera {
            switchButton.setAccessibleName(tr("Switch camera: to {camera}", ["camera": next.name]))
            switchButton.setTooltip(tr("Switch to {camera}", ["camera": next.name]))
        }
    }

    /// A quality's name on its button.
    private static func title(of quality: CaptureQuality) -> String {
        switch quality {
        case .high: return tr("High")
        case .medium: return tr("Medium")
        case .low: return tr("Low")
        }
    }

    /// Which way a camera faces, as the details line says it.
    private static func words(for position: CaptureDevice.Position) -> String {
        switch position {
        // TRANSLATORS: which way a camera faces, in the line under the preview ("Integrated Camera · front · flash").
        case .front: return tr("front")
        case .rear: return tr("rear")
        case .external: return tr("external")
        case .unspecified: return tr("position unknown")
        }
    }

    /// The camera after the session's in `cameras`, round to the first.
    private var nextCamera: CaptureDevice? {
        guard cameras.count > 1, let index = cameras.firstIndex(of: session.device) else { return nil }
        return cameras[(index + 1) % cameras.count]
    }

    /// Swaps the session to the next camera; the preview goes on from it (its first frame is
    /// told again). Refused while recording.
    public func switchCamera() {
        guard let next = nextCamera else { return }
        do {
            framesShown = 0
            try session.switchCamera(to: next)
            describe(next)
            onSwitch?(next, nil)
        } catch {
            statusLabel.text = tr("Cannot switch to {camera}: {error}", ["camera": next.name, "error": "\(error)"])
            onSwitch?(next, error)
        }
    }

    private func captureURL(_ ext: String) -> URL {
        try? FileManager.default.createDirectory(at: captureFolder, withIntermediateDirectories: true)
        return CoverPicker.outputURL(in: captureFolder, extension: ext)
    }

    /// Takes a photo into the capture folder.
    public func takePhoto() {
        let url = captureURL("jpg")
        Task {
            do {
                captured(.photo, try await session.takePhoto(to: url))
            } catch {
                completion?(.failed(PickerError(tr("Cannot take the photo"), error)))
            }
        }
    }

    /// Starts recording at the chosen quality, for at most the chosen limit.
    public func startRecording() {
        do {
            try session.startRecording(to: captureURL("mp4"), quality: quality, maxDuration: MediaTime(seconds: Int64(limit)))
            onRecording?(quality, limit)
        } catch {
            completion?(.failed(PickerError(tr("Cannot record"), error)))
        }
    }

    private func captured(_ kind: AssetKind, _ file: URL) {
        var capture = Capture(kind: kind, file: file, device: session.device.id, date: Date(), size: previewSize)
        if kind == .photo, let info = try? ImageInfo.probe(file) {
            capture = Capture(kind: kind, file: file, device: capture.device, date: info.creationDate ?? capture.date,
                              size: info.displaySize, orientation: info.orientation)
        }
        guard kind == .photo, let editing else {
            completion?(.done(capture))
            return
        }
        edit(capture, ratio: editing)
    }

    /// The editing step: the live camera gives way to the crop editor on the photo just taken.
    private func edit(_ capture: Capture, ratio: CropRatio) {
        let aspect: Double
        switch ratio {
        case .free: aspect = capture.size.map { Double($0.width) / Double($0.height) } ?? 1
        case .fixed(let value): aspect = value
        }
        session.stopPreview()
        let editor = AvatarPicker(photo: capture.file, shape: .rectangle(aspectRatio: aspect), side: nil)
        self.editor = editor
        editor.onReady = { [unowned self, unowned editor] _ in self.onEditorReady?(editor) }
        editor.completion = { [unowned self] outcome in
            switch outcome {
            case .done(let avatar): self.edited(capture, avatar)
            case .cancelled: self.completion?(.cancelled)
            case .failed(let failure): self.completion?(.failed(failure))
            }
        }
        editor.backButton.title = tr("Cancel")
        editor.backButton.setAccessibleName(tr("Cancel: leave without a photo"))
        live.isVisible = false
        root.append(editor.page)
        editor.start()
    }

    /// Writes the edited image beside the original ("NAME edited.png") and hands both back.
    private func edited(_ capture: Capture, _ avatar: AvatarPicker.Avatar) {
        let stem = (capture.file.lastPathComponent as NSString).deletingPathExtension + " edited"
        let target = CoverPicker.freeURL(in: capture.file.deletingLastPathComponent(), stem: stem, extension: "png")
        do {
            try ImageEncoder.write(avatar.image, to: target)
        } catch {
            completion?(.failed(PickerError(tr("Cannot save the edited photo"), error)))
            return
        }
        var result = capture
        result.edited = target
        result.cropRect = avatar.spec.rect
        completion?(.done(result))
    }

    /// Done from the keyboard finishes the editing step.
    public func done() {
        editor?.done()
    }

    /// Starts the live preview.
    public func start() throws(MediaIOError) {
        try session.startPreview { [unowned self] picture in
            self.preview.setTexture(Texture(RasterImage(picture)))
            self.framesShown += 1
            if self.framesShown == 1 {
                self.previewSize = picture.size
                self.onFirstFrame?(picture.size)
            }
        }
        statusLabel.text = tr("Live")
    }

    public func leave() {
        session.stopPreview()
        if case .recording = session.recording {
            Task { _ = await session.stopRecording() }
        }
    }

    public func button(named name: String) -> Widget? {
        if let editor { return editor.button(named: name) }
        if let quality = CaptureQuality(rawValue: name) { return qualityButtons[quality] }
        if name.hasSuffix("s"), let seconds = Int(name.dropLast()) { return limitButtons[seconds] }
        if name == "switch" { return cameras.count > 1 ? switchButton : nil }
        return ["photo": photoButton, "record": recordButton, "cancel": cancelButton, "back": backButton][name]
    }

    public func part(named name: String) -> Widget? {
        if let editor, let part = editor.part(named: name) { return part }
        return name == "preview" ? preview : nil
    }

    /// Shows a recording's state: the countdown, or where it went.
    public func showRecording(_ state: CameraSession.RecordingState) {
        if case .recording = state { cancelButton.isSensitive = true } else { cancelButton.isSensitive = false }
        switchButton.isSensitive = !cancelButton.isSensitive
        switch state {
        case .idle:
            statusLabel.text = tr("Live")
            recordButton.title = tr("Record")
        case .recording(let remaining):
            recordButton.title = tr("Stop")
            if let remaining {
                let left = Int(remaining.rounded(.up))
                // TRANSLATORS: {left} is the time left, minutes:seconds ("0:25").
                statusLabel.text = tr("Recording · {left} left", ["left": String(format: "%d:%02d", left / 60, left % 60)])
            } else {
                statusLabel.text = tr("Recording")
            }
        case .finished:
            statusLabel.text = tr("Saved to Captures")
            recordButton.title = tr("Record")
        case .failed(let message):
            statusLabel.text = tr("Recording failed: {message}", ["message": message])
            recordButton.title = tr("Record")
        }
    }
}

/// A recording that failed, with the camera's message.
struct CameraError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
