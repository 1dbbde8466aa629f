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

    static func bash(_ program: ProgramReference) -> String {
        let name = function(program)
        var lines = ["# bash completion for \(program.name), made by `\(program.name) --completions bash`.",
                     "\(name)() {",
                     "    local cur=\"${COMP_WORDS[COMP_CWORD]}\" command=\"\" i",
                     "    for ((i = 1; i < COMP_CWORD; i++)); do",
                     "        case \"${COMP_WORDS[i]}\" in",
                     "            \(program.commands.isEmpty ? "''" : program.commands.map(\.name).joined(separator: "|"))) command=\"${COMP_WORDS[i]}\"; break ;;",
                     "        esac",
                     "    done",
                     "    local options=\"\(words(program.options))\" verbs=\"\"",
                     "    case \"$command\" in"]
        for command in program.commands {
            lines.append("        \(command.name)) options=\"\(words(command.options))\"; verbs=\"\(command.verbs.joined(separator: " "))\" ;;")
        }
        lines += ["    esac",
                  "    if [[ \"$cur\" == -* ]]; then",
                  "        COMPREPLY=($(compgen -W \"$options\" -- \"$cur\"))",
                  "    elif [[ -z \"$command\" ]]; then",
                  "        COMPREPLY=($(compgen -W \"\(program.commands.map(\.name).joined(separator: " "))\" -- \"$cur\") $(compgen -f -- \"$cur\"))",
                  "    elif [[ -n \"$verbs\" && \"${COMP_WORDS[COMP_CWORD - 1]}\" == \"$command\" ]]; then",
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

    static func zsh(_ program: ProgramReference) -> String {
        let name = function(program)
        var lines = ["#compdef \(program.name)", "# zsh completion for \(program.name), made by `\(program.name) --completions zsh`.",
                     "\(name)() {", "    local -a commands", "    commands=("]
        // `_describe` splits each entry at its first colon only: the summary keeps its own.
        lines += program.commands.map { "        '\($0.name):" + tr($0.summary).replacing("'", with: "'\\''") + "'" }
        lines += ["    )", "    local command=\"\" word", "    for word in ${words[2,CURRENT-1]}; do",
                  "        if (( ${commands[(I)$word:*]} )); then command=$word; break; fi", "    done",
                  "    case $command in"]
        for command in program.commands {
            let verbs = command.verbs.isEmpty ? "'*:file:_files'" : "'1:subcommand:(\(command.verbs.joined(separator: " ")))' '*:file:_files'"
            lines.append("        \(command.name)) _arguments -s \(zshSpecs(command.options).joined(separator: " ")) \(verbs) ;;")
        }
        let top = zshSpecs(program.options).joined(separator: " ")
        let commandWord = program.commands.isEmpty ? "" : " '1:command:->command'"
        lines += ["        *) _arguments -s \(top)\(commandWord) '*:file:_files' && return",
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
        let names = program.commands.map(\.name).joined(separator: " ")
        var lines = ["# fish completion for \(program.name), made by `\(program.name) --completions fish`."]
        let noCommand = program.commands.isEmpty ? "true" : "not __fish_seen_subcommand_from \(names)"
        for command in program.commands {
            lines.append("complete -c \(program.name) -n \(fishText(noCommand)) -f -a \(command.name) -d " + fishText(tr(command.summary)))
        }
        lines += fishOptions(program.options, program: program.name, condition: noCommand)
        for command in program.commands {
            let seen = "__fish_seen_subcommand_from \(command.name)"
            if !command.verbs.isEmpty {
                let noVerb = "\(seen); and not __fish_seen_subcommand_from \(command.verbs.joined(separator: " "))"
                lines.append("complete -c \(program.name) -n \(fishText(noVerb)) -f -a \(fishText(command.verbs.joined(separator: " ")))")
            }
            lines += fishOptions(command.options, program: program.name, condition: seen)
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
