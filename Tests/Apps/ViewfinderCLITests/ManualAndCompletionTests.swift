import Foundation
import Testing
import ViewfinderTestSupport

/// The manual pages and shell completions are made by the programs from the option tables their
/// parsers use; these tests hold them to the parsers.
@Suite("manual pages and shell completions")
struct ManualAndCompletionTests {
    /// groff's rendering of a roff page (with every warning on), from a file.
    static func groff(_ page: Data) throws -> RunResult {
        let file = TestPaths.scratchFolder("manual").appendingPathComponent("page.1")
        try page.write(to: file)
        return try Subprocess.run("groff", ["-man", "-T", "utf8", "-ww", file.path])
    }

    /// The command names `viewfinder --help` lists.
    static func commands() throws -> [String] {
        let help = try viewfinder("--help").stdout
        let block = help.components(separatedBy: "commands:\n").dropFirst().first?.components(separatedBy: "\n\n").first ?? ""
        return block.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) }
    }

    /// The long options a `--help` text lists, as "--name": its option lines (indented, starting
    /// with "-") after the first "options" heading ("options:", or "options (media):" for pick).
    static func helpOptions(_ help: String) -> Set<String> {
        let block = help.components(separatedBy: "\noptions").dropFirst().joined()
        return Set(block.split(separator: "\n").filter { $0.hasPrefix("  -") }.compactMap { line in
            line.split(separator: " ").first { $0.hasPrefix("--") }.map { String($0) }
        })
    }

    /// The long options of each `.SS "PROGRAM COMMAND"` section of a roff page (the heads of its
    /// `.TP` items), by command; "" for the OPTIONS section.
    static func manualOptions(_ page: String, program: String) -> [String: Set<String>] {
        var result: [String: Set<String>] = [:]
        var section = "", previousWasTP = false
        // The page writes every "-" as roff's minus, "\-".
        let heading = ".SS \"\(program.replacingOccurrences(of: "-", with: "\\-")) "
        for line in page.split(separator: "\n").map(String.init) {
            if line.hasPrefix(heading) {
                section = String(line.dropFirst(heading.count).dropLast())
            } else if previousWasTP, let start = line.range(of: "\\fB\\-\\-"),
                      let end = line.range(of: "\\fR", range: start.upperBound..<line.endIndex) {
                let name = line[start.upperBound..<end.lowerBound].replacingOccurrences(of: "\\-", with: "-")
                result[section, default: []].insert("--" + name)
            }
            previousWasTP = line == ".TP"
        }
        return result
    }

    @Test("viewfinder(1): groff renders it without a warning, every command has its section, each with exactly the options its parser takes")
    func manual() throws {
        let page = try viewfinder("--man")
        #expect(page.status == 0)
        let rendered = try Self.groff(page.stdoutData)
        #expect(rendered.status == 0 && rendered.stderr.isEmpty, "\(rendered.stderr)")
        for heading in ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "COMMANDS", "EXIT STATUS", "SEE ALSO"] {
            // groff makes bold text on a terminal by overstriking each letter (not the spaces).
            let bold = String(heading.flatMap { $0 == " " ? [$0] : [$0, "\u{8}", $0] })
            #expect(rendered.stdout.contains(bold), "\(heading)")
        }
        // Subcommands ("library import") have sections of their own, checked in `subcommandManual`.
        let sections = Self.manualOptions(page.stdout, program: "viewfinder").filter { !$0.key.contains(" ") }
        let commands = try Self.commands()
        #expect(commands.count >= 12 && Set(sections.keys) == Set(commands + [""]), "\(sections.keys.sorted()) vs \(commands)")
        #expect(sections[""] == ["--help", "--version", "--man", "--completions"])
        let scratch = TestPaths.scratchFolder("manual-options")
        for command in commands {
            let help = try viewfinder(command, "--help").stdout
            #expect(sections[command] == Self.helpOptions(help), "\(command)")
            // Each option the page lists is one the parser takes (an unknown one is a usage
            // error naming it, whatever else is missing).
            for option in sections[command] ?? [] where option != "--help" {
                let run = try Subprocess.run("sh", ["-c", "cd \"$0\" && exec \"$1\" \"$2\" \"$3\" x", scratch.path,
                                                    TestPaths.tool.path, command, option])
                #expect(!run.stderr.contains("unknown option"), "\(command) \(option): \(run.stderr)")
            }
        }
    }

    /// The subcommand names `viewfinder COMMAND… --help` lists.
    static func subcommands(_ path: String...) throws -> [String] {
        let help = try viewfinder(path + ["--help"]).stdout
        let block = help.components(separatedBy: "subcommands:\n").dropFirst().first?.components(separatedBy: "\n\n").first ?? ""
        return block.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) }
    }

    @Test("viewfinder(1): each library subcommand has its own section, with exactly the options its --help lists")
    func subcommandManual() throws {
        let sections = Self.manualOptions(try viewfinder("--man").stdout, program: "viewfinder")
        let verbs = try Self.subcommands("library")
        #expect(verbs == ["init", "import", "list", "albums", "album", "thumbnail", "cover", "export", "delete", "check"])
        let albumVerbs = try Self.subcommands("library", "album")
        #expect(albumVerbs == ["create", "rename", "delete", "add", "remove"])
        let paths = verbs.map { ["library", $0] } + albumVerbs.map { ["library", "album", $0] }
        #expect(Set(sections.keys.filter { $0.hasPrefix("library ") }) == Set(paths.map { $0.joined(separator: " ") }))
        for path in paths {
            let help = try viewfinder(path + ["--help"])
            #expect(help.status == 0 && help.stdout.hasPrefix("usage: viewfinder \(path.joined(separator: " "))"), "\(path)")
            #expect(sections[path.joined(separator: " ")] == Self.helpOptions(help.stdout), "\(path)")
        }
        #expect(sections["library import"]?.isSuperset(of: ["--album", "--move", "--library", "--json"]) == true)
        #expect(sections["library delete"] == ["--library", "--help"])
    }

    @Test("viewfinder-studio(1): renders cleanly and lists the app's options and pick's")
    func studioManual() throws {
        let page = try Subprocess.run(TestPaths.studio, ["--man"])
        #expect(page.status == 0)
        let rendered = try Self.groff(page.stdoutData)
        #expect(rendered.status == 0 && rendered.stderr.isEmpty, "\(rendered.stderr)")
        let sections = Self.manualOptions(page.stdout, program: "viewfinder-studio")
        let help = try Subprocess.run(TestPaths.studio, ["--help"]).stdout
        #expect(sections[""] == Self.helpOptions(help))
        let pickHelp = try Subprocess.run(TestPaths.studio, ["pick", "--help"]).stdout
        #expect(sections["pick"] == Self.helpOptions(pickHelp).union(["--help"]), "\(sections["pick"] ?? [])")
    }

    @Test("bash completes commands, each command's options, library's and capture's subcommands, and files")
    func bash() throws {
        let script = try viewfinder("--completions", "bash").stdout
        let folder = TestPaths.scratchFolder("completion")
        let file = folder.appendingPathComponent("viewfinder.bash")
        try script.write(to: file, atomically: true, encoding: .utf8)
        /// What `_viewfinder` offers for the words typed so far (the last one being completed).
        func complete(_ words: [String]) throws -> Set<String> {
            let quoted = words.map { "'\($0)'" }.joined(separator: " ")
            let run = try Subprocess.run("bash", ["-c", "cd '\(folder.path)' && source '\(file.path)'; COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _viewfinder; printf '%s\\n' \"${COMPREPLY[@]}\""])
            #expect(run.status == 0, "\(run.stderr)")
            return Set(run.stdout.split(separator: "\n").map(String.init))
        }
        let commands = try Self.commands()
        #expect(try complete(["viewfinder", ""]).isSuperset(of: commands))
        #expect(try complete(["viewfinder", "li"]) == ["library"])
        #expect(try complete(["viewfinder", "--"]) == ["--help", "--version", "--man", "--completions"])
        for command in commands {
            let help = try viewfinder(command, "--help").stdout
            let offered = try complete(["viewfinder", command, "--"])
            #expect(offered == Self.helpOptions(help), "\(command)")
        }
        #expect(try complete(["viewfinder", "library", "ex"]) == ["export"])
        // A subcommand's own options, and its command's; the subcommands after an option's value too.
        for verb in try Self.subcommands("library") {
            let help = try viewfinder("library", verb, "--help").stdout
            #expect(try complete(["viewfinder", "library", verb, "--"]) == Self.helpOptions(help), "library \(verb)")
        }
        #expect(try complete(["viewfinder", "library", "--library", "Lib", "al"]) == ["albums", "album"])
        #expect(try complete(["viewfinder", "library", "album", "re"]) == ["rename", "remove"])
        #expect(try complete(["viewfinder", "library", "thumbnail", "1", "--"]).contains("--fill"))
        #expect(!(try complete(["viewfinder", "library", "export", "1", "--"]).contains("--fill")))
        #expect(try complete(["viewfinder", "capture", ""]) == ["photo", "video"])
        // After the subcommand, files.
        try Data().write(to: folder.appendingPathComponent("clip.mp4"))
        #expect(try complete(["viewfinder", "cover", "cl"]) == ["clip.mp4"])
    }

    @Test("the zsh and fish scripts are valid for their shells; an unknown shell is a usage error", arguments: ["zsh", "fish"])
    func otherShells(_ shell: String) throws {
        for program in [TestPaths.tool, TestPaths.studio] {
            let script = try Subprocess.run(program, ["--completions", shell])
            #expect(script.status == 0)
            let file = TestPaths.scratchFolder("completion-\(shell)").appendingPathComponent("script")
            try script.stdoutData.write(to: file)
            let checked = try Subprocess.run(shell, ["-n", file.path])
            #expect(checked.status == 0 && checked.stderr.isEmpty, "\(program.lastPathComponent) \(shell): \(checked.stderr)")
        }
        let bad = try viewfinder("--completions", "tcsh")
        #expect(bad.status == 2 && bad.stderr.hasPrefix("viewfinder: --completions takes bash, zsh or fish\n"))
    }
}
