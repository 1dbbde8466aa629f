import Foundation

/// A colour with transparency, each component a fraction from 0 to 1 (straight, not premultiplied).
///
/// Components are `Double` rather than bytes so that an animated colour passes through in-between
/// shades smoothly and drawing can blend exactly; `RGB` stays the byte type for pixels. Shared by
/// the animation engine and the Cairo canvas.
public struct RGBA: Sendable, Hashable, CustomStringConvertible {
    /// Red, 0…1.
    public var red: Double
    /// Green, 0…1.
    public var green: Double
    /// Blue, 0…1.
    public var blue: Double
    /// Opacity, 0 (transparent) … 1 (opaque).
    public var alpha: Double

    /// A colour from fractions; values outside 0…1 are kept so that a spring may overshoot, and
    /// clamped only when written as hex.
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// A colour whose components are clamped to 0…1 (non-finite ones count as 0), for
    /// settings that must stay a drawable colour.
    public init(clampingRed red: Double, green: Double, blue: Double, alpha: Double = 1) {
        func unit(_ v: Double) -> Double { v.isFinite ? min(max(v, 0), 1) : 0 }
        self.init(red: unit(red), green: unit(green), blue: unit(blue), alpha: unit(alpha))
    }

    /// An opaque colour from a pixel's bytes.
    public init(_ rgb: RGB, alpha: Double = 1) {
        self.init(red: Double(rgb.r) / 255, green: Double(rgb.g) / 255, blue: Double(rgb.b) / 255, alpha: alpha)
    }

    /// Reads `#rgb`, `#rrggbb` or `#rrggbbaa` (the `#` is optional); nil for anything else.
    public init?(hex: String) {
        var digits = Substring(hex)
        if digits.hasPrefix("#") { digits = digits.dropFirst() }
        guard digits.allSatisfy(\.isHexDigit) else { return nil }
        let values = digits.compactMap { $0.hexDigitValue }
        func byte(_ high: Int, _ low: Int) -> Double { Double(high * 16 + low) / 255 }
        switch values.count {
        case 3:
            self.init(red: byte(values[0], values[0]), green: byte(values[1], values[1]),
                      blue: byte(values[2], values[2]))
        case 6, 8:
            let alpha = values.count == 8 ? byte(values[6], values[7]) : 1
            self.init(red: byte(values[0], values[1]), green: byte(values[2], values[3]),
                      blue: byte(values[4], values[5]), alpha: alpha)
        default:
            return nil
        }
    }

    /// `#rrggbbaa` in lower case, each component clamped to 0…1 and rounded to the nearest byte.
    public var hex: String {
        func byte(_ value: Double) -> String {
            let clamped = value.isNaN ? 0 : min(max(value, 0), 1)
            let text = String(Int((clamped * 255).rounded()), radix: 16)
            return text.count == 1 ? "0" + text : text
        }
        return "#" + byte(red) + byte(green) + byte(blue) + byte(alpha)
    }

    /// The same as `hex`, for messages and test failures.
    public var description: String { hex }

    /// Fully transparent black: Core Animation's default background.
    public static let clear = RGBA(red: 0, green: 0, blue: 0, alpha: 0)
    /// Opaque black: Core Animation's default border and shadow colour.
    public static let black = RGBA(red: 0, green: 0, blue: 0)
    /// Opaque white.
    public static let white = RGBA(red: 1, green: 1, blue: 1)
    /// Opaque red.
    public static let red = RGBA(red: 1, green: 0, blue: 0)
    /// Opaque green.
    public static let green = RGBA(red: 0, green: 1, blue: 0)
    /// Opaque blue.
    public static let blue = RGBA(red: 0, green: 0, blue: 1)
}

extension RGBA {
    /// The same colour with its alpha multiplied by `factor`.
    public func fading(by factor: Double) -> RGBA {
        RGBA(red: red, green: green, blue: blue, alpha: alpha * factor)
    }
}
