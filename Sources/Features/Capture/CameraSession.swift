import Foundation
import Imaging
import MediaIO
import ViewfinderCore

/// The model behind the Camera screen (seeds.md §3), free of any UI toolkit.
///
/// One thread reads the camera and feeds both the live preview and a recording, so the preview
/// keeps running while a video records. The camera opens on first use (preview, photo or
/// recording) and closes when none of them needs it. Results are files; the app stores them in
/// the library (Capture does not know the library).
@MainActor
public final class CameraSession {
    /// Where a recording stands.
    public enum RecordingState: Sendable, Equatable {
        /// Nothing recorded yet.
        case idle
        /// Recording; `remaining` counts down to the maximum duration (nil without one).
        case recording(remaining: TimeInterval?)
        /// The last recording is finished and playable at this URL.
        case finished(URL)
        /// The last recording failed; nothing was kept.
        case failed(String)
    }

    /// The real cameras on this machine that can be opened (through PipeWire, the Camera portal
    /// or V4L2: `CameraDiscovery`), and the virtual test camera when asked.
    public static func availableCameras(includeVirtual: Bool) -> [CaptureDevice] {
        CameraDiscovery.listing().cameras.filter(\.isUsable) + (includeVirtual ? [.virtual] : [])
    }

    /// The microphone a recording from `device` uses unless told otherwise: the virtual one for
    /// the virtual camera (its clicks mark the camera's flashes), else the system's default
    /// (nil when this machine has none: the recording is silent).
    public nonisolated static func defaultMicrophone(for device: CaptureDevice) -> MicrophoneDevice? {
        device.isVirtual ? .virtual : MicrophoneDevice.systemDefault()
    }

    /// The camera this session uses; `switchCamera(to:)` changes it.
    public private(set) var device: CaptureDevice
    /// The microphone recordings carry as sound; nil records pictures only.
    public var microphone: MicrophoneDevice?
    /// The picture size asked for (nil: the camera's first).
    public private(set) var requestedSize: PixelSize?
    /// The frame rate asked for (nil: the camera's first).
    public private(set) var requestedFrameRate: Int?
    /// How photos use the flash; `setFlashMode(_:)` changes it.
    public private(set) var flashMode: FlashMode = .off
    /// The size the camera delivers, known once it has opened.
    public private(set) var frameSize: PixelSize?
    /// True between `startPreview` and `stopPreview` (or a camera failure).
    public private(set) var isPreviewing = false
    /// The recording's state; `onRecordingChange` is told of every change.
    public private(set) var recording: RecordingState = .idle
    /// How much the current (or last) recording holds.
    public private(set) var recordedDuration: MediaTime = .zero
    /// Why the camera stopped, if it failed while open.
    public private(set) var cameraError: MediaIOError?
    /// Told when a recording starts, about every 0.25 s while it runs (with the countdown), and
    /// when it ends.
    public var onRecordingChange: (@MainActor (RecordingState) -> Void)?

    private var worker: CameraWorker?
    private var frameRate = 30
    private var onFrame: (@MainActor (PixelBuffer) -> Void)?
    private var photosPending = 0
    private var stopWaiters: [CheckedContinuation<Void, Never>] = []
    /// The last preview picture's brightness, for the automatic flash (dark until one came).
    private var sceneLuma = 0
    /// Whether the last recording ended by `discardRecording()`.
    private var wasDiscarded = false
    /// A test seam: called after each event from the camera's thread is handled (a picture, a
    /// recording's tick or end, a failure), so a test waits for events instead of sleeping.
    var afterEvent: (@MainActor () -> Void)?

    /// A session for `device` recording sound from `microphone` (nil: none); nothing opens until
    /// the first preview, photo or recording.
    public init(device: CaptureDevice, size: PixelSize? = nil, frameRate: Int? = nil, microphone: MicrophoneDevice? = nil) {
        self.device = device
        self.microphone = microphone
        requestedSize = size
        requestedFrameRate = frameRate
    }

    deinit {
        // The thread holds no reference to the session; without this it would read on.
        worker?.stop()
    }

    /// Whether the camera is open (its thread running).
    public var isCameraOpen: Bool { worker != nil }

