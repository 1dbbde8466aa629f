/// One option a command accepts: `--name`, perhaps `-x`, perhaps with a value.
public struct OptionSpec: Sendable, Hashable {
    /// Long name without dashes ("max-size").
    public let name: String
    /// One-letter alias ("o"), if any.
    public let short: Character?
    /// Placeholder for its value ("WxH"), nil for a flag.
    public let value: String?
    /// One line of help.
    public let help: String

    /// An option called `--name` (and `-short`), taking a value shown as `value` unless it is a flag.
    public init(_ name: String, short: Character? = nil, value: String? = nil, help: String) {
        self.name = name
        self.short = short
        self.value = value
        self.help = help
    }
}
