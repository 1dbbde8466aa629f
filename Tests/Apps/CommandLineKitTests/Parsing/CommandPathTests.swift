import CommandLineKit
import Testing

/// The test tool's commands: named "tool" in usage lines, doing nothing when run.
protocol ShelfCommand: Command {}

extension ShelfCommand {
    static var toolName: String { "tool" }
    static func run(_ arguments: ParsedArguments) throws -> Int32 { 0 }
}

/// A small tool with subcommands: `shelf [--shelf DIR] add|drop|list|box …`, `box open`.
enum Shelf: ShelfCommand {
    static let name = "shelf"
    static let summary = "Keeps things."
    static let synopsis = "[--shelf DIR] SUBCOMMAND"
    static let options = [OptionSpec("shelf", value: "DIR", help: "Where.")]
    static var subcommands: [any Command.Type] { [Add.self, Drop.self, List.self, Box.self] }

    enum Add: ShelfCommand {
        static let name = "add"
        static let summary = "Adds things."
        static let synopsis = "THING… [--tag T]"
        static let positionalCount = 1...10
        static let options = [OptionSpec("tag", short: "t", value: "T", help: "Label."), OptionSpec("json", help: "JSON.")]
    }

    enum Drop: ShelfCommand {
        static let name = "drop"
        static let summary = "Drops a thing."
        static let synopsis = "THING"
        static let positionalCount = 1...1
        static let options: [OptionSpec] = []
    }

    enum List: ShelfCommand {
        static let name = "list"
        static let summary = "Lists things."
        static let synopsis = "[--json]"
        static let options = [OptionSpec("json", help: "JSON.")]
    }

    enum Box: ShelfCommand {
        static let name = "box"
        static let summary = "Opens and closes the box."
        static let synopsis = "SUBCOMMAND"
        static let options: [OptionSpec] = []
        static var subcommands: [any Command.Type] { [Open.self] }

        enum Open: ShelfCommand {
            static let name = "open"
            static let summary = "Opens it."
            static let synopsis = "KEY"
            static let positionalCount = 1...1
            static let options = [OptionSpec("wide", help: "All the way.")]
        }
    }
}

@Suite("Subcommands: dispatch, help and errors from the declarations")
struct CommandPathTests {
    let shelf = CommandPath(Shelf.self)

    @Test("the first word picks the subcommand; the rest is parsed with its options and its parent's, before or after it")
    func dispatch() throws {
        let added = try shelf.parse(["add", "pen", "-t", "blue", "cup"])
        #expect(added.path.name == "shelf add" && added.path.command == Shelf.Add.self)
        #expect(added.arguments.positionals == ["pen", "cup"] && added.arguments.value("tag") == "blue")
        for arguments in [["--shelf", "d", "drop", "pen"], ["drop", "pen", "--shelf", "d"], ["drop", "--shelf=d", "pen"]] {
            let dropped = try shelf.parse(arguments)
            #expect(dropped.path.name == "shelf drop" && dropped.arguments.value("shelf") == "d", "\(arguments)")
            #expect(dropped.arguments.positionals == ["pen"], "\(arguments)")
        }
        // A parent option's value is never taken for the subcommand, even when it is one's name.
        let named = try shelf.parse(["--shelf", "add", "list"])
        #expect(named.path.name == "shelf list" && named.arguments.value("shelf") == "add")
        let nested = try shelf.parse(["box", "--shelf", "d", "open", "k", "--wide"])
        #expect(nested.path.name == "shelf box open" && nested.arguments.flag("wide") && nested.arguments.positionals == ["k"])
        #expect(nested.arguments.value("shelf") == "d")
    }

    @Test("each subcommand counts its own positional arguments")
    func positionals() {
        #expect(throws: UsageError(message: "missing argument", command: "shelf drop")) { try shelf.parse(["drop"]) }
        #expect(throws: UsageError(message: "unexpected argument 'b'", command: "shelf drop")) { try shelf.parse(["drop", "a", "b"]) }
    }

