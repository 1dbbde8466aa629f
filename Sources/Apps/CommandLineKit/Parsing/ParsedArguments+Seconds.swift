import ViewfinderCore

/// Which spans of time a seconds option takes.
public struct SecondsRange: Sendable, Equatable {
    /// Whether 0 is accepted (the command says what it means: no limit, the start).
    public let allowsZero: Bool
    /// The longest accepted, in whole seconds; nil for no bound.
    public let maximum: Int?

    /// More than 0 seconds, at most `maximum` when given.
    public static func positive(upTo maximum: Int? = nil) -> SecondsRange { SecondsRange(allowsZero: false, maximum: maximum) }

    /// 0 seconds or more, at most `maximum` when given.
    public static func nonNegative(upTo maximum: Int? = nil) -> SecondsRange { SecondsRange(allowsZero: true, maximum: maximum) }
}

extension SecondsRange {
    /// `text` as a span of time (seconds, `m:ss.fff` or `h:mm:ss`, exactly) within the range; a
    /// refusal says what was expected. Every option that takes seconds is read here.
    public func time(parsing text: String) throws(InvalidValueError) -> MediaTime {
        guard case .time(let time)? = try? TimePosition(parsing: text) else {
            throw InvalidValueError(tr("expected seconds, not '{text}'", ["text": text]))
        }
        if time <= .zero && !(allowsZero && time == .zero) {
            throw InvalidValueError(tr("expected seconds above 0, not '{text}'", ["text": text]))
        }
        if let maximum, time.seconds > Double(maximum) {
            throw InvalidValueError(tr("{text} is out of range (0…{maximum} seconds)", ["text": text, "maximum": maximum]))
        }
        return time
    }
}

extension ParsedArguments {
    /// The span of time given to `--name` (see `SecondsRange.time(parsing:)`), nil when absent;
    /// a value that is no span of time, or lies outside `range`, is a usage error that says
    /// what was expected.
    public func seconds(_ name: String, _ range: SecondsRange) throws(UsageError) -> MediaTime? {
        guard let text = value(name) else { return nil }
        do {
            return try range.time(parsing: text)
        } catch {
            throw invalid(name, error.reason)
        }
    }
}
