import Foundation

/// A monotonic source of time in seconds, injected wherever behaviour depends on time so that
/// tests run on virtual time instead of sleeping. (Not called `Clock`: the standard library's
/// `Clock` protocol owns that name.)
public protocol ClockSource: Sendable {
    /// Seconds since an arbitrary fixed origin; never goes backwards.
    var now: TimeInterval { get }
}

/// The machine's monotonic clock (uptime).
public struct SystemClock: ClockSource {
    public init() {}
    public var now: TimeInterval { ProcessInfo.processInfo.systemUptime }
}

/// A clock that moves only when told to: for tests and offline rendering.
public final class VirtualClock: ClockSource, Sendable {
    private let current: Locked<TimeInterval>

    public init(startingAt start: TimeInterval = 0) {
        current = Locked(start)
    }

    public var now: TimeInterval { current.value }

    /// Moves time forward by `seconds` (negative values are ignored: time never goes back).
    public func advance(by seconds: TimeInterval) {
        current.withLock { if seconds > 0 { $0 += seconds } }
    }
}
