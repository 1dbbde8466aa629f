import Foundation

/// One option a command accepts.
struct OptionSpec {
    /// Long name without dashes ("max-size").
    let name: String
    /// One-letter alias ("o"), if any.
    let short: Character?
    /// Placeholder for its value ("WxH"), nil for a flag.
    let value: String?
    /// One line of help.
    let help: String

    init(_ name: String, short: Character? = nil, value: String? = nil, help: String) {
        self.name = name
        self.short = short
        self.value = value
        self.help = help
    }
}

/// A subcommand's shape: what it is called, what it takes, and how to run it.
protocol Command {
    static var name: String { get }
    static var summary: String { get }
    /// The synopsis after `viewfinder NAME`.
    static var synopsis: String { get }
    static var options: [OptionSpec] { get }
    /// Extra paragraphs for `--help`.
    static var discussion: String { get }
    /// Positional arguments: the minimum and maximum count.
    static var positionalCount: ClosedRange<Int> { get }
    static func run(_ arguments: ParsedArguments) throws -> Int32
}

// MARK: - Defaults

extension Command {
    static var discussion: String { "" }

    static var usage: String {
        var text = "usage: viewfinder \(name) \(synopsis)\n\n\(summary)\n"
        if !discussion.isEmpty { text += "\n\(discussion)\n" }
        let all = options + [OptionSpec("help", short: "h", help: "Show this help.")]
        text += "\noptions:\n"
        for option in all {
            var left = "--\(option.name)"
            if let short = option.short { left = "-\(short), " + left }
            if let value = option.value { left += " \(value)" }
            let padded = left.count < 24 ? left + String(repeating: " ", count: 24 - left.count) : left + "  "
            text += "  \(padded)\(option.help)\n"
        }
        return text
    }

    /// Parses `arguments` for this command.
    static func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments {
        try ParsedArguments(arguments, options: options, positionalCount: positionalCount, command: name)
    }
}

/// A mistake in how the tool was called: reported with the usage, exit status 2.
struct UsageError: Error {
    let message: String
    let command: String?
}

/// A failure while doing the work: one line on stderr, exit status 1.
struct RuntimeError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Options and positional arguments, checked against a command's specs.
struct ParsedArguments {
    private(set) var positionals: [String] = []
    private var values: [String: String] = [:]
    private var flags: Set<String> = []
    private(set) var wantsHelp = false
    private let command: String

    init(_ arguments: [String], options: [OptionSpec], positionalCount: ClosedRange<Int>,
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
                    throw UsageError(message: "unknown option '\(argument)'", command: command)
                }
                name = found.name
            }
            guard let spec = options.first(where: { $0.name == name }) else {
                throw UsageError(message: "unknown option '--\(name)'", command: command)
            }
            if spec.value == nil {
                guard inline == nil else {
                    throw UsageError(message: "--\(name) takes no value", command: command)
                }
                flags.insert(name)
                continue
            }
            if let inline {
                values[name] = inline
            } else {
                guard index < arguments.count else {
                    throw UsageError(message: "--\(name) needs a value (\(spec.value ?? "VALUE"))", command: command)
                }
                values[name] = arguments[index]
                index += 1
            }
        }
        if wantsHelp { return }
        if positionals.count < positionalCount.lowerBound {
            throw UsageError(message: "missing argument", command: command)
        }
        if positionals.count > positionalCount.upperBound {
            throw UsageError(message: "unexpected argument '\(positionals[positionalCount.upperBound])'", command: command)
        }
    }

    func value(_ name: String) -> String? { values[name] }
    func flag(_ name: String) -> Bool { flags.contains(name) }

    /// A required option's value.
    func required(_ name: String) throws(UsageError) -> String {
        guard let value = values[name] else { throw UsageError(message: "--\(name) is required", command: command) }
        return value
    }

    /// An integer option within `range`, or `fallback` when absent.
    func integer(_ name: String, in range: ClosedRange<Int>, default fallback: Int) throws(UsageError) -> Int {
        guard let text = values[name] else { return fallback }
        guard let number = Int(text), range.contains(number) else {
            throw UsageError(message: "--\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'", command: command)
        }
        return number
    }

    /// Reports a malformed value as a usage error.
    func invalid(_ name: String, _ reason: String) -> UsageError {
        UsageError(message: "--\(name): \(reason)", command: command)
    }
}
