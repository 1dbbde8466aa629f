import Foundation
import ViewfinderCore

/// How many times a sprite plays: a count (fractions allowed: 2.5 stops half-way through the
/// third cycle) or for ever.
public struct Repetition: Sendable, Hashable, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, CustomStringConvertible {
    /// Cycles to play; `.infinity` for ever.
    public let count: Double

    /// `count` cycles. 0 plays once, as in Core Animation; a negative count means for ever, as in
    /// the original library; NaN plays once.
    public init(_ count: Double) {
        if count.isNaN || count == 0 {
            self.count = 1
        } else {
            self.count = count < 0 ? .infinity : count
        }
    }

    /// A whole number of cycles.
    public init(integerLiteral value: Int) {
        self.init(Double(value))
    }

    /// A possibly fractional number of cycles.
    public init(floatLiteral value: Double) {
        self.init(value)
    }

    /// One cycle (the default).
    public static let once = Repetition(1)
    /// Never ends (and so never calls didStop unless stopped, and never starts its `then`).
    public static let forever = Repetition(.infinity)

    /// Whether it never ends.
    public var isForever: Bool { count.isInfinite }

    /// "forever" or the count.
    public var description: String { isForever ? "forever" : "\(count)" }
}

/// When a sprite runs and how its progress follows time, with Core Animation's media-timing
/// rules: nothing before `begin`; cycles of `duration` (doubled when autoreversing) repeated
/// `repetition.count` times; after the end, nothing unless held (`keepsAlive`).
public struct SpriteTiming: Sendable, Hashable {
    /// The absolute time (seconds on the layer tree's clock) the first cycle starts.
    public var begin: Double
    /// Seconds of one forward pass (≥ 0).
    public var duration: Double
    /// How many cycles.
    public var repetition: Repetition
    /// Whether each cycle plays forwards and then backwards.
    public var autoreverses: Bool
    /// How progress follows time within a pass.
    public var curve: TimingCurve
    /// Whether the end state stays on after the sprite finishes.
    public var keepsAlive: Bool

    /// Timing from its parts; negative or non-finite durations become 0 (an instant change).
    public init(begin: Double, duration: Double, repetition: Repetition = .once, autoreverses: Bool = false,
                curve: TimingCurve = .linear, keepsAlive: Bool = false) {
        self.begin = begin
        self.duration = duration.isFinite && duration > 0 ? duration : 0
        self.repetition = repetition
        self.autoreverses = autoreverses
        self.curve = curve
        self.keepsAlive = keepsAlive
    }

    /// Seconds from `begin` to the end: duration × (2 if autoreversing) × count.
    public var activeDuration: Double {
        if repetition.isForever { return .infinity }
        return duration * (autoreverses ? 2 : 1) * repetition.count
    }

    /// When the sprite finishes (infinite for ever).
    public var end: Double { begin + activeDuration }

    /// The fraction of a forward pass (before the curve) at time `t`, or nil when the sprite
    /// shows nothing then: before it begins, or after it ends unless held. At exactly the end it
    /// shows its end state even when not held, so a following sprite starts from that state.
    public func phase(at t: Double) -> Double? {
        if t < begin || t.isNaN { return nil }
        let elapsed = t - begin
        let active = activeDuration
        if elapsed >= active {
            return elapsed == active || keepsAlive ? endPhase : nil
        }
        let cycle = autoreverses ? 2 * duration : duration
        let local = elapsed.truncatingRemainder(dividingBy: cycle)
        if autoreverses && local > duration { return (cycle - local) / duration }
        return local / duration
    }

    /// The phase the sprite ends on, computed from the count rather than by running the clock
    /// to the end, so boundaries are exact: 1 after whole forward cycles, 0 after whole
    /// autoreversed ones, and the fraction reached for fractional counts.
    public var endPhase: Double {
        if duration == 0 || repetition.isForever { return autoreverses ? 0 : 1 }
        let passes = repetition.count * (autoreverses ? 2 : 1)
        let whole = passes.rounded(.down)
        let fraction = passes - whole
        // With autoreverse, even passes run forwards and odd ones backwards.
        let oddWhole = autoreverses && whole.truncatingRemainder(dividingBy: 2) == 1
        if fraction == 0 { return autoreverses ? (oddWhole ? 1 : 0) : 1 }
        return oddWhole ? 1 - fraction : fraction
    }

    /// How many whole cycles (forwards, and back when autoreversing) have ended before the one
    /// shown at `t`: 0 during the first, and at the end the cycle the sprite ends in.
    public func completedCycles(at t: Double) -> Int {
        let cycle = duration * (autoreverses ? 2 : 1)
        guard cycle > 0, t > begin else { return 0 }
        var count = ((t - begin) / cycle).rounded(.down)
        if !repetition.isForever { count = min(count, repetition.count.rounded(.up) - 1) }
        return count.isFinite ? Int(min(count, Double(Int32.max))) : 0
    }

    /// Progress after the curve at time `t`, or nil when the sprite shows nothing then.
    public func progress(at t: Double) -> Double? {
        guard let phase = phase(at: t) else { return nil }
        return curve.progress(at: phase, duration: duration)
    }
}
