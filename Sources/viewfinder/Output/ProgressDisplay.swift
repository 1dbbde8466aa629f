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
        // Written by the worker before it signals `done`, read here after the wait: the
        // semaphore orders the two.
        let box = Lent<Result<T, Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let interrupt = CancelOnInterrupt(progress)
        defer { interrupt.stop() }
        let worker = Thread {
            box.value = Result { try work(progress) }
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
                guard let result = box.value else { throw RuntimeError("the work ended without a result") }
                let value = try result.get()
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
