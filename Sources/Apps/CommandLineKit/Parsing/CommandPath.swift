import ViewfinderCore

/// A command as typed: the tool's command, then each subcommand chosen after it (`library`,
/// `album`, `create`). A subcommand type does not know its parent; the path does, so it can
/// name it, parse the parent's options with its own, and write its help.
public struct CommandPath {
    /// The outer commands, outermost first (empty for one of the tool's own commands).
    public let parents: [any Command.Type]
    /// The command the path ends in.
    public let command: any Command.Type

    /// The path of one of the tool's commands.
    public init(_ command: any Command.Type) {
        self.init(parents: [], command: command)
    }

    private init(parents: [any Command.Type], command: any Command.Type) {
        self.parents = parents
        self.command = command
    }

    /// The names after the tool's, as typed ("library import").
    public var name: String { (parents + [command]).map { $0.name }.joined(separator: " ") }

    /// Every option the command takes: its own, then those of the commands around it (innermost
    /// first), then `--help`.
    public var options: [OptionSpec] {
        (parents + [command]).reversed().flatMap { $0.options } + [OptionSpec("help", short: "h", help: N_("Show this help."))]
    }

    /// The paths of its subcommands, in the order it declares them.
    public var subcommands: [CommandPath] {
        command.subcommands.map { CommandPath(parents: parents + [command], command: $0) }
    }

    /// The paths below this one that do the work themselves (`library album create`), in order.
    public var leaves: [CommandPath] {
        subcommands.flatMap { $0.command.subcommands.isEmpty ? [$0] : $0.leaves }
    }

    /// The path below (or at) this one called `name` ("library album create"), if any.
    public func descendant(named name: String) -> CommandPath? {
        if self.name == name { return self }
        return subcommands.lazy.compactMap { $0.descendant(named: name) }.first
    }

    /// Parses `arguments` for this command: a command with subcommands takes its first word that
    /// is neither an option nor an option's value as the subcommand's name and parses the rest
    /// for it (options of the commands around it accepted too).
    public func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
        let children = subcommands
        guard !children.isEmpty else {
            do {
                return Invocation(path: self, arguments: try ParsedArguments(arguments, options: options,
                                                                              positionalCount: command.positionalCount, command: name))
            } catch {
                throw misplacedOption(in: arguments) ?? error
            }
        }
        guard let index = subcommandIndex(in: arguments) else {
            let parsed: ParsedArguments
            do {
                parsed = try ParsedArguments(arguments, options: options, positionalCount: 0...0, command: name)
            } catch {
                throw misplacedOption(in: arguments) ?? error
            }
            if parsed.wantsHelp { return Invocation(path: self, arguments: parsed) }
            throw missingSubcommand()
        }
        let word = arguments[index]
        guard let child = children.first(where: { $0.command.name == word }) else {
            throw UsageError(message: tr("unknown subcommand '{word}'; expected {choices}",
                                         ["word": word, "choices": choiceList(children.map { $0.command.name })]), command: name)
        }
        var rest = arguments
        rest.remove(at: index)
        return try child.parse(rest)
    }

    /// The usage error for a command called without the subcommand it needs.
    public func missingSubcommand() -> UsageError {
        UsageError(message: tr("missing subcommand; expected {choices}", ["choices": choiceList(subcommands.map { $0.command.name })]),
                   command: name)
    }

    /// Where the subcommand's name is: the first argument that is neither an option nor the
    /// value of one (an option of this command, of those around it or of any below it), or the
    /// one after `--`.
    private func subcommandIndex(in arguments: [String]) -> Int? {
        let known = options + allBelow.flatMap { $0.command.options }
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" { return index + 1 < arguments.count ? index + 1 : nil }
            if argument == "-" || !argument.hasPrefix("-") { return index }
            index += 1
            let takesValue: Bool
            if argument.hasPrefix("--") {
                takesValue = !argument.contains("=") && known.contains { $0.name == argument.dropFirst(2) && $0.value != nil }
            } else {
                takesValue = argument.count == 2 && known.contains { $0.short == argument.last && $0.value != nil }
            }
            if takesValue { index += 1 }
        }
        return nil
    }

    /// Every path below this one, subcommands with subcommands included.
    private var allBelow: [CommandPath] { subcommands.flatMap { [$0] + $0.allBelow } }

    /// For an option this command does not take but another of the tool's command's subcommands
    /// does: a usage error naming those (`--json is for library import, list, albums and check`).
    private func misplacedOption(in arguments: [String]) -> UsageError? {
        let own = options
        let root = CommandPath(parents.first ?? command)
        for argument in arguments {
            if argument == "--" { break }
            guard argument.hasPrefix("-"), argument != "-" else { continue }
            let typed = argument.hasPrefix("--") ? String(argument.dropFirst(2).prefix { $0 != "=" }) : nil
            func matches(_ option: OptionSpec) -> Bool {
                typed.map { option.name == $0 } ?? (argument.count == 2 && option.short == argument.last)
            }
            guard !own.contains(where: matches) else { continue }
            let takers = root.allBelow.filter { $0.command.options.contains(where: matches) }
            guard let spec = takers.first?.command.options.first(where: matches) else { continue }
            let names = takers.map { $0.name.dropFirst(root.name.count + 1) }.map(String.init)
            return UsageError(message: tr("{option} is for {commands}", ["option": "--\(spec.name)",
                                                                         "commands": root.name + " " + andList(names)]),
                              command: name)
        }
        return nil
    }
}

/// A command line parsed: the command it chose and its arguments.
public struct Invocation {
    /// The command chosen, with the commands around it.
    public let path: CommandPath
    /// Its options and positional arguments.
    public let arguments: ParsedArguments
}

/// Names as a person reads a choice between them ("photo, video or live"), the commas and the
/// "or" in the user's language.
public func choiceList(_ names: [String]) -> String {
    // TRANSLATORS: a choice between option values: {list} is "tonemap, clip", {last} "none".
    joinedList(names) { tr("{list} or {last}", ["list": $0, "last": $1]) }
}

/// Names as a person reads all of them ("import, list and check"), in the user's language.
public func andList(_ names: [String]) -> String {
    // TRANSLATORS: all of several subcommands: {list} is "import, list", {last} "check".
    joinedList(names) { tr("{list} and {last}", ["list": $0, "last": $1]) }
}

private func joinedList(_ names: [String], last join: (String, String) -> String) -> String {
    guard let first = names.first, let last = names.last else { return "" }
    guard names.count > 1 else { return last }
    var list = first
    for name in names.dropFirst().dropLast() {
        // TRANSLATORS: a list of option values one longer: {list} is "tonemap", {item} "clip".
        list = tr("{list}, {item}", ["list": list, "item": name])
    }
    return join(list, last)
}
