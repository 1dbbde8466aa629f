import Foundation

/// A position in a video as a user writes it: a time from the first frame, or a frame number.
public enum TimePosition: Sendable, Hashable, CustomStringConvertible {
    /// Seconds from the first frame (0 = first frame).
    case time(MediaTime)
    /// The N-th frame in presentation order, counting from 0.
    case frame(Int)

    /// Parses `2.5`, `2.002`, `1:02.5` (m:ss), `1:02:03.25` (h:mm:ss) or `frame:N`, exactly.
    public init(parsing text: String) throws(TimeParseError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.lowercased().hasPrefix("frame:") {
            let digits = trimmed.dropFirst("frame:".count)
            guard !digits.isEmpty, digits.allSatisfy(\.isASCIIDigit), let n = Int(digits) else {
                throw TimeParseError(text: text, reason: tr("a frame number is written frame:N with N ≥ 0"))
            }
            self = .frame(n)
            return
        }
        self = .time(try TimePosition.parseClock(trimmed, original: text))
    }

    private static func parseClock(_ text: String, original: String) throws(TimeParseError) -> MediaTime {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard !text.isEmpty, parts.count <= 3 else {
            throw TimeParseError(text: original, reason: tr("expected seconds (2.5), m:ss.fff or frame:N"))
        }
        var total = MediaTime.zero
        for (i, part) in parts.enumerated() {
            let isLast = i == parts.count - 1
            let value: MediaTime
            if isLast {
                value = try parseDecimal(part, original: original)
                if parts.count > 1 && value >= MediaTime(seconds: 60) {
                    throw TimeParseError(text: original, reason: tr("seconds must be below 60 in m:ss"))
                }
            } else {
                guard !part.isEmpty, part.allSatisfy(\.isASCIIDigit), let whole = Int64(part), whole < 1_000_000 else {
                    throw TimeParseError(text: original, reason: tr("expected whole minutes or hours before ':'"))
                }
                if i > 0 && whole >= 60 {
                    throw TimeParseError(text: original, reason: tr("minutes must be below 60 in h:mm:ss"))
                }
                let unit: Int64 = (parts.count - 1 - i) == 2 ? 3600 : 60
                value = MediaTime(seconds: whole * unit)
            }
            guard let sum = total.adding(value) else {
                throw TimeParseError(text: original, reason: tr("the time is too large"))
            }
            total = sum
        }
        return total
    }

    private static func parseDecimal(_ text: Substring, original: String) throws(TimeParseError) -> MediaTime {
        let pieces = text.split(separator: ".", omittingEmptySubsequences: false)
        guard pieces.count <= 2,
              let wholeText = pieces.first,
              wholeText.allSatisfy(\.isASCIIDigit),
              pieces.count == 1 || pieces[1].allSatisfy(\.isASCIIDigit),
              !(wholeText.isEmpty && (pieces.count == 1 || pieces[1].isEmpty))
        else {
            throw TimeParseError(text: original, reason: tr("expected seconds (2.5), m:ss.fff or frame:N"))
        }
        let fractionText = pieces.count == 2 ? pieces[1] : ""
        guard wholeText.count <= 9, fractionText.count <= 9 else {
            throw TimeParseError(text: original, reason: tr("at most 9 digits before and after the point"))
        }
        let whole = Int64(wholeText.isEmpty ? "0" : String(wholeText)) ?? 0
        var scale: Int64 = 1
        for _ in 0..<fractionText.count { scale *= 10 }
        let fraction = Int64(fractionText.isEmpty ? "0" : String(fractionText)) ?? 0
        return MediaTime(value: whole * scale + fraction, timescale: scale)
    }

    public var description: String {
        switch self {
        case .time(let t): return t.decimalString
        case .frame(let n): return "frame:\(n)"
        }
    }
}

/// A TIME argument that could not be read.
public struct TimeParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What the user wrote.
    public let text: String
    /// How it should be written.
    public let reason: String

    public var description: String { tr("invalid time '{text}': {reason}", ["text": text, "reason": reason]) }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}

extension TimeParseError: ReadableError {}
