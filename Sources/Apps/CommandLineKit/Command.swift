import ViewfinderCore

/// A subcommand's shape: what it is called, what it takes, and how to run it.
///
/// A conforming type lists its options and positional count; parsing and the `--help` text come
/// from the defaults below.
public protocol Command {
    /// The program the command belongs to, as the usage line names it ("viewfinder").
    static var toolName: String { get }
    /// The command's name, as typed after the tool's.
    static var name: String { get }
    /// One line saying what the command does: English marked with `N_` (translated where it is
    /// shown), or text already in the user's language.
    static var summary: String { get }
    /// The synopsis after `TOOL NAME`.
    static var synopsis: String { get }
    /// The options, in the order `--help` lists them (`--help` itself is added).
    static var options: [OptionSpec] { get }
    /// Extra paragraphs for `--help`, as `summary` is written (marked English, or already
    /// translated when it is made of several texts or fills in values).
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
    public static var allOptions: [OptionSpec] { options + [OptionSpec("help", short: "h", help: N_("Show this help."))] }

    /// The `--help` text in the user's language: usage line, summary, discussion and one aligned
    /// line per option.
    public static var usage: String {
        var text = usageLine + "\n\n" + tr(summary) + "\n"
        let discussion = tr(Self.discussion)
        if !discussion.isEmpty { text += "\n\(discussion)\n" }
        // TRANSLATORS: the heading over a command's options in --help.
        text += "\n" + tr("options:") + "\n" + OptionSpec.helpLines(allOptions)
        return text
    }

    /// What follows a usage error: the usage line and where the rest is (the whole help would
    /// bury the one line that says what was wrong).
    public static var shortUsage: String {
        usageLine + "\n"
            + tr("Run '{command} --help' for its options and what they do.", ["command": "\(toolName) \(name)"]) + "\n"
    }

    /// "usage: TOOL NAME SYNOPSIS". A synopsis of several lines indents the later ones by seven
    /// spaces, under its first line as it follows the English "usage: "; they are moved to
    /// stay under it when the heading is translated.
    static var usageLine: String {
        // TRANSLATORS: starts the line that shows how to call a command ("usage: viewfinder info FILE").
        let heading = tr("usage:") + " "
        let lines = "\(toolName) \(name) \(synopsis)".split(separator: "\n", omittingEmptySubsequences: false)
        let englishIndent = String(repeating: " ", count: 7)
        let indent = String(repeating: " ", count: heading.terminalColumns)
        return heading + lines.enumerated().map { index, line in
            guard index > 0 else { return String(line) }
            return line.hasPrefix(englishIndent) ? indent + line.dropFirst(englishIndent.count) : String(line)
        }.joined(separator: "\n")
    }

    /// Parses `arguments` for this command.
    public static func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments {
        try ParsedArguments(arguments, options: options, positionalCount: positionalCount, command: name)
    }
}
