import Foundation
import ViewfinderCore

@testable import Motion

/// Whether two numbers agree within `tolerance`.
func isClose(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool {
    abs(a - b) <= tolerance
}

/// Whether two points agree within `tolerance` on both axes.
func isClose(_ a: Point, _ b: Point, _ tolerance: Double = 1e-9) -> Bool {
    isClose(a.x, b.x, tolerance) && isClose(a.y, b.y, tolerance)
}

/// A layer on a virtual clock at 0, so tests decide exactly when everything happens.
final class Rig {
    let clock = VirtualClock(startingAt: 0)
    let layer: Layer

    init(_ model: LayerState = LayerState(position: Point(x: 0, y: 0), bounds: Rect(x: 0, y: 0, width: 100, height: 100))) {
        layer = Layer(name: "subject", model: model)
        layer.clock = clock
    }

    /// Moves the clock to `t` and delivers stop events up to then.
    func run(to t: Double) {
        clock.advance(by: t - clock.now)
        layer.advance(to: t)
    }

    /// The layer's presentation at `t` after running to it.
    func state(at t: Double) -> LayerState {
        run(to: t)
        return layer.presentation(at: t)
    }
}

/// Records didStop calls in order.
final class StopLog {
    var entries: [String] = []

    func handler(_ label: String) -> (SpriteStop) -> Void {
        { [unowned self] stop in entries.append("\(label):\(stop)") }
    }
}
