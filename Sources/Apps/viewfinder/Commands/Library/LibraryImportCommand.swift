import CommandLineKit
import Foundation
import HUD
import MediaLibrary
import ViewfinderCore

/// `viewfinder library import FILE…`: stores photos and videos, checked by decoding first.
enum LibraryImportCommand: LibrarySubcommand {
    static let name = "import"
    static let summary = N_("Store photos and videos in the library and print each file's asset id.")
    static let synopsis = "FILE… [--album A] [--move] [--thumbnail-size N] [--json]"
    static let positionalCount = 1...10_000
    static let makesLibrary = true
    static let album = TypedOption.text("album", value: "A", help: N_("Also add the files to this album."))
    static let move = TypedOption.flag("move", help: N_("Remove each original after it is stored."))
    static let thumbnailSize = TypedOption.integer("thumbnail-size", help: N_("Also make the N×N grid thumbnail (default 256, 0 = none)."),
                                                   in: 0...2048, default: 256)
    static let quiet = TypedOption.flag("quiet", short: "q", help: N_("No progress display."))
    static let json = TypedOption.flag("json", help: N_("Print what was stored and what was not as JSON."))
    static let options = OptionSpec.list(album, move, thumbnailSize, quiet, json)

    static func run(_ library: MediaLibrary, folder: URL, _ arguments: ParsedArguments) throws -> Int32 {
        let files = arguments.positionals.map { URL(fileURLWithPath: $0) }
        let side = try arguments[thumbnailSize]
        let importer = LibraryImporter(folder: library.folder, album: try arguments[album], move: try arguments[move],
                                       thumbnail: side > 0 ? PixelSize(width: side, height: side) : nil)
        // Progress counts bytes; the details line counts files.
        let counter = FileCounter(total: files.count)
        let report = try ProgressDisplay.run(label: trn("Importing {count} file", "Importing {count} files", files.count),
                                             quiet: try arguments[quiet], unit: .megabytes,
                                             details: { counter.text }) { progress in
            let report = importer.run(files, progress: progress) { counter.set(done: $0) }
            if report.cancelled { throw LibraryError.cancelled }
            return report
        }
        let failures = report.failures.map(\.description).sorted()
        let stored = files.count - failures.count
        if try arguments[json] {
            print(JSONValue.object([
                ("library", .string(library.folder.path)),
                ("stored", .array(report.storedFiles.map { file in
                    .object([("file", .string(file.path)), ("id", .integer(file.asset.id)), ("new", .bool(file.isNew))])
                })),
                ("failed", .array(report.failures.map { .object([("file", .string($0.path)), ("message", .string($0.message))]) })),
            ]).rendered())
        } else {
            for file in report.storedFiles {
                let values: KeyValuePairs<String, any CustomStringConvertible> = ["id": file.asset.id, "file": file.path.printable()]
                // TRANSLATORS: a file import stored, its fields apart by tabs: the asset's id, this word, the file.
                print(file.isNew ? tr("{id}\tstored\t{file}", values) : tr("{id}\talready stored\t{file}", values))
            }
            print(trn("{folder}: {stored} of {count} file stored", "{folder}: {stored} of {count} files stored", files.count,
                      ["folder": library.folder.path, "stored": stored]))
        }
        if failures.isEmpty { return 0 }
        ViewfinderTool.standardError("viewfinder: " + trn("{count} file not imported:", "{count} files not imported:", failures.count) + "\n"
                                     + failures.map { "  " + $0 }.joined(separator: "\n"))
        return 1
    }

    /// Files done so far, shared between the import lanes and the HUD.
    final class FileCounter: Sendable {
        private let done = Locked(0)
        let total: Int
        init(total: Int) { self.total = total }
        func set(done count: Int) { done.withLock { $0 = max($0, count) } }
        /// "3 of 10 files", in the user's language.
        var text: String {
            trn("{done} of {count} files", "{done} of {count} files", total, ["done": done.value])
        }
    }
}
