import Foundation

/// Runs blocking work (a decode, an import's lanes, a subprocess wait) on a thread of its own
/// and awaits it without holding a thread of Swift's cooperative pool — there are only as many
/// of those as cores, and a pool thread blocked for seconds starves every other task.
public enum BlockingWork {
    /// Runs `work` on a new thread named `name` and returns its result. When the awaiting task
    /// is cancelled, `progress` (if given) is cancelled, which is how the work learns to stop.
    public static func run<T: Sendable>(named name: String, cancelling progress: Lent<Progress>? = nil,
                                        _ work: @escaping @Sendable () -> T) async -> T {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<T, Never>) in
                let worker = Thread { continuation.resume(returning: work()) }
                worker.name = name
                worker.start()
            }
        } onCancel: {
            progress?.value.cancel()
        }
    }
}
