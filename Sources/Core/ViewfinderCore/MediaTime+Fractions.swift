import Foundation

// The maths behind strips and sliders, shared by every screen that lays frames or handles across
// a video (the cover chooser's slider, the trim screen's handles). It lives in the core because
// features may not import each other.
extension MediaTime {
    /// `count` times at even steps from zero across `self`: `i · self / count` for
    /// i = 0 ..< count, exactly (no timescale-dependent division as in the original).
    public func evenSteps(_ count: Int) -> [MediaTime] {
        guard count > 0 else { return [] }
        return (0..<count).map { scaled(by: Int64($0), over: Int64(count)) ?? .zero }
    }

    /// The time a fraction of `self` stands for: 0 is zero, 1 is `self`. The fraction is clamped
    /// to 0...1 (non-finite values count as 0) and rounded to a millionth, so the result stays an
    /// exact rational time.
    public func fraction(_ value: Double) -> MediaTime {
        let clamped = value.isFinite ? min(max(value, 0), 1) : 0
        let millionths = Int64((clamped * 1_000_000).rounded())
        return scaled(by: millionths, over: 1_000_000) ?? .zero
    }

    /// How far along `whole` this time lies, as a fraction for a slider (0 when `whole` is zero).
    /// For display only: times themselves never go through `Double`.
    public func fraction(of whole: MediaTime) -> Double {
        guard whole > .zero else { return 0 }
        return min(max(seconds / whole.seconds, 0), 1)
    }
}