    private var isRecording: Bool {
        if case .recording = recording { return true }
        return false
    }

    // MARK: - Preview

    /// Starts the live preview: `onFrame` gets pictures of `frameSize` on the main actor. When the
    /// main actor falls behind, frames are dropped (at most one is ever on its way).
    public func startPreview(onFrame: @escaping @MainActor (PixelBuffer) -> Void) throws(MediaIOError) {
        let worker = try openWorker()
        self.onFrame = onFrame
        isPreviewing = true
        worker.setPreview(true)
    }

    /// Stops the preview; the camera closes unless a recording or a photo still needs it.
    public func stopPreview() {
        isPreviewing = false
        onFrame = nil
        worker?.setPreview(false)
        closeIfIdle()
    }

    // MARK: - Photo

    /// Takes a photo (the next frame once the camera has settled) and writes it to `url` as a
    /// JPEG that records the time it was taken (EXIF), off the main actor. Works with or without the preview running.
    public func takePhoto(to url: URL) async throws -> URL {
        let worker = try openWorker()
        if flashMode.fires(atBrightness: sceneLuma) { try device.strobe() }
        photosPending += 1
        let picture: PixelBuffer, taken: Date
        do {
            (picture, taken) = try await worker.nextPhoto()
            photosPending -= 1
        } catch {
            photosPending -= 1
            closeIfIdle()
            throw error
        }
        closeIfIdle()
        try await Self.write(picture, to: url, takenAt: taken)
        return url
    }

    private nonisolated static func write(_ picture: PixelBuffer, to url: URL, takenAt date: Date) async throws {
        try ImageEncoder.writePhoto(picture, to: url, takenAt: date)
    }

    // MARK: - Flash and switching

    /// Sets how photos use the flash (torch lights it now); throws when this camera has no
    /// flash, for any mode but off.
    public func setFlashMode(_ mode: FlashMode) throws(MediaIOError) {
        try device.setFlash(mode)
        flashMode = mode
    }

    /// Switches to `camera`: the old one closes, and the preview, if running, goes on from the
    /// new one (at its first size unless it offers the size asked for). The flash goes back to
    /// off. Throws while a recording runs, or when the new camera cannot be opened (the
    /// session stays on the old one, its preview stopped).
    public func switchCamera(to camera: CaptureDevice) throws {
        guard camera != device else { return }
        guard !isRecording else { throw CaptureError.switchWhileRecording }
        if let reason = camera.unavailableReason { throw MediaIOError.deviceUnavailable(device: camera.id, reason: reason) }
        let previewing = isPreviewing ? onFrame : nil
        worker?.stop()
        worker = nil
        isPreviewing = false
        onFrame = nil
        try? device.setFlash(.off)
        let previous = (device, requestedSize, requestedFrameRate)
        device = camera
        flashMode = .off
        frameSize = nil
        if let size = requestedSize, !camera.sizes.contains(size) { requestedSize = nil }
        if let rate = requestedFrameRate, !camera.frameRates.contains(rate) { requestedFrameRate = nil }
        guard let previewing else { return }
        do {
            try startPreview(onFrame: previewing)
        } catch {
            (device, requestedSize, requestedFrameRate) = previous
            throw error
        }
    }

    // MARK: - Recording

    /// Starts recording an H.264 MP4 to `url`, with `microphone`'s sound as AAC; it stops by
    /// itself at `maxDuration`. The preview (if running) keeps running. Throws when a recording
    /// runs already, when `maxDuration` is not positive, or when the camera, the microphone or
    /// the file cannot be opened.
    public func startRecording(to url: URL, quality: CaptureQuality, maxDuration: MediaTime?) throws {
        guard !isRecording else { throw CaptureError.alreadyRecording }
        if let maxDuration, maxDuration <= .zero { throw CaptureError.maxDurationNotPositive }
        let worker = try openWorker()
        let size = frameSize ?? requestedSize ?? PixelSize(width: 640, height: 480)
        do {
            let made = try CameraRecording(to: url, size: size, frameRate: frameRate, quality: quality, maxDuration: maxDuration,
                                           microphone: microphone)
            guard worker.startRecording(made) else {
                throw MediaIOError.unreadable(path: device.id, reason: tr("the camera stopped"))
            }
        } catch {
            closeIfIdle()
            throw error
        }
        recordedDuration = .zero
        wasDiscarded = false
        setRecording(.recording(remaining: maxDuration?.seconds))
    }

