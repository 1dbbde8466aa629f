import Foundation
import ViewfinderCore

/// What the work is counted in, for the rate the terminal shows (e.g. "30.0 frames/s").
public struct HUDRateUnit: Sendable, Hashable {
    /// The name shown before "/s", e.g. "frames" or "MB", in English: the line shows its
    /// translation (`tr(label)`), so a label marked with `N_` is shown in the user's language.
    public var label: String
    /// How many of the progress object's units make one shown unit (1 000 000 bytes per MB).
    public var unitsPerLabel: Double

    /// A unit; a non-positive `unitsPerLabel` counts as 1.
    public init(label: String, unitsPerLabel: Double = 1) {
        self.label = label
        self.unitsPerLabel = unitsPerLabel.isFinite && unitsPerLabel > 0 ? unitsPerLabel : 1
    }

    /// Plain counts.
    public static let items = HUDRateUnit(label: N_("items"))
    /// Video frames.
    public static let frames = HUDRateUnit(label: N_("frames"))
    /// Bytes shown as megabytes (10⁶ bytes, as file sizes are quoted).
    public static let megabytes = HUDRateUnit(label: N_("MB"), unitsPerLabel: 1_000_000)
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
        // TRANSLATORS: a rate on the terminal's progress line ("30.0 frames/s"); {unit} is "frames", "items" or "MB".
        tr("{rate} {unit}/s", ["rate": Localization.decimal(unitsPerSecond / unit.unitsPerLabel, digits: 1), "unit": tr(unit.label)])
    }

    /// "ETA 0:06" or "ETA 1:02:03", to the nearest second.
    static func eta(_ seconds: TimeInterval) -> String {
        let total = Int(max(0, seconds).rounded())
        let (h, m, s) = (total / 3600, total / 60 % 60, total % 60)
        let clock = h > 0 ? String(format: "%d:%02d:%02d", h, m, s) : String(format: "%d:%02d", m, s)
        // TRANSLATORS: the time left on the terminal's progress line ("ETA 0:06").
        return tr("ETA {time}", ["time": clock])
    }

    /// "3.2 s" under a minute, "2 min 5 s" from there on.
    static func duration(_ seconds: TimeInterval) -> String {
        let value = max(0, seconds.isFinite ? seconds : 0)
        if value < 59.95 { return tr("{seconds} s", ["seconds": Localization.decimal(value, digits: 1)]) }
        let total = Int(value.rounded())
        return tr("{minutes} min {seconds} s", ["minutes": total / 60, "seconds": total % 60])
    }

    /// Text squeezed onto one line: line breaks become "; ", blank lines and edge spaces go.
    static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
            .joined(separator: "; ")
    }

    /// The SGR parameters that set the foreground to `color` (alpha is ignored: a terminal
    /// cell has no transparency): "38;2;R;G;B" on a terminal that takes 24-bit colour, else
    /// "38;5;N" with N the nearest of xterm's 256 colours — the 6 × 6 × 6 cube or the 24 greys,
    /// whichever is closer.
    static func ansiForeground(_ color: RGBA, trueColor: Bool) -> String {
        let rgb = [color.red, color.green, color.blue].map { Int((clamped($0) * 255).rounded()) }
        if trueColor { return "38;2;\(rgb[0]);\(rgb[1]);\(rgb[2])" }
        return "38;5;\(xterm256(red: rgb[0], green: rgb[1], blue: rgb[2]))"
    }

    /// The levels of each axis of xterm's colour cube.
    static let cubeLevels = [0, 95, 135, 175, 215, 255]

    /// The index of the xterm colour nearest to a byte colour (16…255: the cube and the greys,
    /// never the 16 the user may have re-themed).
    static func xterm256(red: Int, green: Int, blue: Int) -> Int {
        func level(_ v: Int) -> Int { v < 48 ? 0 : v < 115 ? 1 : min(5, (v - 35) / 40) }
        let (r, g, b) = (level(red), level(green), level(blue))
        let cube = (cubeLevels[r], cubeLevels[g], cubeLevels[b])
        let average = (red + green + blue) / 3
        let greyStep = average > 238 ? 23 : max(0, (average - 3) / 10)
        let grey = 8 + 10 * greyStep
        func distance(_ c: (Int, Int, Int)) -> Int {
            let (dr, dg, db) = (c.0 - red, c.1 - green, c.2 - blue)
            return dr * dr + dg * dg + db * db
        }
        return distance((grey, grey, grey)) < distance(cube) ? 232 + greyStep : 16 + 36 * r + 6 * g + b
    }

    private static func clamped(_ fraction: Double) -> Double {
        fraction.isNaN ? 0 : min(max(fraction, 0), 1)
    }
}
