import Foundation
import MediaIO
import ViewfinderCore

/// What the camera's thread tells the main actor, in the order it happened.
enum CameraEvent: Sendable {
    /// A preview picture; the thread sends no other until the main actor took it.
    case preview(PixelBuffer)
    /// The recording has grown (sent about every quarter of a second).
    case recordingTick(recorded: MediaTime, remaining: MediaTime?)
    /// The recording is finished and playable.
    case recordingFinished(URL)
    /// The recording could not be written; nothing is left of it.
    case recordingFailed(String)
    /// The recording was thrown away as asked; nothing is left of it.
    case recordingDiscarded
    /// The camera stopped giving pictures; the thread has ended.
    case cameraFailed(MediaIOError)
}

/// The one thread that reads a camera and feeds both the preview and a recording.
///
/// A camera is one device: two readers would fight over it. The main actor sends commands
/// (preview on or off, start or stop a recording, a photo wanted) through fields behind a lock;
/// the thread answers with `events`. Preview pictures are converted only when the main actor
/// has taken the previous one, so a busy main actor drops frames instead of queueing them.
final class CameraWorker: @unchecked Sendable {
    /// Everything the thread reports, in order; finished when the thread ends.
    let events: AsyncStream<CameraEvent>
    private let continuation: AsyncStream<CameraEvent>.Continuation
    /// Used by the thread alone once started.
    private let camera: Camera
    /// Seconds of recording between countdown reports.
    private static let tick = 0.25

    /// The commands, and what the thread holds for the main actor.
    private struct Shared {
        var running = true
        var previewWanted = false
        var previewInFlight = false
        var recording: CameraRecording?
        var stopRecordingRequested = false
        var discardRecordingRequested = false
        var photoWaiters: [CheckedContinuation<(PixelBuffer, Date), Error>] = []
    }
    private let shared = Locked(Shared())

    init(camera: Camera) {
        self.camera = camera
        (events, continuation) = AsyncStream.makeStream(of: CameraEvent.self)
    }

    func start() {
        let thread = Thread { [self] in run() }
        thread.name = "viewfinder-camera"
        thread.start()
    }

    // MARK: - Commands (any thread)

    /// Ends the thread after the frame being read; a running recording is finished first.
    func stop() {
        shared.withLock { $0.running = false }
    }

    func setPreview(_ wanted: Bool) {
        shared.withLock {
            $0.previewWanted = wanted
            if !wanted { $0.previewInFlight = false }
        }
    }

    /// The main actor took the last preview picture: the next frame may be converted.
    func previewDelivered() {
        shared.withLock { $0.previewInFlight = false }
    }

    /// Hands a new recording to the thread; false when one runs already or the thread ended.
    func startRecording(_ new: CameraRecording) -> Bool {
        shared.withLock {
            guard $0.running, $0.recording == nil else { return false }
            $0.recording = new
            $0.stopRecordingRequested = false
            $0.discardRecordingRequested = false
            return true
        }
    }

    /// Asks the thread to throw the recording away after the current frame.
    func discardRecording() {
        shared.withLock { $0.discardRecordingRequested = true }
    }

    /// Asks the thread to finish the recording after the current frame.
    func stopRecording() {
        shared.withLock { $0.stopRecordingRequested = true }
    }

    /// The next picture once the camera has settled, and when the camera delivered it (the
    /// photo's date: the main actor may take a while to pick the picture up).
    func nextPhoto() async throws -> (PixelBuffer, Date) {
        try await withCheckedThrowingContinuation { (waiter: CheckedContinuation<(PixelBuffer, Date), Error>) in
            let accepted = shared.withLock {
                guard $0.running else { return false }
                $0.photoWaiters.append(waiter)
                return true
            }
            if !accepted { waiter.resume(throwing: closedError) }
        }
    }

    private var closedError: MediaIOError {
        .unreadable(path: camera.device.id, reason: tr("the camera was closed"))
    }

    // MARK: - The thread

    private func run() {
        var lastTick = -1
        var failure: MediaIOError?
        while true {
            let (keepRunning, wantsPreview, wantsPhoto, current, stopRequested, discardRequested) = shared.withLock {
                ($0.running, $0.previewWanted && !$0.previewInFlight, !$0.photoWaiters.isEmpty, $0.recording, $0.stopRecordingRequested,
                 $0.discardRecordingRequested)
            }
            guard keepRunning else { break }
            if let current, discardRequested {
                discard(current)
                lastTick = -1
                continue
            }
            if let current, stopRequested {
                finish(current)
                lastTick = -1
                continue
            }
            let frame: CameraFrame
            do {
                frame = try camera.readFrame(picture: wantsPreview || (wantsPhoto && camera.isSettled), recordingInto: current)
            } catch {
                failure = error
                break
            }
            if let picture = frame.picture { hand(picture, photos: wantsPhoto && camera.isSettled) }
            guard let current else { continue }
            if let error = frame.recordingError {
                shared.withLock { $0.recording = nil }
                continuation.yield(.recordingFailed(error.description))
            } else if current.isFull {
                finish(current)
                lastTick = -1
            } else {
                let step = Int(current.duration.seconds / Self.tick)
                guard step != lastTick else { continue }
                lastTick = step
                let remaining = current.maxDuration.map { max(.zero, $0.subtracting(current.duration) ?? .zero) }
                continuation.yield(.recordingTick(recorded: current.duration, remaining: remaining))
            }
        }
        // Leaving: a recording still running is finished so its file stays playable (unless it
        // was to be thrown away).
        let (leftover, discarding, waiters) = shared.withLock {
            $0.running = false
            let state = ($0.recording, $0.discardRecordingRequested, $0.photoWaiters)
            $0.photoWaiters = []
            return state
        }
        if let leftover {
            if discarding {
                discard(leftover)
            } else if let failure, leftover.frameCount == 0 {
                // The camera gave no picture to record: say why, rather than what an empty
                // file is.
                shared.withLock { $0.recording = nil }
                leftover.discard()
                continuation.yield(.recordingFailed(failure.description))
            } else {
                finish(leftover)
            }
        }
        for waiter in waiters { waiter.resume(throwing: failure ?? closedError) }
        if let failure { continuation.yield(.cameraFailed(failure)) }
        continuation.finish()
    }

    /// Gives a picture to the photo waiters and, if it is still wanted, to the preview.
    private func hand(_ picture: PixelBuffer, photos: Bool) {
        let (waiters, toPreview) = shared.withLock {
            let waiters = photos ? $0.photoWaiters : []
            if photos { $0.photoWaiters = [] }
            let toPreview = $0.previewWanted && !$0.previewInFlight
            if toPreview { $0.previewInFlight = true }
            return (waiters, toPreview)
        }
        let now = Date()
        for waiter in waiters { waiter.resume(returning: (picture, now)) }
        if toPreview { continuation.yield(.preview(picture)) }
    }

    private func discard(_ dropped: CameraRecording) {
        shared.withLock {
            $0.recording = nil
            $0.discardRecordingRequested = false
        }
        dropped.discard()
        continuation.yield(.recordingDiscarded)
    }

    private func finish(_ finished: CameraRecording) {
        shared.withLock {
            $0.recording = nil
            $0.stopRecordingRequested = false
        }
        do {
            _ = try finished.finish()
            continuation.yield(.recordingFinished(finished.url))
        } catch {
            continuation.yield(.recordingFailed(error.description))
        }
    }
}
