import ViewfinderCore

/// An option declared once with what its value means: the declarations `--help`, the manual
/// page and the completions show, and the reader that turns what was typed into a `Value`.
///
/// A command lists `specs` among its options and reads `try arguments[option]`; a value the
/// reader refuses is a usage error worded in one place ("--name: reason").
public struct TypedOption<Value>: Sendable {
    /// The declarations: one for most options, more for a set read together (`--dark` and
    /// `--light`), in the order `--help` lists them.
    public let specs: [OptionSpec]
    private let read: @Sendable (ParsedArguments) throws(UsageError) -> Value

    /// An option declared by `specs` whose value `read` takes from the parsed arguments (for
    /// options read together; `init(_:short:value:help:absent:parse:)` is the usual one).
    public init(specs: [OptionSpec], read: @escaping @Sendable (ParsedArguments) throws(UsageError) -> Value) {
        self.specs = specs
        self.read = read
    }

    /// `--name VALUE` read by `parse`, `absent()` when it is not given; a value `parse` refuses
    /// is a usage error "--name: reason".
    public init(_ name: String, short: Character? = nil, value: String, help: String,
                absent: @escaping @Sendable () -> Value,
                parse: @escaping @Sendable (String) throws(InvalidValueError) -> Value) {
        self.init(specs: [OptionSpec(name, short: short, value: value, help: help)]) { arguments throws(UsageError) in
            guard let text = arguments.value(name) else { return absent() }
            do throws(InvalidValueError) {
                return try parse(text)
            } catch {
                throw arguments.invalid(name, error.reason)
            }
        }
    }

    /// The same option and reader with another help line (for a command that says what the
    /// value means to it), and perhaps another placeholder for its value (`-o PATH` where
    /// another command shows `-o COVER`); an option of several declarations changes its first
    /// one's.
    public func withHelp(_ help: String, value: String? = nil) -> TypedOption {
        var specs = specs
        if let first = specs.first {
            specs[0] = OptionSpec(first.name, short: first.short, value: value ?? first.value, help: help)
        }
        return TypedOption(specs: specs, read: read)
    }

    /// The value in `arguments`, or the usage error that says what is wrong with it.
    public func value(in arguments: ParsedArguments) throws(UsageError) -> Value {
        try read(arguments)
    }
}

/// Why a typed option's value was refused, in the user's language ("expected seconds, not
/// 'soon'"); the option's name is put before it where the usage error is made.
public struct InvalidValueError: ReadableError, Sendable, Equatable {
    /// What was expected, and what was given.
    public let reason: String

    /// A refusal saying `reason`.
    public init(_ reason: String) {
        self.reason = reason
    }

    public var description: String { reason }
}

extension ParsedArguments {
    /// The typed value of `option` (its default when absent).
    public subscript<Value>(option: TypedOption<Value>) -> Value {
        get throws(UsageError) { try option.value(in: self) }
    }

    /// The typed value of `option` (its default when absent).
    public func value<Value>(of option: TypedOption<Value>) throws(UsageError) -> Value {
        try option.value(in: self)
    }

    /// Whether any of `option`'s declarations was given.
    public func isGiven<Value>(_ option: TypedOption<Value>) -> Bool {
        option.isGiven(in: self)
    }
}
