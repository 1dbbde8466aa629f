internal import CGtk
import Foundation
import ViewfinderCore

/// GLib's monotonic clock, the time base of GTK's frame clock: a `ClockSource` whose `now`
/// matches the frame times tick callbacks receive, so the HUD and Motion run on frame time.
public struct FrameClock: ClockSource {
    /// The clock (it has no state).
    public init() {}

    /// Seconds on the monotonic clock.
    public var now: TimeInterval { Double(g_get_monotonic_time()) / 1_000_000 }
}
