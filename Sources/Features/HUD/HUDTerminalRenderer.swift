import Foundation
import ViewfinderCore

/// Turns a `ProgressHUD` into what a command-line tool writes to stderr, as strings: it never
/// touches a file handle, so every byte can be checked in a test (`HUDTerminalSink` writes them).
///
/// On a terminal it redraws one line in place ("\r", the line, then clear-to-end-of-line), at
/// most 20 times a second, in colour unless `NO_COLOR` is set: a spinner for indeterminate work;
/// for determinate modes a pie, a bar, the percentage, the rate and the time left; the label and
/// the details. Anything else (a pipe, a log file) gets no animation and no control codes, just
/// one line when the work finishes. Quiet shows nothing at all. The grace time applies here too:
/// nothing is drawn until the HUD is on screen.
@MainActor
public final class HUDTerminalRenderer {
    /// How the work ended, for the final line.
    public enum Outcome: Sendable, Hashable {
        /// It finished.
        case done
        /// It failed; the text says why (it may be empty).
        case failed(String)
        /// The user or the program stopped it.
        case cancelled
    }

    /// Redraws closer together than this are skipped (20 a second at most); the final line is
    /// never skipped.
    public static let minimumRedrawInterval: TimeInterval = 0.05

    /// The HUD drawn.
    public let hud: ProgressHUD
    /// True when the output is a terminal: draw in place. False: one final line, plain text.
    public let isTerminal: Bool
    /// True when nothing at all is shown.
    public let isQuiet: Bool
    /// True when escape codes for colour are used: on a terminal, unless the environment has a
    /// non-empty `NO_COLOR` (no-color.org) or `TERM=dumb`.
    public let usesColor: Bool
    /// True when the HUD's colours are written as 24-bit colour (`COLORTERM` is `truecolor` or
    /// `24bit`) rather than the nearest of the 256.
    public let usesTrueColor: Bool
    /// What the work is counted in.
    public let unit: HUDRateUnit
    /// The bar's width in cells.
    public let barWidth: Int
    /// When the work started; elapsed time, rate and time left count from here.
    public let startTime: TimeInterval

    private let startCompletedUnits: Int64
    private let startFraction: Double
    private var lastDrawTime: TimeInterval?
    private var lastLine: String?
    private var isFinished = false

    private static let clearToEndOfLine = "\u{1B}[K"

    /// A renderer for `hud`. `environment` is the process environment in a tool and a
    /// dictionary in a test; `startTime` defaults to the HUD clock's present.
    public init(hud: ProgressHUD, isTerminal: Bool,
                environment: [String: String] = ProcessInfo.processInfo.environment,
                quiet: Bool = false, unit: HUDRateUnit = .items, barWidth: Int = 20,
                startTime: TimeInterval? = nil) {
        self.hud = hud
        self.isTerminal = isTerminal
        self.isQuiet = quiet
        let noColor = !(environment["NO_COLOR"] ?? "").isEmpty || environment["TERM"] == "dumb"
        self.usesColor = isTerminal && !quiet && !noColor
        self.usesTrueColor = usesColor && ["truecolor", "24bit"].contains(environment["COLORTERM"]?.lowercased() ?? "")
        self.unit = unit
        self.barWidth = max(1, barWidth)
        self.startTime = startTime ?? hud.clock.now
        self.startCompletedUnits = hud.observedProgress?.completedUnitCount ?? 0
        self.startFraction = hud.progress
    }

    /// What to write at `time` to bring the terminal up to date, or nil when nothing should be
    /// written: not a terminal, quiet, finished, too soon after the last draw, or nothing changed.
    /// When the HUD leaves the screen the line is cleared once.
    public func frame(at time: TimeInterval) -> String? {
        guard isTerminal, !isQuiet, !isFinished else { return nil }
        if let last = lastDrawTime, time - last < Self.minimumRedrawInterval - 1e-9 { return nil }
        let text: String
        if hud.phase(at: time).isOnScreen {
            text = "\r" + line(at: time, colored: usesColor) + Self.clearToEndOfLine
            guard text != lastLine else { return nil }
            lastLine = text
        } else {
            guard lastLine != nil else { return nil }
            text = "\r" + Self.clearToEndOfLine
            lastLine = nil
        }
        lastDrawTime = time
        return text
    }

    /// The final line for `outcome` at `time`, e.g. "Converting clip.mov: done in 3.2 s". On a
    /// terminal it replaces the live line and starts with a coloured symbol. Given once; later
    /// calls, and every call when quiet, return nil.
    public func finish(_ outcome: Outcome, at time: TimeInterval) -> String? {
        guard !isQuiet, !isFinished else { return nil }
        isFinished = true
        let message = Self.message(for: outcome, label: HUDTerminalFormat.oneLine(hud.label),
                                   elapsed: time - startTime)
        guard isTerminal else { return message + "\n" }
        let symbol: (glyph: String, color: String) = switch outcome {
        case .done: ("✔", "32")
        case .failed: ("✖", "31")
        case .cancelled: ("⊘", "33")
        }
        return "\r" + paint(symbol.glyph, symbol.color, usesColor) + " " + message + Self.clearToEndOfLine + "\n"
    }

    /// The live line at `time` with no control codes and no colour: what a terminal shows.
    public func statusLine(at time: TimeInterval) -> String {
        line(at: time, colored: false)
    }

