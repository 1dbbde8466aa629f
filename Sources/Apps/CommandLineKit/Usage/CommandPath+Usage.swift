import ViewfinderCore

// MARK: - Help

extension CommandPath {
    /// The synopsis after `TOOL NAME`: the command's own, then, for a command with subcommands,
    /// one line per subcommand that does the work, with its synopsis (indented under the first).
    public var synopsis: String {
        let lines = leaves.map { leaf in
            let words = leaf.name.dropFirst(name.count + 1)
            return leaf.command.synopsis.isEmpty ? String(words) : "\(words) \(leaf.command.synopsis)"
        }
        return ([command.synopsis] + lines.map { String(repeating: " ", count: 7) + $0 }).joined(separator: "\n")
    }

    /// The `--help` text in the user's language: usage line, summary, discussion, the
    /// subcommands with their summaries, and one aligned line per option.
    public var usage: String {
        var text = usageLine(synopsis) + "\n\n" + tr(command.summary) + "\n"
        let discussion = tr(command.discussion)
        if !discussion.isEmpty { text += "\n\(discussion)\n" }
        let children = subcommands
        if !children.isEmpty {
            let width = max(12, (children.map { $0.command.name.count }.max() ?? 0) + 2)
            // TRANSLATORS: the heading over a command's subcommands in --help ("library import", "library list").
            text += "\n" + tr("subcommands:") + "\n"
            text += children.map { "  " + $0.command.name.padded(toColumns: width) + tr($0.command.summary) + "\n" }.joined()
        }
        // TRANSLATORS: the heading over a command's options in --help.
        text += "\n" + tr("options:") + "\n" + OptionSpec.helpLines(options)
        if !children.isEmpty {
            text += "\n" + tr("Run '{command} SUBCOMMAND --help' for a subcommand's options.", ["command": "\(command.toolName) \(name)"]) + "\n"
        }
        return text
    }

    /// What follows a usage error: the usage line (the command's own synopsis, without its
    /// subcommands') and where the rest is (the whole help would bury the one line that says
    /// what was wrong).
    public var shortUsage: String {
        usageLine(command.synopsis) + "\n"
            + tr("Run '{command} --help' for its options and what they do.", ["command": "\(command.toolName) \(name)"]) + "\n"
    }

    /// "usage: TOOL NAME SYNOPSIS". A synopsis of several lines indents the later ones by seven
    /// spaces, under its first line as it follows the English "usage: "; they are moved to
    /// stay under it when the heading is translated.
    func usageLine(_ synopsis: String) -> String {
        // TRANSLATORS: starts the line that shows how to call a command ("usage: viewfinder info FILE").
        let heading = tr("usage:") + " "
        let lines = [command.toolName, name, synopsis].filter { !$0.isEmpty }.joined(separator: " ").split(separator: "\n", omittingEmptySubsequences: false)
        let englishIndent = String(repeating: " ", count: 7)
        let indent = String(repeating: " ", count: heading.terminalColumns)
        return heading + lines.enumerated().map { index, line in
            guard index > 0 else { return String(line) }
            return line.hasPrefix(englishIndent) ? indent + line.dropFirst(englishIndent.count) : String(line)
        }.joined(separator: "\n")
    }
}
