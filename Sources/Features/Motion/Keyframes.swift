import Foundation
import ViewfinderCore

/// Several values a sprite passes through in turn, each reached at a fraction of the duration,
/// with its own timing curve on each stretch between two (Core Animation's keyframe animation).
public struct Keyframes<Value: Animatable>: Sendable {
    /// The values, first to last (at least one).
    public var values: [Value]
    /// When each value is reached, as ascending fractions 0…1 of a cycle, one per value; nil
    /// (or a list of the wrong length) spaces them evenly.
    public var times: [Double]?
    /// The curve for each stretch between two values (one fewer than values); nil or a missing
    /// entry means linear.
    public var curves: [TimingCurve]?

    /// Keyframes through `values`, optionally timed and curved per stretch.
    public init(_ values: [Value], times: [Double]? = nil, curves: [TimingCurve]? = nil) {
        self.values = values
        self.times = times
        self.curves = curves
    }

    /// The same keyframes with their values erased to `AnimatableValue`, checked and completed.
    var track: KeyframeTrack {
        KeyframeTrack(values: values.map(\.animatableValue), times: times, curves: curves)
    }
}

/// Keyframes ready to evaluate: times always present and ascending, one curve per stretch.
struct KeyframeTrack: Sendable, Hashable {
    let values: [AnimatableValue]
    let times: [Double]
    let curves: [TimingCurve]

    init(values: [AnimatableValue], times: [Double]?, curves: [TimingCurve]?) {
        self.values = values
        let count = values.count
        if let times, times.count == count, zip(times, times.dropFirst()).allSatisfy({ $0 <= $1 }) {
            self.times = times
        } else {
            self.times = (0..<count).map { count > 1 ? Double($0) / Double(count - 1) : 0 }
        }
        let stretches = max(count - 1, 0)
        self.curves = (0..<stretches).map { index in
            guard let curves, index < curves.count else { return .linear }
            return curves[index]
        }
    }

    /// The value at cycle progress `progress`; `duration` is the cycle's length in seconds, which
    /// a spring on a stretch needs.
    func value(at progress: Double, duration: Double) -> AnimatableValue? {
        guard let first = values.first else { return nil }
        if progress <= times[0] || values.count == 1 { return first }
        let last = values.count - 1
        if progress >= times[last] { return values[last] }
        // Binary search for the stretch holding `progress`: times[low] <= progress < times[low + 1].
        var low = 0, high = last
        while high - low > 1 {
            let middle = (low + high) / 2
            if times[middle] <= progress { low = middle } else { high = middle }
        }
        let span = times[low + 1] - times[low]
        let local = span > 0 ? (progress - times[low]) / span : 1
        let eased = curves[low].progress(at: local, duration: duration * span)
        return values[low].interpolated(to: values[low + 1], fraction: eased)
    }
}