    /// The units finished per second: the progress object's own throughput if it reports one,
    /// else the units finished since `startTime` over the time since. Nil without a progress
    /// object that counts units, or before any work is done.
    public func unitsPerSecond(at time: TimeInterval) -> Double? {
        guard let progress = hud.observedProgress, progress.totalUnitCount > 0 else { return nil }
        if let reported = Self.number(progress.userInfo[.throughputKey]) { return reported }
        let elapsed = time - startTime
        let done = Double(progress.completedUnitCount - startCompletedUnits)
        guard elapsed > 0, done > 0 else { return nil }
        return done / elapsed
    }

    /// The seconds left: the progress object's own estimate if it has one, else the units left
    /// at the current rate, else the fraction left at the pace the fraction has moved since
    /// `startTime`. Nil when there is nothing to go on.
    public func secondsRemaining(at time: TimeInterval) -> TimeInterval? {
        if let progress = hud.observedProgress {
            if let reported = Self.number(progress.userInfo[.estimatedTimeRemainingKey]) { return reported }
            if let rate = unitsPerSecond(at: time), rate > 0 {
                return Double(max(0, progress.totalUnitCount - progress.completedUnitCount)) / rate
            }
        }
        let gained = hud.progress - startFraction
        let elapsed = time - startTime
        guard gained > 0, elapsed > 0 else { return nil }
        return elapsed * (1 - hud.progress) / gained
    }

    // MARK: - Private

    /// The live line. Without HUD colours the indicator is cyan, each symbol its own colour and
    /// the text plain; with a content colour (or a label, details or progress colour) each part
    /// is written in its colour, as the app draws it.
    private func line(at time: TimeInterval, colored: Bool) -> String {
        func ansi(_ color: RGBA?) -> String? {
            color.map { HUDTerminalFormat.ansiForeground($0, trueColor: usesTrueColor) }
        }
        let content = ansi(hud.contentColor)
        let progress = ansi(hud.indicatorColors.progressTint ?? hud.contentColor)
        var parts: [String] = []
        switch hud.mode {
        case .indeterminate:
            parts.append(paint(HUDTerminalFormat.spinner(elapsed: time - startTime), content ?? "36", colored))
        case .determinate, .annularDeterminate, .determinateHorizontalBar:
            parts.append(paint(HUDTerminalFormat.pie(hud.progress), progress ?? "36", colored))
        case .customView(let symbol):
            parts.append(paint(symbol.glyph, content ?? Self.color(of: symbol), colored))
        case .text:
            break
        }
        let label = HUDTerminalFormat.oneLine(hud.label)
        if !label.isEmpty { parts.append(paintText(label, hud.labelColor ?? hud.contentColor, colored)) }
        if hud.mode.isDeterminate {
            let bar = HUDTerminalFormat.bar(hud.progress, width: barWidth)
            parts.append(progress.map { paint(bar, $0, colored) } ?? bar)
            parts.append(HUDTerminalFormat.percent(hud.progress))
            if let rate = unitsPerSecond(at: time) {
                parts.append(HUDTerminalFormat.rate(rate, unit: unit))
            }
            if hud.progress < 1, let left = secondsRemaining(at: time) {
                parts.append(HUDTerminalFormat.eta(left))
            }
        }
        var text = parts.joined(separator: " ")
        let details = HUDTerminalFormat.oneLine(hud.detailsLabel)
        if !details.isEmpty {
            text += (text.isEmpty ? "" : " — ") + paintText(details, hud.detailsColor ?? hud.contentColor, colored)
        }
        return text
    }

    private func paint(_ text: String, _ color: String, _ colored: Bool) -> String {
        colored ? "\u{1B}[\(color)m\(text)\u{1B}[0m" : text
    }

    /// Text in `color` when one is set, plain otherwise.
    private func paintText(_ text: String, _ color: RGBA?, _ colored: Bool) -> String {
        guard let color else { return text }
        return paint(text, HUDTerminalFormat.ansiForeground(color, trueColor: usesTrueColor), colored)
    }

    private static func color(of symbol: HUDSymbol) -> String {
        switch symbol {
        case .checkmark: "32"
        case .cross: "31"
        case .warning: "33"
        case .info: "34"
        case .named, .image: "36"
        }
    }

    private static func message(for outcome: Outcome, label: String, elapsed: TimeInterval) -> String {
        let time = HUDTerminalFormat.duration(elapsed)
        let said: String
        switch outcome {
        case .done:
            // TRANSLATORS: how a task on the terminal ended; {time} is how long it took ("3.2 s", "2 min 5 s").
            said = tr("done in {time}", ["time": time])
        case .failed(let reason):
            let why = HUDTerminalFormat.oneLine(reason)
            said = why.isEmpty ? tr("failed after {time}", ["time": time]) : tr("failed after {time}: {reason}", ["time": time, "reason": why])
        case .cancelled:
            said = tr("cancelled after {time}", ["time": time])
        }
        // TRANSLATORS: {task} is what the work was ("Exporting"), {outcome} how it ended ("done in 3.2 s").
        return label.isEmpty ? said : tr("{task}: {outcome}", ["task": label, "outcome": said])
    }

    /// A number from a progress object's user info, whichever way it was boxed.
    private static func number(_ value: Any?) -> Double? {
        switch value {
        case let number as NSNumber: number.doubleValue
        case let double as Double: double
        case let int as Int: Double(int)
        default: nil
        }
    }
}
