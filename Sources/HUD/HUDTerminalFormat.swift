import Foundation

/// What the work is counted in, for the rate the terminal shows (e.g. "30.0 frames/s").
public struct HUDRateUnit: Sendable, Hashable {
    /// The name shown before "/s", e.g. "frames" or "MB".
    public var label: String
    /// How many of the progress object's units make one shown unit (1 000 000 bytes per MB).
    public var unitsPerLabel: Double

    /// A unit; a non-positive `unitsPerLabel` counts as 1.
    public init(label: String, unitsPerLabel: Double = 1) {
        self.label = label
        self.unitsPerLabel = unitsPerLabel.isFinite && unitsPerLabel > 0 ? unitsPerLabel : 1
    }

    /// Plain counts.
    public static let items = HUDRateUnit(label: "items")
    /// Video frames.
    public static let frames = HUDRateUnit(label: "frames")
    /// Bytes shown as megabytes (10⁶ bytes, as file sizes are quoted).
    public static let megabytes = HUDRateUnit(label: "MB", unitsPerLabel: 1_000_000)
}

/// The pieces of a terminal HUD line, as plain text. Kept apart from the renderer so each rule
/// (rounding, padding, glyph choice) can be checked on its own.
enum HUDTerminalFormat {
    /// The spinner's frames; it turns at 10 frames a second.
    static let spinnerFrames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
    /// A pie filling in quarters.
    static let pieGlyphs = ["○", "◔", "◑", "◕", "●"]

    /// Absorbs the last bit of binary rounding (0.3 × 10 is 2.9999…) before rounding down.
    private static let slack = 1e-9

    /// The spinner frame `elapsed` seconds after the start.
    static func spinner(elapsed: TimeInterval) -> String {
        let step = Int((max(0, elapsed) * 10 + slack).rounded(.down))
        return spinnerFrames[step % spinnerFrames.count]
    }

    /// The pie for `fraction`: full only when the work is done, so a nearly-done task never
    /// looks finished.
    static func pie(_ fraction: Double) -> String {
        let f = clamped(fraction)
        if f >= 1 { return pieGlyphs[4] }
        return pieGlyphs[min(3, Int((f * 4 + slack).rounded(.down)))]
    }

    /// A bar of `width` cells between brackets, filled in whole cells, rounding down.
    static func bar(_ fraction: Double, width: Int) -> String {
        let cells = max(1, width)
        let filled = min(cells, Int((clamped(fraction) * Double(cells) + slack).rounded(.down)))
        return "[" + String(repeating: "█", count: filled) + String(repeating: "░", count: cells - filled) + "]"
    }

    /// The percentage, rounded down (99.6% is not done) and right-aligned in four columns.
    static func percent(_ fraction: Double) -> String {
        let value = Int((clamped(fraction) * 100 + slack).rounded(.down))
        let text = "\(value)%"
        return String(repeating: " ", count: max(0, 4 - text.count)) + text
    }

    /// "30.0 frames/s": units per second in the unit's label, one decimal.
    static func rate(_ unitsPerSecond: Double, unit: HUDRateUnit) -> String {
        String(format: "%.1f", unitsPerSecond / unit.unitsPerLabel) + " \(unit.label)/s"
    }

    /// "ETA 0:06" or "ETA 1:02:03", to the nearest second.
    static func eta(_ seconds: TimeInterval) -> String {
        let total = Int(max(0, seconds).rounded())
        let (h, m, s) = (total / 3600, total / 60 % 60, total % 60)
        let clock = h > 0 ? String(format: "%d:%02d:%02d", h, m, s) : String(format: "%d:%02d", m, s)
        return "ETA " + clock
    }

    /// "3.2 s" under a minute, "2 min 5 s" from there on.
    static func duration(_ seconds: TimeInterval) -> String {
        let value = max(0, seconds.isFinite ? seconds : 0)
        if value < 59.95 { return String(format: "%.1f s", value) }
        let total = Int(value.rounded())
        return "\(total / 60) min \(total % 60) s"
    }

    /// Text squeezed onto one line: line breaks become "; ", blank lines and edge spaces go.
    static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
            .joined(separator: "; ")
    }

    private static func clamped(_ fraction: Double) -> Double {
        fraction.isNaN ? 0 : min(max(fraction, 0), 1)
    }
}