    /// Stops the recording after the frame being read and waits until the file is finished
    /// (playable). Returns the final state; without a recording running, the current one.
    public func stopRecording() async -> RecordingState {
        guard isRecording, let worker else { return recording }
        worker.stopRecording()
        await withCheckedContinuation { stopWaiters.append($0) }
        return recording
    }

    /// Stops the recording and throws it away (the UI's Cancel): nothing is left of it, and the
    /// state goes back to `idle`. Returns once it is gone; without a recording, at once.
    public func discardRecording() async {
        guard isRecording, let worker else { return }
        wasDiscarded = true
        worker.discardRecording()
        await withCheckedContinuation { stopWaiters.append($0) }
    }

    /// Records to `url` and returns it once the file is finished: at `maxDuration`, or when the
    /// calling task is cancelled (a Ctrl-C in the command-line tool), which stops the recording
    /// and keeps what it holds, as `stopRecording()` does. Throws what `startRecording` throws,
    /// `CaptureError.recordingFailed` when the file could not be written and
    /// `CaptureError.recordingDiscarded` when `discardRecording()` threw it away.
    public func record(to url: URL, quality: CaptureQuality, maxDuration: MediaTime?) async throws -> URL {
        try startRecording(to: url, quality: quality, maxDuration: maxDuration)
        let running = worker
        await withTaskCancellationHandler {
            await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
                if isRecording { stopWaiters.append(waiter) } else { waiter.resume() }
            }
        } onCancel: {
            running?.stopRecording()
        }
        switch recording {
        case .finished(let file): return file
        case .failed(let message): throw CaptureError.recordingFailed(message)
        case .idle where wasDiscarded: throw CaptureError.recordingDiscarded
        case .idle, .recording: throw CaptureError.recordingFailed(tr("the camera stopped"))
        }
    }

    private func setRecording(_ state: RecordingState) {
        recording = state
        onRecordingChange?(state)
    }

    // MARK: - The camera's thread

    /// The running worker, opening the camera and starting its thread when needed.
    private func openWorker() throws(MediaIOError) -> CameraWorker {
        if let worker { return worker }
        let camera = try Camera(device: device, size: requestedSize, frameRate: requestedFrameRate)
        frameSize = camera.size
        frameRate = camera.frameRate
        cameraError = nil
        let worker = CameraWorker(camera: camera)
        self.worker = worker
        let events = worker.events
        Task { @MainActor [weak self] in
            for await event in events {
                guard let self else {
                    worker.stop()
                    return
                }
                self.handle(event, from: worker)
                self.afterEvent?()
            }
        }
        worker.start()
        return worker
    }

    private func handle(_ event: CameraEvent, from source: CameraWorker) {
        switch event {
        case .preview(let picture):
            defer { source.previewDelivered() }
            if source === worker, isPreviewing {
                sceneLuma = picture.sampledLuma
                onFrame?(picture)
            }
        case .recordingTick(let recorded, let remaining):
            recordedDuration = recorded
            if isRecording { setRecording(.recording(remaining: remaining?.seconds)) }
        case .recordingFinished(let url):
            setRecording(.finished(url))
            recordingEnded()
        case .recordingFailed(let message):
            setRecording(.failed(message))
            recordingEnded()
        case .recordingDiscarded:
            recordedDuration = .zero
            setRecording(.idle)
            recordingEnded()
        case .cameraFailed(let error):
            cameraError = error
            if source === worker {
                worker = nil
                isPreviewing = false
                onFrame = nil
            }
        }
    }

    private func recordingEnded() {
        let waiters = stopWaiters
        stopWaiters = []
        for waiter in waiters { waiter.resume() }
        closeIfIdle()
    }

    /// Closes the camera when nothing needs it, so its light goes off.
    private func closeIfIdle() {
        guard !isPreviewing, !isRecording, photosPending == 0, let worker else { return }
        worker.stop()
        self.worker = nil
    }
}
