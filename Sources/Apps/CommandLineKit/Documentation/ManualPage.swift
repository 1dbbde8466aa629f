import ViewfinderCore

/// A program's manual page, in roff with the man(7) macros, from its `ProgramReference`; its
/// texts are in the user's language (`make install` renders it in C.UTF-8: English), its
/// section headings and option names as man(7) and the parser have them.
public enum ManualPage {
    /// The page for section 1: NAME, SYNOPSIS, DESCRIPTION, OPTIONS, one COMMANDS subsection per
    /// command and per subcommand after its command's (its usage, summary, paragraphs and
    /// options), EXIT STATUS and SEE ALSO.
    public static func render(_ program: ProgramReference) -> String {
        let summary = tr(program.summary)
        var page = [".TH \(quoted(program.name.uppercased())) 1 \"\" \(quoted("\(program.name) \(program.version)")) \"User Commands\"",
                    ".SH NAME", "\(escape(program.name)) \\- \(escape(summary))", ".SH SYNOPSIS"]
        for line in program.synopsis {
            page += [".B \(escape(program.name))", escape(line), ".br"]
        }
        page += [".SH DESCRIPTION"] + paragraphs(tr(program.description))
        if !program.options.isEmpty {
            page += [".SH OPTIONS"] + options(program.options)
        }
        if !program.commands.isEmpty {
            page.append(".SH COMMANDS")
            for command in program.commands.flatMap(\.flattened) {
                page += [".SS \(quoted("\(program.name) \(command.name)"))", ".nf"]
                page += command.synopsis.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map { index, line in
                    index == 0 ? "\\fB\(escape(program.name)) \(escape(command.name))\\fR \(escape(String(line)))"
                               : escape(String(line))
                }
                page += [".fi"] + paragraphs(tr(command.summary)) + paragraphs(tr(command.discussion)) + options(command.options)
            }
        }
        if !program.exitStatus.isEmpty {
            page += [".SH \"EXIT STATUS\""] + paragraphs(tr(program.exitStatus))
        }
        if !program.seeAlso.isEmpty {
            page += [".SH \"SEE ALSO\"", program.seeAlso.map { reference in
                guard let open = reference.firstIndex(of: "(") else { return escape(reference) }
                return "\\fB\(escape(String(reference[..<open])))\\fR\(escape(String(reference[open...])))"
            }.joined(separator: ", ")]
        }
        return page.joined(separator: "\n") + "\n"
    }

    /// One `.TP` item per option: `-x, --name VALUE` in bold (the value in italics), then its help.
    static func options(_ options: [OptionSpec]) -> [String] {
        options.flatMap { option -> [String] in
            var head = "\\fB\\-\\-\(escape(option.name))\\fR"
            if let short = option.short { head = "\\fB\\-\(escape(String(short)))\\fR, " + head }
            if let value = option.value { head += " \\fI\(escape(value))\\fR" }
            return [".TP", head, escape(tr(option.help))]
        }
    }

    /// Text split at blank lines into `.PP` paragraphs (roff refills each paragraph's lines).
    static func paragraphs(_ text: String) -> [String] {
        var lines: [String] = []
        var pending = false
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = String(raw).trimmed()
            if line.isEmpty { pending = true; continue }
            if pending || lines.isEmpty { lines.append(".PP"); pending = false }
            lines.append(escape(line))
        }
        return lines
    }

    /// `text` safe in roff: backslashes written as `\e`, minus signs as `\-` (so an option
    /// copied from the page is typed right), characters beyond ASCII as `\[uXXXX]` (groff reads
    /// its input as Latin-1 unless told otherwise), and a line that would start with a control
    /// character (`.` or `'`) guarded with `\&`.
    static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\e"
            case "-": out += "\\-"
            case _ where scalar.value > 0x7E:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
            default: out.unicodeScalars.append(scalar)
            }
        }
        if out.hasPrefix(".") || out.hasPrefix("'") { out = "\\&" + out }
        return out
    }

    /// A macro argument in double quotes (a double quote inside doubled, as groff reads it).
    static func quoted(_ text: String) -> String {
        "\"" + escape(text).replacing("\"", with: "\"\"") + "\""
    }
}

extension String {
    /// The text without spaces and tabs at either end.
    fileprivate func trimmed() -> String {
        var slice = Substring(self)
        while let first = slice.first, first == " " || first == "\t" { slice = slice.dropFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice = slice.dropLast() }
        return String(slice)
    }
}
