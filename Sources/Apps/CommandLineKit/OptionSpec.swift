import ViewfinderCore

/// One option a command accepts: `--name`, perhaps `-x`, perhaps with a value.
public struct OptionSpec: Sendable, Hashable {
    /// Long name without dashes ("max-size").
    public let name: String
    /// One-letter alias ("o"), if any.
    public let short: Character?
    /// Placeholder for its value ("WxH"), nil for a flag.
    public let value: String?
    /// One line of help: English marked with `N_` (translated where it is shown), or text
    /// already in the user's language.
    public let help: String

    /// An option called `--name` (and `-short`), taking a value shown as `value` unless it is a flag.
    public init(_ name: String, short: Character? = nil, value: String? = nil, help: String) {
        self.name = name
        self.short = short
        self.value = value
        self.help = help
    }
}

extension OptionSpec {
    /// The options as `--help` lists them: one aligned line each, `-x, --name VALUE` then its help
    /// in the user's language.
    public static func helpLines(_ options: [OptionSpec]) -> String {
        var text = ""
        for option in options {
            var left = "--\(option.name)"
            if let short = option.short { left = "-\(short), " + left }
            if let value = option.value { left += " \(value)" }
            let padded = left.count < 24 ? left + String(repeating: " ", count: 24 - left.count) : left + "  "
            text += "  " + padded + tr(option.help) + "\n"
        }
        return text
    }
}