    @Test("an unknown or missing subcommand is a usage error naming the subcommands")
    func unknownSubcommand() {
        #expect(throws: UsageError(message: "unknown subcommand 'frob'; expected add, drop, list or box", command: "shelf")) {
            try shelf.parse(["--shelf", "d", "frob"])
        }
        #expect(throws: UsageError(message: "missing subcommand; expected add, drop, list or box", command: "shelf")) {
            try shelf.parse(["--shelf", "d"])
        }
        #expect(throws: UsageError(message: "missing subcommand; expected open", command: "shelf box")) { try shelf.parse(["box"]) }
    }

    @Test("an option of another subcommand is refused, naming the subcommands that take it; an unknown one stays unknown")
    func misplacedOption() {
        #expect(throws: UsageError(message: "--tag is for shelf add", command: "shelf drop")) { try shelf.parse(["drop", "pen", "-t", "x"]) }
        #expect(throws: UsageError(message: "--json is for shelf add and list", command: "shelf drop")) {
            try shelf.parse(["--json", "drop", "pen"])
        }
        #expect(throws: UsageError(message: "--wide is for shelf box open", command: "shelf")) { try shelf.parse(["--wide"]) }
        #expect(throws: UsageError(message: "unknown option '--bogus'", command: "shelf list")) { try shelf.parse(["list", "--bogus"]) }
    }

    @Test("--help asks for the help of the subcommand typed, or of the command when none is")
    func help() throws {
        let parent = try shelf.parse(["--help"])
        #expect(parent.arguments.wantsHelp && parent.path.name == "shelf")
        let child = try shelf.parse(["add", "--help"])
        #expect(child.arguments.wantsHelp && child.path.name == "shelf add")
        #expect(child.path.usage == """
            usage: tool shelf add THING… [--tag T]

            Adds things.

            options:
              -t, --tag T             Label.
              --json                  JSON.
              --shelf DIR             Where.
              -h, --help              Show this help.

            """)
    }

    @Test("the command's help lists every subcommand's synopsis and summary, and where their options are")
    func parentHelp() {
        #expect(shelf.usage == """
            usage: tool shelf [--shelf DIR] SUBCOMMAND
                   add THING… [--tag T]
                   drop THING
                   list [--json]
                   box open KEY

            Keeps things.

            subcommands:
              add         Adds things.
              drop        Drops a thing.
              list        Lists things.
              box         Opens and closes the box.

            options:
              --shelf DIR             Where.
              -h, --help              Show this help.

            Run 'tool shelf SUBCOMMAND --help' for a subcommand's options.

            """)
        #expect(shelf.descendant(named: "shelf box open")?.command == Shelf.Box.Open.self)
        #expect(shelf.descendant(named: "shelf open") == nil)
    }

    @Test("the manual and the completions list each subcommand with its own options")
    func reference() {
        let entry = ProgramReference.Entry(Shelf.self)
        #expect(entry.verbs == ["add", "drop", "list", "box"])
        #expect(entry.flattened.map(\.name) == ["shelf", "shelf add", "shelf drop", "shelf list", "shelf box", "shelf box open"])
        #expect(entry.flattened[1].options.map(\.name) == ["tag", "json", "shelf", "help"])
        let program = ProgramReference(name: "tool", summary: "A tool.", synopsis: ["COMMAND"], description: "Does things.",
                                       version: "1", options: [], commands: [entry])
        let page = ManualPage.render(program)
        #expect(page.contains(".SS \"tool shelf box open\"\n.nf\n\\fBtool shelf box open\\fR KEY\n.fi"), "\(page)")
        let bash = ShellCompletion.bash.script(for: program)
        #expect(bash.contains("\"shelf add\") options=\"--tag -t --json --shelf --help -h\"; verbs=\"\" ;;"), "\(bash)")
        #expect(bash.contains("\"shelf box\") options=\"--shelf --help -h\"; verbs=\"open\"; subcommands=1 ;;"), "\(bash)")
        let fish = ShellCompletion.fish.script(for: program)
        #expect(fish.contains("complete -c tool -n '_tool_at shelf box' -f -a open -d 'Opens it.'"), "\(fish)")
        #expect(fish.contains("complete -c tool -n '_tool_at shelf add' -s t -l tag -r -d 'Label.'"), "\(fish)")
        let zsh = ShellCompletion.zsh.script(for: program)
        #expect(zsh.contains("subcommands=('add:Adds things.' 'drop:Drops a thing.' 'list:Lists things.' 'box:Opens and closes the box.')"),
                "\(zsh)")
    }
}
