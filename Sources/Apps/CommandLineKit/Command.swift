/// A subcommand's shape: what it is called, what it takes, and how to run it.
///
/// A conforming type lists its options and positional count; parsing and the `--help` text come
/// from the defaults below.
public protocol Command {
    /// The program the command belongs to, as the usage line names it ("viewfinder").
    static var toolName: String { get }
    /// The command's name, as typed after the tool's.
    static var name: String { get }
    /// One line saying what the command does.
    static var summary: String { get }
    /// The synopsis after `TOOL NAME`.
    static var synopsis: String { get }
    /// The options, in the order `--help` lists them (`--help` itself is added).
    static var options: [OptionSpec] { get }
    /// Extra paragraphs for `--help`.
    static var discussion: String { get }
    /// Positional arguments: the minimum and maximum count.
    static var positionalCount: ClosedRange<Int> { get }
    /// The words the first positional argument may be (a command's own subcommands, such as
    /// `library import`), for shell completion; empty when it is a file or free text.
    static var verbs: [String] { get }
    /// Does the work; returns the exit status.
    static func run(_ arguments: ParsedArguments) throws -> Int32
}

// MARK: - Defaults

extension Command {
    /// No extra paragraphs.
    public static var discussion: String { "" }

    /// No subcommands.
    public static var verbs: [String] { [] }

    /// Every option the parser knows for this command, `--help` included.
    public static var allOptions: [OptionSpec] { options + [OptionSpec("help", short: "h", help: "Show this help.")] }

    /// The `--help` text: usage line, summary, discussion and one aligned line per option.
    public static var usage: String {
        var text = "usage: \(toolName) \(name) \(synopsis)\n\n\(summary)\n"
        if !discussion.isEmpty { text += "\n\(discussion)\n" }
        text += "\noptions:\n" + OptionSpec.helpLines(allOptions)
        return text
    }

    /// What follows a usage error: the usage line and where the rest is (the whole help would
    /// bury the one line that says what was wrong).
    public static var shortUsage: String {
        "usage: \(toolName) \(name) \(synopsis)\nRun '\(toolName) \(name) --help' for its options and what they do.\n"
    }

    /// Parses `arguments` for this command.
    public static func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments {
        try ParsedArguments(arguments, options: options, positionalCount: positionalCount, command: name)
    }
}
