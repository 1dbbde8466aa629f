import Foundation

/// Lends a value that is not `Sendable` to one other thread (a worker, a signal handler).
///
/// The caller promises what the compiler cannot check: while the other thread uses the value,
/// nobody else does (a reader or camera handed to a worker), or the value is thread-safe in
/// itself but not marked so on Linux (`Foundation.Progress`).
public final class Lent<Value>: @unchecked Sendable {
    public let value: Value

    public init(_ value: Value) {
        self.value = value
    }
}
