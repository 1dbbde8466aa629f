import ViewfinderCore

/// Shell completion scripts for a program, from its `ProgramReference`: its commands and each
/// command's options (and subcommands) complete after their command, files elsewhere. The
/// descriptions zsh and fish show are in the user's language (`make install` renders the
/// scripts in C.UTF-8: English).
public enum ShellCompletion: String, Sendable, CaseIterable {
    case bash, zsh, fish

    /// The script for this shell. bash: source it (`make install` puts it in
    /// `share/bash-completion/completions/PROGRAM`); zsh: `_PROGRAM` in a folder of `$fpath`
    /// (`share/zsh/vendor-completions`); fish: `share/fish/vendor_completions.d/PROGRAM.fish`.
    public func script(for program: ProgramReference) -> String {
        switch self {
        case .bash: Self.bash(program)
        case .zsh: Self.zsh(program)
        case .fish: Self.fish(program)
        }
    }

    static func words(_ options: [OptionSpec]) -> String {
        options.flatMap { option in ["--\(option.name)"] + (option.short.map { ["-\($0)"] } ?? []) }.joined(separator: " ")
    }

    /// A shell function name made of the program's name (letters, digits and _ only).
    static func function(_ program: ProgramReference) -> String {
        "_" + String(program.name.map { $0.isLetter || $0.isNumber ? $0 : "_" })
    }

    /// Every command and subcommand, depth first.
    static func entries(_ program: ProgramReference) -> [ProgramReference.Entry] {
        program.commands.flatMap(\.flattened)
    }

    /// The case patterns that extend the command path typed so far by one word: "/library" for
    /// a command, "library/import" for a subcommand, each in double quotes.
    static func pathPatterns(_ program: ProgramReference) -> String {
        let patterns = entries(program).map { entry -> String in
            let words = entry.name.split(separator: " ")
            return "\"" + words.dropLast().joined(separator: " ") + "/" + (words.last.map(String.init) ?? "") + "\""
        }
        return patterns.isEmpty ? "''" : patterns.joined(separator: "|")
    }

    static func bash(_ program: ProgramReference) -> String {
        let name = function(program)
        var lines = ["# bash completion for \(program.name), made by `\(program.name) --completions bash`.",
                     "\(name)() {",
                     "    local cur=\"${COMP_WORDS[COMP_CWORD]}\" path=\"\" i",
                     "    for ((i = 1; i < COMP_CWORD; i++)); do",
                     "        case \"$path/${COMP_WORDS[i]}\" in",
                     "            \(pathPatterns(program))) path=\"${path:+$path }${COMP_WORDS[i]}\" ;;",
                     "        esac",
                     "    done",
                     "    local options=\"\(words(program.options))\" verbs=\"\" subcommands=\"\"",
                     "    case \"$path\" in"]
        for entry in entries(program) {
            let subcommands = entry.subcommands.isEmpty ? "" : "; subcommands=1"
            lines.append("        \"\(entry.name)\") options=\"\(words(entry.options))\"; verbs=\"\(entry.verbs.joined(separator: " "))\"\(subcommands) ;;")
        }
        // Words that choose a subcommand complete after the command, or after any argument that
        // is not an option waiting for its value; other verbs only right after the command.
        let previous = "\"${COMP_WORDS[COMP_CWORD - 1]}\""
        lines += ["    esac",
                  "    if [[ \"$cur\" == -* ]]; then",
                  "        COMPREPLY=($(compgen -W \"$options\" -- \"$cur\"))",
                  "    elif [[ -z \"$path\" ]]; then",
                  "        COMPREPLY=($(compgen -W \"\(program.commands.map(\.name).joined(separator: " "))\" -- \"$cur\") $(compgen -f -- \"$cur\"))",
                  "    elif [[ -n \"$verbs\" && ( \(previous) == \"${path##* }\" || ( -n \"$subcommands\" && \(previous) != -* ) ) ]]; then",
                  "        COMPREPLY=($(compgen -W \"$verbs\" -- \"$cur\"))",
                  "    else",
                  "        COMPREPLY=($(compgen -f -- \"$cur\"))",
                  "    fi",
                  "}",
                  "complete -o filenames -F \(name) \(program.name)"]
        return lines.joined(separator: "\n") + "\n"
    }

    /// Text inside a zsh `_arguments` spec in single quotes: no quote, bracket or colon left bare.
    static func zshText(_ text: String) -> String {
        text.replacing("'", with: "'\\''").replacing("[", with: "(").replacing("]", with: ")").replacing(":", with: "\\:")
    }

    static func zshSpecs(_ options: [OptionSpec]) -> [String] {
        options.map { option in
            let value = option.value.map { ":\(zshText($0)):_files" } ?? ""
            let help = "[" + zshText(tr(option.help)) + "]"
            if let short = option.short {
                return "'(-\(short) --\(option.name))'{-\(short),--\(option.name)}'\(help)\(value)'"
            }
            return "'--\(option.name)\(help)\(value)'"
        }
    }

