/// What a program offers on its command line — its options and its commands with theirs — from
/// which its manual page and shell completions are made, so neither can drift from the parser.
/// Its texts are English marked with `N_` (the page and the completions translate them), or
/// already in the user's language.
public struct ProgramReference: Sendable {
    /// One command of the program (`viewfinder cover`, `viewfinder-studio pick`).
    public struct Entry: Sendable {
        /// The command's name, as typed after the program's ("library import" for a subcommand).
        public var name: String
        /// One line saying what it does.
        public var summary: String
        /// What follows `PROGRAM NAME` in its usage (may span lines).
        public var synopsis: String
        /// Further paragraphs (blank lines between them).
        public var discussion: String
        /// Every option it takes, `--help` included.
        public var options: [OptionSpec]
        /// The words its first argument may be (its subcommands' names, or words it reads
        /// itself), if any.
        public var verbs: [String]
        /// Its subcommands, each with its own options (those of the commands around it
        /// included), in the order its help lists them.
        public var subcommands: [Entry]

        /// An entry from its parts.
        public init(name: String, summary: String, synopsis: String, discussion: String = "", options: [OptionSpec],
                    verbs: [String] = [], subcommands: [Entry] = []) {
            self.name = name
            self.summary = summary
            self.synopsis = synopsis
            self.discussion = discussion
            self.options = options
            self.verbs = verbs
            self.subcommands = subcommands
        }

        /// The entry a `Command` declares, with its subcommands'.
        public init(_ command: any Command.Type) {
            self.init(CommandPath(command))
        }

        /// The entry of the command a path ends in, with its subcommands'.
        public init(_ path: CommandPath) {
            self.init(name: path.name, summary: path.command.summary, synopsis: path.synopsis,
                      discussion: path.command.discussion, options: path.options, verbs: path.command.verbs,
                      subcommands: path.subcommands.map(Entry.init))
        }

        /// The entry and every subcommand's below it, depth first (as the manual lists them).
        public var flattened: [Entry] { [self] + subcommands.flatMap(\.flattened) }
    }

    /// The program's name ("viewfinder").
    public var name: String
    /// One line for the manual's NAME section.
    public var summary: String
    /// Its usage lines without the program's name ("COMMAND [OPTIONS]").
    public var synopsis: [String]
    /// Paragraphs describing it (blank lines between them).
    public var description: String
    /// Its version, for the manual's header.
    public var version: String
    /// The options it takes without a command.
    public var options: [OptionSpec]
    /// Its commands, in the order its help lists them.
    public var commands: [Entry]
    /// Paragraphs for the manual's EXIT STATUS section (empty: none).
    public var exitStatus: String
    /// Other manual pages worth reading ("viewfinder-studio(1)").
    public var seeAlso: [String]

    /// A reference from its parts.
    public init(name: String, summary: String, synopsis: [String], description: String, version: String,
                options: [OptionSpec], commands: [Entry], exitStatus: String = "", seeAlso: [String] = []) {
        self.name = name
        self.summary = summary
        self.synopsis = synopsis
        self.description = description
        self.version = version
        self.options = options
        self.commands = commands
        self.exitStatus = exitStatus
        self.seeAlso = seeAlso
    }
}
