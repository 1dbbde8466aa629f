import Foundation

extension String {
    /// The text as it may reach a terminal: control characters (escape sequences, carriage
    /// returns, line breaks, tabs) and the invisible direction overrides a file name can hold
    /// are written as escapes (`\n`, `\e`, `\u{202E}`), so a name cannot redraw the screen or
    /// pass for two lines, and a backslash is doubled so the escapes are unambiguous.
    /// `keepingLineBreaks` leaves `\n` and backslashes alone (for messages of several lines).
    func printable(keepingLineBreaks: Bool = false) -> String {
        var out = ""
        for scalar in unicodeScalars {
            switch scalar {
            case "\n" where keepingLineBreaks: out.unicodeScalars.append(scalar)
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case "\u{1B}": out += "\\e"
            case "\\" where !keepingLineBreaks: out += "\\\\"
            case _ where scalar.properties.generalCategory == .control
                || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
                || scalar.value == 0x2028 || scalar.value == 0x2029:
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
