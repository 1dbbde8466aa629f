import ViewfinderCore

/// Options and positional arguments, checked against a command's specs.
///
/// `--name VALUE`, `--name=VALUE` and `-x VALUE` give a value; `--` ends the options; `-` alone
/// is a positional (standard input by convention); `--help` and `-h` ask for help, which skips the
/// positional count check.
public struct ParsedArguments: Sendable {
    /// The arguments that are not options, in order.
    public private(set) var positionals: [String] = []
    private var values: [String: String] = [:]
    private var repeated: [String: [String]] = [:]
    private var flags: Set<String> = []
    /// Whether `--help` or `-h` was given.
    public private(set) var wantsHelp = false
    private let command: String

    /// Reads `arguments` against `options`, expecting `positionalCount` positionals; any mistake
    /// is a `UsageError` about `command`.
    public init(_ arguments: [String], options: [OptionSpec], positionalCount: ClosedRange<Int>,
                command: String) throws(UsageError) {
        self.command = command
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || argument == "-" || !argument.hasPrefix("-") {
                positionals.append(argument)
                continue
            }
            if argument == "--" { onlyPositionals = true; continue }
            if argument == "--help" || argument == "-h" { wantsHelp = true; continue }
            var name: String
            var inline: String?
            if argument.hasPrefix("--") {
                name = String(argument.dropFirst(2))
                if let eq = name.firstIndex(of: "=") {
                    inline = String(name[name.index(after: eq)...])
                    name = String(name[..<eq])
                }
            } else {
                let letter = argument.dropFirst()
                guard letter.count == 1, let found = options.first(where: { $0.short == letter.first }) else {
                    throw UsageError(message: tr("unknown option '{option}'", ["option": argument]), command: command)
                }
                name = found.name
            }
            guard let spec = options.first(where: { $0.name == name }) else {
                throw UsageError(message: tr("unknown option '{option}'", ["option": "--\(name)"]), command: command)
            }
            if spec.value == nil {
                guard inline == nil else {
                    throw UsageError(message: tr("{option} takes no value", ["option": "--\(name)"]), command: command)
                }
                flags.insert(name)
                continue
            }
            let given: String
            if let inline {
                given = inline
            } else {
                guard index < arguments.count else {
                    throw UsageError(message: tr("{option} needs a value ({value})", ["option": "--\(name)", "value": spec.value ?? "VALUE"]),
                                     command: command)
                }
                given = arguments[index]
                index += 1
            }
            values[name] = given
            repeated[name, default: []].append(given)
        }
        if wantsHelp { return }
        if positionals.count < positionalCount.lowerBound {
            throw UsageError(message: tr("missing argument"), command: command)
        }
        if positionals.count > positionalCount.upperBound {
            throw UsageError(message: tr("unexpected argument '{argument}'", ["argument": positionals[positionalCount.upperBound]]),
                             command: command)
        }
    }

    /// The value given to `--name`, if any (the last one when given twice).
    public func value(_ name: String) -> String? { values[name] }

    /// Every value given to `--name`, in order (for options that may be repeated).
    public func values(_ name: String) -> [String] { repeated[name] ?? [] }

    /// Whether the flag `--name` was given.
    public func flag(_ name: String) -> Bool { flags.contains(name) }

    /// A required option's value.
    public func required(_ name: String) throws(UsageError) -> String {
        guard let value = values[name] else {
            throw UsageError(message: tr("{option} is required", ["option": "--\(name)"]), command: command)
        }
        return value
    }

    /// An integer option within `range`, or `fallback` when absent.
    public func integer(_ name: String, in range: ClosedRange<Int>, default fallback: Int) throws(UsageError) -> Int {
        guard let text = values[name] else { return fallback }
        guard let number = Int(text), range.contains(number) else {
            throw UsageError(message: tr("{option} must be a whole number from {lowest} to {highest}, not '{text}'",
                                         ["option": "--\(name)", "lowest": range.lowerBound, "highest": range.upperBound, "text": text]),
                             command: command)
        }
        return number
    }

    /// A usage error about the command these arguments were parsed for (`message` in the
    /// user's language).
    public func usageError(_ message: String) -> UsageError {
        UsageError(message: message, command: command)
    }

    /// Reports a malformed value as a usage error ("--name: reason"; `reason` in the user's
    /// language).
    public func invalid(_ name: String, _ reason: String) -> UsageError {
        UsageError(message: "--\(name): \(reason)", command: command)
    }
}
