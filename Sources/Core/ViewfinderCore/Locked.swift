import Foundation

/// A value bound to the lock that guards it: every access goes through the lock, so no code can
/// touch the value without it (what `Synchronization.Mutex` gives from macOS 15 on; this one
/// also builds for macOS 14).
public final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    /// Guards `value`.
    public init(_ value: Value) {
        stored = value
    }

    /// A copy of the value, read under the lock.
    public var value: Value {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }

    /// Runs `body` on the value under the lock and returns what it returns.
    @discardableResult
    public func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&stored)
    }
}
