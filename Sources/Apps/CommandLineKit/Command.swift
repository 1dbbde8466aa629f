import ViewfinderCore

/// A command's shape: what it is called, what it takes, and how to run it.
///
/// A conforming type lists its options and positional count, or the subcommand types that do
/// the work (`library import`, `library list`); parsing, the `--help` text, the manual page and
/// the completions come from those declarations (see `CommandPath`).
public protocol Command {
    /// The program the command belongs to, as the usage line names it ("viewfinder").
    static var toolName: String { get }
    /// The command's name, as typed after the tool's (or, for a subcommand, after its parent's).
    static var name: String { get }
    /// One line saying what the command does: English marked with `N_` (translated where it is
    /// shown), or text already in the user's language.
    static var summary: String { get }
    /// The synopsis after `TOOL NAME`.
    static var synopsis: String { get }
    /// The options, in the order `--help` lists them (`--help` itself is added). A command with
    /// subcommands lists those every subcommand takes (`library --library DIR`), once.
    static var options: [OptionSpec] { get }
    /// Extra paragraphs for `--help`, as `summary` is written (marked English, or already
    /// translated when it is made of several texts or fills in values).
    static var discussion: String { get }
    /// Positional arguments: the minimum and maximum count.
    static var positionalCount: ClosedRange<Int> { get }
    /// The commands its first word chooses (`library import`), each with its own options; empty
    /// for a command that does the work itself.
    static var subcommands: [any Command.Type] { get }
    /// The words the first positional argument may be, for shell completion: the subcommands'
    /// names, or words the command reads itself (`capture photo|video`); empty when it is a
    /// file or free text.
    static var verbs: [String] { get }
    /// Does the work; returns the exit status.
    static func run(_ arguments: ParsedArguments) throws -> Int32
}

// MARK: - Defaults

extension Command {
    /// No extra paragraphs.
    public static var discussion: String { "" }

    /// No subcommands.
    public static var subcommands: [any Command.Type] { [] }

    /// The subcommands' names.
    public static var verbs: [String] { subcommands.map { $0.name } }

    /// No positional arguments besides a subcommand's (a command that has them says so).
    public static var positionalCount: ClosedRange<Int> { 0...0 }

    /// A command made of subcommands never runs itself (parsing picks one of them); should it be
    /// called, the subcommand is missing.
    public static func run(_ arguments: ParsedArguments) throws -> Int32 {
        throw CommandPath(Self.self).missingSubcommand()
    }

    /// Every option the parser knows for this command, `--help` included.
    public static var allOptions: [OptionSpec] { CommandPath(Self.self).options }

    /// The `--help` text in the user's language (see `CommandPath.usage`).
    public static var usage: String { CommandPath(Self.self).usage }

    /// What follows a usage error (see `CommandPath.shortUsage`).
    public static var shortUsage: String { CommandPath(Self.self).shortUsage }

    /// Parses `arguments` for this command (for one without subcommands; `CommandPath.parse`
    /// also picks a subcommand).
    public static func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments {
        try CommandPath(Self.self).parse(arguments).arguments
    }
}
