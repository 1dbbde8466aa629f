import Foundation

/// Lends a value that is not `Sendable` to other threads (a worker, a signal handler, the
/// lanes of `concurrentPerform`) — the project's one unchecked-`Sendable` box.
///
/// The caller promises what the compiler cannot check: while another thread uses the value,
/// nobody else does (a reader or camera handed to a worker), every thread touches its own part
/// (result slots one lane each), accesses are ordered by a semaphore or a lock, or the value is
/// thread-safe in itself but not marked so on Linux (`Foundation.Progress`).
public final class Lent<Value>: @unchecked Sendable {
    /// The value lent.
    public var value: Value

    /// Lends `value`.
    public init(_ value: Value) {
        self.value = value
    }
}
