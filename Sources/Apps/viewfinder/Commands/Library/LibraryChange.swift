import CommandLineKit
import Foundation
import MediaLibrary
import ViewfinderCore

/// A `library` verb that makes one change with the words typed after it and prints nothing
/// (`delete`, `album create` …): its declaration is one `LibraryChange`, its shape this one.
protocol LibraryChangeCommand: LibrarySubcommand {
    /// What the verb is called, takes and does.
    static var change: LibraryChange { get }
}

/// One change a `library` verb makes: its name, help and arguments, and the call on the library.
struct LibraryChange: Sendable {
    /// The verb, as typed.
    let name: String
    /// One line, as `Command.summary` is written.
    let summary: String
    /// Its arguments, as `Command.synopsis` is written.
    let synopsis: String
    /// How many words it takes.
    let positionalCount: ClosedRange<Int>
    /// The change, made with the words typed.
    let apply: @Sendable (MediaLibrary, ParsedArguments) throws -> Void
}

// MARK: - Defaults

extension LibraryChangeCommand {
    static var name: String { change.name }
    static var summary: String { change.summary }
    static var synopsis: String { change.synopsis }
    static var positionalCount: ClosedRange<Int> { change.positionalCount }

    /// Makes the change; exit status 0.
    static func run(_ library: MediaLibrary, folder: URL, _ arguments: ParsedArguments) throws -> Int32 {
        try change.apply(library, arguments)
        return 0
    }
}

extension ParsedArguments {
    /// The asset id typed as the positional argument at `index` (a whole number above 0).
    func assetID(at index: Int) throws(UsageError) -> Int64 {
        let text = positionals[index]
        guard let value = Int64(text), value > 0 else { throw invalid("id", tr("'{text}' is not an asset id", ["text": text])) }
        return value
    }

    /// The asset ids typed as the positional arguments from `index` on.
    func assetIDs(from index: Int) throws(UsageError) -> [Int64] {
        var ids: [Int64] = []
        for position in index..<positionals.count { ids.append(try assetID(at: position)) }
        return ids
    }
}
