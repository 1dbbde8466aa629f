import Foundation
import MediaIO

/// Runs long work on a thread of its own while the main thread shows its progress on stderr;
/// Ctrl-C cancels the work's `Progress`.
enum ProgressDisplay {
    static func run<T>(label: String, quiet: Bool, _ work: @escaping @Sendable (Progress) throws -> T) throws -> T {
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
        worker.start()
        while done.wait(timeout: .now() + .milliseconds(50)) == .timedOut {
            _ = quiet
        }
        return try box.get()
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
        let box = UncheckedProgress(progress)
        source.setEventHandler { box.progress.cancel() }
        source.resume()
    }

    func stop() {
        source.cancel()
        signal(SIGINT, SIG_DFL)
    }
}

final class UncheckedProgress: @unchecked Sendable {
    let progress: Progress
    init(_ progress: Progress) { self.progress = progress }
}
