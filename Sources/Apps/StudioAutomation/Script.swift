import Foundation
import ViewfinderCore

/// A script as the driver plays it: its steps, each with the line it was written on. Every
/// line is checked before the first step runs, so a misspelt step fails at once.
public struct Script: Equatable, Sendable {
    /// One step of a script: the line it is on (from 1), its name and its arguments.
    public struct Line: Equatable, Sendable {
        /// The line number in the script, from 1.
        public let number: Int
        /// The step's name (one of `ScriptSteps.all`).
        public let command: String
        /// The words after the name.
        public let arguments: [String]

        /// A step named `command` on line `number`, with `arguments`.
        public init(number: Int, command: String, arguments: [String]) {
            self.number = number
            self.command = command
            self.arguments = arguments
        }
    }

    /// The steps, in order; blank and comment lines hold none.
    public let lines: [Line]

    /// Reads a script's text: a step a line, words split by spaces, `#` starting a comment.
    /// Throws, naming the line, when a line names no step.
    public init(parsing text: String) throws(ScriptError) {
        var lines: [Line] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let words = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first?
                .split(separator: " ").map(String.init) ?? []
            guard let command = words.first else { continue }
            guard ScriptSteps.named(command) != nil else {
                throw ScriptError("line \(index + 1): no step '\(command)' ('viewfinder-studio pick --help' lists them)")
            }
            lines.append(Line(number: index + 1, command: command, arguments: Array(words.dropFirst())))
        }
        self.lines = lines
    }

    /// Reads the script in the file at `url`.
    public init(contentsOf url: URL) throws(ScriptError) {
        // Read by hand: Foundation's own error reads "NSCocoaErrorDomain Code=259".
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw ScriptError("cannot read \(url.path) (it is missing, unreadable or a folder)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ScriptError("\(url.lastPathComponent) is not UTF-8 text")
        }
        try self.init(parsing: text)
    }
}

/// Why a script cannot be read or a step failed, in one line a person reads.
public struct ScriptError: Error, ReadableError, Equatable, Sendable {
    /// What went wrong.
    public let description: String

    /// An error saying `description`.
    public init(_ description: String) {
        self.description = description
    }
}
