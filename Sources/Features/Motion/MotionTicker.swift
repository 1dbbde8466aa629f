import Foundation
import ViewfinderCore

/// Drives a layer tree from a clock for live use: each `tick()` (from a display's frame
/// callback) delivers due stop events and returns the time to draw. A `VirtualClock` makes it
/// step exactly in tests and offline rendering.
public final class MotionTicker {
    /// The tree it drives.
    public let root: Layer
    /// Where time comes from; also the tree's clock for activation times.
    public let clock: any ClockSource

    /// A ticker for `root`, making `clock` the tree's clock.
    public init(root: Layer, clock: any ClockSource = SystemClock()) {
        self.root = root
        self.clock = clock
        root.clock = clock
    }

    /// Advances the tree to the clock's time (delivering stop events) and returns that time.
    @discardableResult
    public func tick() -> Double {
        let now = clock.now
        root.advance(to: now)
        return now
    }

    /// Ticks and returns the whole tree's presentation, for a renderer.
    public func frame() -> PresentedLayer {
        root.presentationTree(at: tick())
    }
}
