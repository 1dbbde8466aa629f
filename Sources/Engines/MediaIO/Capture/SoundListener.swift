import Foundation
import ViewfinderCore

/// Reads a microphone on a thread of its own (a read waits for sound, which the camera's
/// thread must not) and keeps what it heard until the recording takes it.
public final class SoundListener: @unchecked Sendable {
    private let microphone: Microphone
    /// What the listening thread and its callers share.
    private struct Shared {
        var heard: [HeardSound] = []
        var running = true
        var failure: MediaIOError?
        /// Seconds of sound heard since the start.
        var heardSeconds = 0.0
    }
    private let shared = Locked(Shared())
    private let done = DispatchSemaphore(value: 0)
    private var started = false

    /// Signalled when the first block is heard or the microphone failed first.
    private let firstHeard = DispatchSemaphore(value: 0)
    /// Broadcast when more is heard or the thread ends (for `waitUntilHeard`).
    private let heardMore = NSCondition()

    /// Listens to `microphone` once `start(firstWithin:)` is called.
    public init(_ microphone: Microphone) {
        self.microphone = microphone
    }

    /// Starts the thread and waits for its first block of sound, at most `seconds`: the block
    /// (kept for the recording too), or why there is none. A microphone that sends nothing
    /// leaves the thread waiting in its read (a sound server's read cannot be interrupted); it
    /// ends there once told to stop, and holds the microphone until then.
    public func start(firstWithin seconds: TimeInterval) throws(MediaIOError) -> HeardSound {
        started = true
        let thread = Thread { [self] in listen() }
        thread.name = "viewfinder-microphone"
        thread.start()
        guard firstHeard.wait(timeout: .now() + seconds) == .success else {
            throw .deviceUnavailable(device: microphone.device.id,
                                     reason: tr("it sent no sound within {seconds} s; use --microphone none to record without sound",
                                                ["seconds": Int(seconds)]))
        }
        let (first, failure) = shared.withLock { ($0.heard.first, $0.failure) }
        if let first { return first }
        throw failure ?? .deviceUnavailable(device: microphone.device.id, reason: tr("it gives no sound"))
    }

    private func listen() {
        defer {
            done.signal()
            tellHeard()
        }
        var first = true
        while shared.withLock({ $0.running }) {
            do {
                let sound = try microphone.read()
                shared.withLock {
                    $0.heard.append(sound)
                    $0.heardSeconds += Double(sound.sampleCount) / Double(sound.sampleRate)
                }
                tellHeard()
            } catch {
                shared.withLock { $0.failure = error }
                if first { firstHeard.signal() }
                return
            }
            if first {
                first = false
                firstHeard.signal()
            }
        }
    }

    /// What was heard since the last call, in order.
    public func take() -> [HeardSound] {
        shared.withLock {
            let taken = $0.heard
            $0.heard = []
            return taken
        }
    }

    /// Waits until `seconds` of sound have been heard since the start (the sound's own length,
    /// whatever was taken meanwhile); false when the microphone stopped or failed first, or at
    /// `deadline`.
    public func waitUntilHeard(_ seconds: TimeInterval, before deadline: Date) -> Bool {
        heardMore.lock()
        defer { heardMore.unlock() }
        while true {
            let (enough, listening) = shared.withLock { ($0.heardSeconds >= seconds, $0.running && $0.failure == nil) }
            if enough { return true }
            guard listening, heardMore.wait(until: deadline) else { return false }
        }
    }

    private func tellHeard() {
        heardMore.lock()
        heardMore.broadcast()
        heardMore.unlock()
    }

    /// Asks the thread to end after the block being read.
    public func stop() {
        shared.withLock { $0.running = false }
    }

    /// Ends the thread and waits for it (one block of sound, at most `seconds`); returns why
    /// the microphone failed while recording, if it did. A microphone that stopped sending
    /// leaves its thread waiting in a read that cannot be interrupted: that is a failure (the
    /// sound heard so far is kept), never a wait for ever.
    public func stopAndWait(within seconds: TimeInterval) -> MediaIOError? {
        stop()
        if started, done.wait(timeout: .now() + seconds) == .timedOut {
            started = false
            // Worded as a microphone that stops while read is (the catalogues have it).
            return shared.withLock { $0.failure } ?? .deviceUnavailable(device: microphone.device.id,
                                                            reason: tr("the microphone stopped: {reason}", ["reason": tr("it gives nothing")]))
        }
        started = false
        return shared.withLock { $0.failure }
    }
}
