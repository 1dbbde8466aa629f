import Foundation

/// Waits for something another process does, by looking again and again until a deadline.
///
/// The one place the tests sleep. Code in this process is awaited through its events (a
/// continuation, a seam, a virtual clock: the design's "no sleep in tests"), but a program the
/// test started, a display server or a session bus tells this process nothing when it is
/// ready: its files, its pipes' silence and its answers to a fresh query can only be looked at.
/// Where another process does give an event (its exit, a file it writes, through inotify), wait
/// for that instead. A deadline stays a deadline: no pause runs past it, and the last look comes
/// as it is reached.
public enum Poll {
    /// Looks at `value` every `interval` seconds until it gives something, and returns that;
    /// nil when it still gives nothing at `deadline`.
    public static func value<T>(deadline: Date, every interval: TimeInterval = 0.02,
                                _ value: () throws -> T?) rethrows -> T? {
        while true {
            if let found = try value() { return found }
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return nil }
            Thread.sleep(forTimeInterval: min(interval, left))
        }
    }

    /// Looks at `condition` every `interval` seconds until it holds (true) or `deadline`
    /// passes (false).
    @discardableResult
    public static func until(deadline: Date, every interval: TimeInterval = 0.02,
                             _ condition: () throws -> Bool) rethrows -> Bool {
        try value(deadline: deadline, every: interval) { try condition() ? true : nil } ?? false
    }

    /// `until(deadline:)` with a deadline `seconds` from now.
    @discardableResult
    public static func until(within seconds: TimeInterval, every interval: TimeInterval = 0.02,
                             _ condition: () throws -> Bool) rethrows -> Bool {
        try until(deadline: Date().addingTimeInterval(seconds), every: interval, condition)
    }
}