    /// A zsh `_describe` entry in single quotes: "name:summary" (it splits at the first colon
    /// only, so the summary keeps its own).
    static func zshDescribed(_ name: String, _ summary: String) -> String {
        "'\(name):" + tr(summary).replacing("'", with: "'\\''") + "'"
    }

    static func zsh(_ program: ProgramReference) -> String {
        let name = function(program)
        var lines = ["#compdef \(program.name)", "# zsh completion for \(program.name), made by `\(program.name) --completions zsh`.",
                     "\(name)() {", "    local -a commands", "    commands=("]
        lines += program.commands.map { "        " + zshDescribed($0.name, $0.summary) }
        lines += ["    )", "    local cmdpath=\"\" word", "    for word in ${words[2,CURRENT-1]}; do",
                  "        case \"$cmdpath/$word\" in",
                  "            (\(pathPatterns(program))) cmdpath=\"${cmdpath:+$cmdpath }$word\" ;;",
                  "        esac", "    done",
                  "    case $cmdpath in"]
        for entry in entries(program) {
            let specs = zshSpecs(entry.options).joined(separator: " ")
            if !entry.subcommands.isEmpty {
                let described = entry.subcommands.map { zshDescribed(String($0.name.split(separator: " ").last ?? ""), $0.summary) }
                lines += ["        (\"\(entry.name)\") local -a subcommands", "            subcommands=(\(described.joined(separator: " ")))",
                          "            _arguments -s \(specs) '*::subcommand:->subcommand' && return",
                          "            [[ $state == subcommand ]] && _describe subcommand subcommands ;;"]
            } else if let last = entry.name.split(separator: " ").last, !entry.verbs.isEmpty {
                // Words the command reads itself complete right after it, as bash offers them.
                lines += ["        (\"\(entry.name)\") if [[ $words[CURRENT-1] == \(last) && $PREFIX != -* ]]; then",
                          "                compadd -- \(entry.verbs.joined(separator: " "))",
                          "            else",
                          "                _arguments -s \(specs) '*:file:_files'",
                          "            fi ;;"]
            } else {
                lines.append("        (\"\(entry.name)\") _arguments -s \(specs) '*:file:_files' ;;")
            }
        }
        let top = zshSpecs(program.options).joined(separator: " ")
        let commandWord = program.commands.isEmpty ? "" : " '1:command:->command'"
        lines += ["        (*) _arguments -s \(top)\(commandWord) '*:file:_files' && return",
                  "           [[ $state == command ]] && _describe command commands ;;",
                  "    esac", "}", "\(name) \"$@\""]
        return lines.joined(separator: "\n") + "\n"
    }

    /// A fish single-quoted string: backslashes and quotes escaped.
    static func fishText(_ text: String) -> String {
        "'" + text.replacing("\\", with: "\\\\").replacing("'", with: "\\'") + "'"
    }

    static func fishOptions(_ options: [OptionSpec], program: String, condition: String) -> [String] {
        options.map { option in
            var line = "complete -c \(program) -n \(fishText(condition))"
            if let short = option.short { line += " -s \(short)" }
            line += " -l \(option.name)"
            if option.value != nil { line += " -r" }
            return line + " -d " + fishText(tr(option.help))
        }
    }

    static func fish(_ program: ProgramReference) -> String {
        let at = function(program) + "_at"
        // The command path typed so far ("library import"), compared with the words given.
        var lines = ["# fish completion for \(program.name), made by `\(program.name) --completions fish`.",
                     "function \(at)",
                     "    set -l words (commandline -opc)",
                     "    set -e words[1]",
                     "    set -l path ''",
                     "    for word in $words",
                     "        switch \"$path/$word\"",
                     "            case \(entries(program).isEmpty ? "''" : pathPatterns(program).replacing("|", with: " "))",
                     "                set path (string trim -- \"$path $word\")",
                     "        end",
                     "    end",
                     "    test \"$path\" = \"$argv\"",
                     "end"]
        for command in program.commands {
            lines.append("complete -c \(program.name) -n \(fishText(at)) -f -a \(command.name) -d " + fishText(tr(command.summary)))
        }
        lines += fishOptions(program.options, program: program.name, condition: at)
        for entry in entries(program) {
            let here = "\(at) \(entry.name)"
            for subcommand in entry.subcommands {
                let word = String(subcommand.name.split(separator: " ").last ?? "")
                lines.append("complete -c \(program.name) -n \(fishText(here)) -f -a \(word) -d " + fishText(tr(subcommand.summary)))
            }
            if entry.subcommands.isEmpty && !entry.verbs.isEmpty {
                let noVerb = "\(here); and not __fish_seen_subcommand_from \(entry.verbs.joined(separator: " "))"
                lines.append("complete -c \(program.name) -n \(fishText(noVerb)) -f -a \(fishText(entry.verbs.joined(separator: " ")))")
            }
            lines += fishOptions(entry.options, program: program.name, condition: here)
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
