import Foundation
import HUD
import MediaIO
import ViewfinderCore

#if canImport(Glibc)
import Glibc
#endif

/// Runs long work on a thread of its own while the main thread draws the HUD on stderr; Ctrl-C
/// is the HUD's Cancel button (it cancels the work's `Progress`).
enum ProgressDisplay {
    /// What the progress counts, for the rate shown.
    static let videoSeconds = HUDRateUnit(label: "s of video", unitsPerLabel: 1000)

    /// Runs `work` under the HUD; `details`, if given, is polled for the HUD's details line.
    static func run<T: Sendable>(label: String, quiet: Bool, unit: HUDRateUnit = videoSeconds,
                                 details: (@Sendable () -> String)? = nil,
                                 _ work: @escaping @Sendable (Progress) throws -> T) throws -> T {
        let progress = Progress(totalUnitCount: 1)
        let box = WorkBox<T>()
        let done = DispatchSemaphore(value: 0)
        let interrupt = CancelOnInterrupt(progress)
        defer { interrupt.stop() }
        let worker = Thread {
            box.set(Result { try work(progress) })
            done.signal()
        }
        worker.stackSize = 8 << 20

        let terminal = isatty(STDERR_FILENO) != 0
        return try MainActor.assumeIsolated {
            let hud = ProgressHUD(clock: SystemClock(), mode: .determinateHorizontalBar, label: label)
            hud.graceTime = 0.25  // quick work finishes without a HUD flashing up
            hud.follow(progress, mode: .determinateHorizontalBar, cancelTitle: "Ctrl-C")
            let sink = HUDTerminalSink(renderer: HUDTerminalRenderer(hud: hud, isTerminal: terminal, quiet: quiet, unit: unit))
            worker.start()
            while done.wait(timeout: .now() + .milliseconds(50)) == .timedOut {
                if let details { hud.detailsLabel = details() }
                sink.refresh()
            }
            do {
                let value = try box.get()
                hud.hide(animated: false)
                sink.finish(.done)
                return value
            } catch {
                // The error itself is the one line the tool prints; just clear the live line.
                if terminal && !quiet { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
                throw error
            }
        }
    }
}

/// The worker's result, handed from its thread to the main thread.
final class WorkBox<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<T, Error>?
    func set(_ value: Result<T, Error>) { lock.lock(); result = value; lock.unlock() }
    func get() throws -> T {
        lock.lock()
        defer { lock.unlock() }
        guard let result else { throw RuntimeError("the work ended without a result") }
        return try result.get()
    }
}

/// Turns SIGINT into `Progress.cancel()` while installed; the default handler comes back after.
final class CancelOnInterrupt: @unchecked Sendable {
    private let source: DispatchSourceSignal

    init(_ progress: Progress) {
        signal(SIGINT, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        let box = Lent(progress)
        source.setEventHandler { box.value.cancel() }
        source.resume()
    }

    func stop() {
        source.cancel()
        signal(SIGINT, SIG_DFL)
    }
}
