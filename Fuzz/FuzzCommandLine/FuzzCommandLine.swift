import CommandLineKit
import FuzzSupport

/// The input is an argv: arguments separated by NUL bytes, as the kernel hands them over.
///
/// The parser is table-driven and has no per-command code, so rather than import viewfinder's
/// commands (an executable nothing can link) this parses against one table holding every shape
/// their tables have — flags and valued options, with and without a one-letter alias, hyphenated
/// names, names that prefix others — under each positional range they use (none, exactly one,
/// one or more), then reads every option back the way the commands do: through its typed
/// declaration, one of each kind CommandLineKit offers.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let argv = UnsafeBufferPointer(start: bytes, count: size)
        .split(separator: 0, omittingEmptySubsequences: false)
        .map { String(decoding: $0, as: UTF8.self) }
    for range in RepresentativeCommand.positionalRanges {
        check(argv, positionalCount: range)
    }
    // The protocol's default parse.
    _ = try? RepresentativeCommand.parse(argv)
    checkSubcommands(argv)
    return 0
}

/// Parses `argv` as viewfinder's dispatcher does, for a command with subcommands (and one of
/// them with its own): whatever the words, the result is one of its paths or a usage error
/// about one of them.
private func checkSubcommands(_ argv: [String]) {
    let root = CommandPath(RepresentativeParent.self)
    do {
        let invocation = try root.parse(argv)
        precondition(root.descendant(named: invocation.path.name) != nil, "\(invocation.path.name) is no path of \(root.name)")
        precondition(invocation.arguments.wantsHelp || invocation.path.command.subcommands.isEmpty,
                     "\(invocation.path.name) chosen without its subcommand")
        precondition(invocation.arguments.positionals.count < argv.count || argv.isEmpty || invocation.path.name == root.name,
                     "the subcommand's name was left among its arguments")
    } catch {
        precondition(!error.message.isEmpty && root.descendant(named: error.command ?? "") != nil, "\(error)")
    }
}

/// Parses `argv` and checks what any successful parse must satisfy.
private func check(_ argv: [String], positionalCount: ClosedRange<Int>) {
    let options = RepresentativeCommand.options
    let arguments: ParsedArguments
    do {
        arguments = try ParsedArguments(argv, options: options, positionalCount: positionalCount,
                                        command: RepresentativeCommand.name)
    } catch {
        precondition(!error.message.isEmpty && error.command == RepresentativeCommand.name)
        return
    }
    precondition(arguments.wantsHelp || positionalCount.contains(arguments.positionals.count),
                 "\(arguments.positionals.count) positionals accepted for \(positionalCount)")
    precondition(arguments.positionals.count <= argv.count)
    for option in options {
        if option.value == nil {
            precondition(arguments.value(option.name) == nil, "flag --\(option.name) got a value")
        } else {
            precondition(!arguments.flag(option.name), "valued --\(option.name) read as a flag")
        }
    }
    // Every typed read gives its value or a usage error about this command; one not given
    // reads as its default, unless it is required.
    for option in RepresentativeCommand.declarations {
        let given = option.isGiven(in: arguments)
        do {
            try option.read(arguments)
        } catch {
            precondition(!error.message.isEmpty && error.command == RepresentativeCommand.name, "\(error)")
            precondition(given || error.message.hasSuffix("is required"), "--\(option.specs[0].name) refused while absent: \(error)")
        }
    }
}

/// A typed option read for its value's sake, whatever its type.
protocol ReadableOption: OptionDeclaration {
    func read(_ arguments: ParsedArguments) throws(UsageError)
}

extension TypedOption: ReadableOption {
    func read(_ arguments: ParsedArguments) throws(UsageError) {
        _ = try value(in: arguments)
    }
}

/// A command whose table has the shape of all of viewfinder's.
enum RepresentativeCommand: Command {
    static let toolName = "fuzz"
    static let name = "probe"
    static let summary = "Stands for every viewfinder command."
    static let synopsis = "INPUT [OPTIONS]"
    static let positionalCount = 1...1
    /// `sample`/`devices` take none, most commands one, `library` one to 10 000.
    static let positionalRanges: [ClosedRange<Int>] = [0...0, 1...1, 1...10_000]
    /// One option of each kind, with the names' shapes of viewfinder's tables.
    static let declarations: [any ReadableOption] = [
        TypedOption.requiredPath("output", short: "o", value: "OUT", help: "A required path with an alias."),
        TypedOption.flag("quiet", short: "q", help: "A flag with an alias."),
        TypedOption.flag("json", help: "A flag."),
        TypedOption.position("at", help: "A TIME."),
        TypedOption.text("max-size", value: "WxH", help: "A hyphenated text option."),
        SharedOption.maxDuration(help: "Another one sharing its prefix, in seconds.", zeroMeansNoLimit: true),
        TypedOption.integer("size", help: "A name that ends another's.", in: 16...4096, default: 512),
        TypedOption.flag("print-spec", help: "A hyphenated flag."),
        TypedOption<Int?>.integer("thumbnail-size", help: "A long, optional whole number.", in: 0...2048),
        TypedOption.integer("count", help: "A whole number.", in: 1...100, default: 6),
        TypedOption<ShellCompletion>.choice("shell", value: "SHELL", help: "A choice.", default: .bash),
        SharedOption.shape(value: "SHAPE", help: "The avatar's shape."),
        SharedOption.theme(dark: "Two flags read together.", light: "Its other flag."),
        TypedOption.seconds("wait", help: "Seconds.", .positive(upTo: 600)),
        TypedOption.repeated("keep", value: "A-B", help: "A repeated option."),
        TypedOption.path("folder", value: "DIR", help: "An optional path."),
    ]
    static let options = declarations.flatMap(\.specs)

    static func run(_ arguments: ParsedArguments) throws -> Int32 { 0 }
}

@main
enum Main {
    static func main() { FuzzInput.run(fuzz) }
}

/// A command with subcommands, in the shape of `library` (its own `--library`, verbs with
/// options of their own or shared with another verb, and `album` with actions of its own).
enum RepresentativeParent: Command {
    static let toolName = "fuzz"
    static let name = "parent"
    static let summary = "Stands for library."
    static let synopsis = "[--library DIR] SUBCOMMAND"
    static let options = [OptionSpec("library", value: "DIR", help: "The parent's valued option.")]
    static var subcommands: [any Command.Type] { [RepresentativeCommand.self, RepresentativeGroup.self] }
}

/// A subcommand with subcommands of its own (`library album`).
enum RepresentativeGroup: Command {
    static let toolName = "fuzz"
    static let name = "group"
    static let summary = "Stands for library album."
    static let synopsis = "SUBCOMMAND"
    static let options = [OptionSpec("json", help: "A flag another subcommand takes too.")]
    static var subcommands: [any Command.Type] { [RepresentativeCommand.self] }
}
