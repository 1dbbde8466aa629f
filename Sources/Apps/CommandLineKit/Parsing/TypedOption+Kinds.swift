import Foundation
import ViewfinderCore

/// What a command lists among its options: a typed option (one or more declarations) or a
/// declaration read by hand. `OptionSpec.list` joins them in the order `--help` shows them.
public protocol OptionDeclaration: Sendable {
    /// The declarations, in the order `--help` lists them.
    var specs: [OptionSpec] { get }
}

extension OptionDeclaration {
    /// Whether any of the declarations was given in `arguments`.
    public func isGiven(in arguments: ParsedArguments) -> Bool {
        specs.contains { arguments.value($0.name) != nil || arguments.flag($0.name) }
    }
}

extension TypedOption: OptionDeclaration {}

extension OptionSpec {
    /// The declarations of `options`, in order: what a command's `options` is made of.
    public static func list(_ options: any OptionDeclaration...) -> [OptionSpec] {
        options.flatMap(\.specs)
    }
}

// MARK: - The kinds of value every command reads the same way

extension TypedOption where Value == Bool {
    /// `--name` (and `-short`): a flag, true when given.
    public static func flag(_ name: String, short: Character? = nil, help: String) -> TypedOption {
        TypedOption(specs: [OptionSpec(name, short: short, help: help)]) { $0.flag(name) }
    }
}

extension TypedOption where Value == Int {
    /// `--name N`: a whole number within `range`, `fallback` when absent; anything else is the
    /// one usage error every whole-number option gives.
    public static func integer(_ name: String, short: Character? = nil, value: String = "N", help: String,
                               in range: ClosedRange<Int>, default fallback: Int) -> TypedOption {
        TypedOption(specs: [OptionSpec(name, short: short, value: value, help: help)]) { arguments throws(UsageError) in
            try arguments.integer(name, in: range, default: fallback)
        }
    }
}

extension TypedOption where Value == Int? {
    /// `--name N`: a whole number within `range`, nil when absent (the command's own default,
    /// such as no limit).
    public static func integer(_ name: String, short: Character? = nil, value: String = "N", help: String,
                               in range: ClosedRange<Int>) -> TypedOption {
        TypedOption(specs: [OptionSpec(name, short: short, value: value, help: help)]) { arguments throws(UsageError) in
            arguments.value(name) == nil ? nil : try arguments.integer(name, in: range, default: range.lowerBound)
        }
    }
}

extension TypedOption where Value == String? {
    /// `--name VALUE`: the text given, nil when absent (for values the command checks against
    /// what it finds, such as a camera's or an album's name).
    public static func text(_ name: String, short: Character? = nil, value: String, help: String) -> TypedOption {
        TypedOption(specs: [OptionSpec(name, short: short, value: value, help: help)]) { $0.value(name) }
    }
}

extension TypedOption where Value == [String] {
    /// `--name VALUE`, which may be given more than once: every value, in order (none when
    /// absent).
    public static func repeated(_ name: String, short: Character? = nil, value: String, help: String) -> TypedOption {
        TypedOption(specs: [OptionSpec(name, short: short, value: value, help: help)]) { $0.values(name) }
    }
}

extension TypedOption where Value == URL? {
    /// `--name PATH`: a file or folder, nil when absent.
    public static func path(_ name: String, short: Character? = nil, value: String, help: String) -> TypedOption {
        TypedOption(specs: [OptionSpec(name, short: short, value: value, help: help)]) { arguments in
            arguments.value(name).map { URL(fileURLWithPath: $0) }
        }
    }
}

extension TypedOption where Value == URL {
    /// `--name PATH`, required: absent is the usage error "--name is required".
    public static func requiredPath(_ name: String, short: Character? = nil, value: String, help: String) -> TypedOption {
        TypedOption(specs: [OptionSpec(name, short: short, value: value, help: help)]) { arguments throws(UsageError) in
            URL(fileURLWithPath: try arguments.required(name))
        }
    }
}

extension TypedOption where Value == MediaTime? {
    /// `--name S`: a span of time within `range` (see `SecondsRange.time(parsing:)`), nil when
    /// absent.
    public static func seconds(_ name: String, value: String = "S", help: String, _ range: SecondsRange) -> TypedOption {
        TypedOption(specs: [OptionSpec(name, value: value, help: help)]) { arguments throws(UsageError) in
            try arguments.seconds(name, range)
        }
    }
}

extension TypedOption where Value == TimePosition? {
    /// `--name TIME`: a position in a video (seconds, m:ss.fff, h:mm:ss or frame:N), nil when
    /// absent.
    public static func position(_ name: String, value: String = "TIME", help: String) -> TypedOption {
        TypedOption(name, value: value, help: help, absent: { nil }) { text throws(InvalidValueError) in
            try TimePosition(optionValue: text)
        }
    }
}

extension TimePosition {
    /// `text` as an option's TIME (see `init(parsing:)`), refused with the reason an option's
    /// usage error gives.
    public init(optionValue text: String) throws(InvalidValueError) {
        do throws(TimeParseError) {
            self = try TimePosition(parsing: text)
        } catch {
            throw InvalidValueError(error.description)
        }
    }
}

extension TypedOption where Value: CaseIterable & RawRepresentable & Sendable, Value.RawValue == String {
    /// `--name CHOICE`: one of `Value`'s cases by its raw value, `fallback` when absent; any
    /// other word is refused with the list of choices ("expected a, b or c, not 'x'").
    public static func choice(_ name: String, short: Character? = nil, value: String, help: String,
                              default fallback: Value) -> TypedOption {
        TypedOption(name, short: short, value: value, help: help, absent: { fallback }) { text throws(InvalidValueError) in
            try Value(optionValue: text)
        }
    }
}

extension RawRepresentable where Self: CaseIterable, RawValue == String {
    /// The case whose raw value is `text`, refused with the list of choices ("expected a, b or
    /// c, not 'x'"), as every choice an option offers is.
    public init(optionValue text: String) throws(InvalidValueError) {
        guard let chosen = Self(rawValue: text) else {
            throw InvalidValueError(tr("expected {choices}, not '{text}'", ["choices": choiceList(Self.allCases.map(\.rawValue)), "text": text]))
        }
        self = chosen
    }
}

extension TypedOption {
    /// The long name of the (first) declaration, without dashes.
    public var name: String { specs.first?.name ?? "" }
}

extension ParsedArguments {
    /// The value of an option a command needs only in some uses (`-o` unless `--json`): absent
    /// is the usage error "--name is required".
    public func required<Wrapped>(_ option: TypedOption<Wrapped?>) throws(UsageError) -> Wrapped {
        guard let value = try self[option] else {
            throw usageError(tr("{option} is required", ["option": "--\(option.name)"]))
        }
        return value
    }

    /// A value `option` read well but the command cannot use, as a usage error ("--name:
    /// reason"; `reason` in the user's language).
    public func invalid<Value>(_ option: TypedOption<Value>, _ reason: String) -> UsageError {
        invalid(option.name, reason)
    }
}
