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
    // TRANSLATORS: the unit of a rate ("2.5 s of video/s"): seconds of video made each second.
    static let videoSeconds = HUDRateUnit(label: tr("s of video"), unitsPerLabel: 1000)

    /// Runs `work` under the HUD; `details`, if given, is polled for the HUD's details line.
    /// `label` and the details are in the user's language.
    static func run<T: Sendable>(label: String, quiet: Bool, unit: HUDRateUnit = videoSeconds,
                                 details: (@Sendable () -> String)? = nil,
                                 _ work: @escaping @Sendable (Progress) throws -> T) throws -> T {
        let progress = Progress(totalUnitCount: 1)
        // Written by the worker before it signals `done`, read here after the wait: the
        // semaphore orders the two.
        let box = Lent<Result<T, Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let worker = Thread {
            box.value = Result { try work(progress) }
            done.signal()
        }
        worker.stackSize = 8 << 20
        return try MainActor.assumeIsolated {
            try show(label: label, quiet: quiet, unit: unit, details: details, progress: progress, termination: true) {
                worker.start()
                while done.wait(timeout: .now() + .milliseconds(50)) == .timedOut { $0() }
                return box.value
            }
        }
    }

    /// Runs main-actor `work` (a camera session, say) under the HUD: the main thread turns its
    /// run loop, where main-actor tasks run, and redraws between turns. Ctrl-C cancels the
    /// work's task as well as its `Progress`. SIGTERM and SIGHUP are left to the caller (a
    /// recording throws itself away on them).
    @MainActor
    static func runOnMainActor<T>(label: String, quiet: Bool, unit: HUDRateUnit = videoSeconds,
                                  _ work: @escaping @MainActor (Progress) async throws -> T) throws -> T {
        let progress = Progress(totalUnitCount: 1)
        return try show(label: label, quiet: quiet, unit: unit, details: nil, progress: progress,
                        termination: false) { redraw in
            Result { try MainRunLoop.await(cancelling: progress, everyTurn: redraw) { try await work(progress) } }
        }
    }

    /// The HUD on stderr around `body`, which runs the work and calls the redraw it is given
    /// about every 50 ms until it returns the work's result. With `termination`, SIGTERM and
    /// SIGHUP cancel the work as Ctrl-C does, so its unfinished output is removed too.
    @MainActor
    private static func show<T>(label: String, quiet: Bool, unit: HUDRateUnit, details: (@Sendable () -> String)?,
                                progress: Progress, termination: Bool,
                                _ body: (() -> Void) throws -> Result<T, Error>?) throws -> T {
        let interrupt = CancelOnInterrupt(progress, termination: termination)
        defer { interrupt.stop() }
        let terminal = isatty(STDERR_FILENO) != 0
        let hud = ProgressHUD(clock: SystemClock(), mode: .determinateHorizontalBar, label: label)
        hud.graceTime = 0.25  // quick work finishes without a HUD flashing up
        hud.follow(progress, mode: .determinateHorizontalBar, cancelTitle: "Ctrl-C")
        let sink = HUDTerminalSink(renderer: HUDTerminalRenderer(hud: hud, isTerminal: terminal, quiet: quiet, unit: unit))
        do {
            let outcome = try body {
                if let details { hud.detailsLabel = details() }
                sink.refresh()
            }
            guard let outcome else { throw RuntimeError(tr("the work ended without a result")) }
            let value = try outcome.get()
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

/// Main-actor async work awaited from the synchronous command line.
enum MainRunLoop {
    /// Starts `work` as a main-actor task and turns the main run loop (where that task runs)
    /// until it ends, calling `everyTurn` about every 50 ms; cancelling `progress` cancels the
    /// task. Returns what the work returns, or throws what it throws.
    @MainActor
    static func await<T>(cancelling progress: Progress? = nil, everyTurn: () -> Void = {},
                         _ work: @escaping @MainActor () async throws -> T) throws -> T {
        var outcome: Result<T, Error>?
        let task = Task { @MainActor in
            do {
                outcome = .success(try await work())
            } catch {
                outcome = .failure(error)
            }
        }
        if let progress {
            progress.cancellationHandler = { task.cancel() }
            if progress.isCancelled { task.cancel() }
        }
        while true {
            if let outcome { return try outcome.get() }
            _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 0.05))
            everyTurn()
        }
    }
}

/// Turns SIGINT (and with `termination`, SIGTERM and SIGHUP) into `Progress.cancel()` while
/// installed, remembering which came (`StopSignal`); the default handlers come back after.
final class CancelOnInterrupt: @unchecked Sendable {
    private let watches: [OnSignal]

    init(_ progress: Progress, termination: Bool) {
        let box = Lent(progress)
        watches = ([SIGINT] + (termination ? [SIGTERM, SIGHUP] : [])).map { number in
            OnSignal(number) {
                StopSignal.record(number)
                box.value.cancel()
            }
        }
    }

    func stop() { watches.forEach { $0.stop() } }
}

/// The signal that cancelled the work, for the exit status (128 + its number, as a shell
/// reports a process killed by it).
enum StopSignal {
    private static let received = Locked<Int32?>(nil)

    static func record(_ number: Int32) {
        received.withLock { if $0 == nil { $0 = number } }
    }

    /// 130 after Ctrl-C (or when no signal came: a cancel from elsewhere), 143 after SIGTERM,
    /// 129 after SIGHUP.
    static var exitStatus: Int32 { 128 + (received.value ?? SIGINT) }
}

/// Runs `handler` (on a background queue) when the process gets `signal`, instead of the
/// default action, until `stop()`.
final class OnSignal: @unchecked Sendable {
    private let source: DispatchSourceSignal
    private let number: Int32

    init(_ number: Int32, _ handler: @escaping @Sendable () -> Void) {
        self.number = number
        signal(number, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: number, queue: .global())
        source.setEventHandler(handler: handler)
        source.resume()
    }

    func stop() {
        source.cancel()
        signal(number, SIG_DFL)
    }
}
