import Foundation

/// An exact point or span of media time: `value / timescale` seconds, like CMTime.
///
/// The engine never rounds a time through `Double`: `2.002` parsed from the command line is
/// 2002/1000 s, and a frame's time is its timestamp in the stream's own time base.
public struct MediaTime: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// Numerator, in units of `1 / timescale` seconds.
    public let value: Int64
    /// Units per second; always positive.
    public let timescale: Int64

    /// Zero seconds.
    public static let zero = MediaTime(value: 0, timescale: 1)

    /// A time of `value / timescale` seconds, reduced to lowest terms.
    /// A non-positive timescale is a programming error upstream; it is treated as 1.
    public init(value: Int64, timescale: Int64) {
        var v = value
        var s = timescale > 0 ? timescale : 1
        let g = MediaTime.gcd(v.magnitude, UInt64(s))
        if g > 1 {
            v /= Int64(g)
            s /= Int64(g)
        }
        self.value = v
        self.timescale = s
    }

    /// Whole seconds.
    public init(seconds: Int64) {
        self.init(value: seconds, timescale: 1)
    }

    /// The time in seconds as a `Double`, for display and JSON only.
    public var seconds: Double { Double(value) / Double(timescale) }

    /// The largest tick count `n` with `n / ticksPerSecond ≤ self` (floor), or nil on overflow.
    public func ticks(atRate ticksPerSecond: MediaTime) -> Int64? {
        // self / (1 / rate) = self * rate = (value * rate.value) / (timescale * rate.timescale)
        let numerator = Int128(value) * Int128(ticksPerSecond.value)
        let denominator = Int128(timescale) * Int128(ticksPerSecond.timescale)
        guard denominator != 0 else { return nil }
        return Int64(exactly: MediaTime.floorDivide(numerator, denominator))
    }

    /// `ticks` units of a time base of `numerator / denominator` seconds per tick.
    public static func ticks(_ ticks: Int64, timeBase numerator: Int64, _ denominator: Int64) -> MediaTime? {
        let product = Int128(ticks) * Int128(numerator)
        guard denominator > 0, let exact = Int64(exactly: product) else { return nil }
        return MediaTime(value: exact, timescale: denominator)
    }

    public static func < (lhs: MediaTime, rhs: MediaTime) -> Bool {
        Int128(lhs.value) * Int128(rhs.timescale) < Int128(rhs.value) * Int128(lhs.timescale)
    }

    public static func == (lhs: MediaTime, rhs: MediaTime) -> Bool {
        lhs.value == rhs.value && lhs.timescale == rhs.timescale
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(value)
        hasher.combine(timescale)
    }

    /// Exact sum; nil when it does not fit in 64 bits.
    public func adding(_ other: MediaTime) -> MediaTime? {
        MediaTime.make(
            Int128(value) * Int128(other.timescale) + Int128(other.value) * Int128(timescale),
            Int128(timescale) * Int128(other.timescale))
    }

    /// Exact difference; nil when it does not fit in 64 bits.
    public func subtracting(_ other: MediaTime) -> MediaTime? {
        MediaTime.make(
            Int128(value) * Int128(other.timescale) - Int128(other.value) * Int128(timescale),
            Int128(timescale) * Int128(other.timescale))
    }

    /// Exact `self * numerator / denominator`; nil when it does not fit or the denominator is 0.
    public func scaled(by numerator: Int64, over denominator: Int64) -> MediaTime? {
        guard denominator != 0 else { return nil }
        let sign: Int128 = denominator < 0 ? -1 : 1
        return MediaTime.make(
            Int128(value) * Int128(numerator) * sign,
            Int128(timescale) * Int128(denominator) * sign)
    }

    /// "2.5", "0.033367" (up to six decimals, trailing zeros dropped).
    public var decimalString: String {
        let micro = MediaTime.floorDivide(Int128(value) * 1_000_000 + Int128(timescale) / 2, Int128(timescale))
        let negative = micro < 0
        let magnitude = negative ? -micro : micro
        var fraction = String(Int(magnitude % 1_000_000))
        fraction = String(repeating: "0", count: 6 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        let whole = "\(negative ? "-" : "")\(magnitude / 1_000_000)"
        return fraction.isEmpty ? whole : "\(whole).\(fraction)"
    }

    /// "2002/1000" style exact form, reduced.
    public var rationalString: String { "\(value)/\(timescale)" }

    public var description: String { "\(decimalString) s" }

    // MARK: - Arithmetic helpers

    static func make(_ numerator: Int128, _ denominator: Int128) -> MediaTime? {
        guard denominator > 0 else { return nil }
        let g = gcd128(numerator.magnitude, denominator.magnitude)
        let n = g > 1 ? numerator / Int128(g) : numerator
        let d = g > 1 ? denominator / Int128(g) : denominator
        guard let v = Int64(exactly: n), let s = Int64(exactly: d) else { return nil }
        return MediaTime(value: v, timescale: s)
    }

    static func floorDivide(_ a: Int128, _ b: Int128) -> Int128 {
        let q = a / b
        return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q
    }

    static func gcd(_ a: UInt64, _ b: UInt64) -> UInt64 {
        var (x, y) = (a, b)
        while y != 0 { (x, y) = (y, x % y) }
        return x
    }

    static func gcd128(_ a: UInt128, _ b: UInt128) -> UInt128 {
        var (x, y) = (a, b)
        while y != 0 { (x, y) = (y, x % y) }
        return x
    }
}
