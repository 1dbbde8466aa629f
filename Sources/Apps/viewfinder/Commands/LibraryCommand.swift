import CommandLineKit
import Foundation
import HUD
import Imaging
import MediaLibrary
import ViewfinderCore

/// `viewfinder library …`: the photo library (a folder of originals and its catalogue).
enum LibraryCommand: Command {
    static let name = "library"
    static let summary = N_("Keep a photo library: import, list, albums, thumbnails, video covers, export, delete, check.")
    static let synopsis = """
    [--library DIR] SUBCOMMAND
           init
           import FILE… [--album A] [--move] [--thumbnail-size N] [--json]
           list [--type photo|video|live] [--sort newest|oldest|name] [--group G | --album A] [--limit N] [--json]
           albums [--json]
           album create NAME | album rename NAME NEW | album delete NAME
           album add NAME ID… | album remove NAME ID…
           thumbnail ID --size N [--fill] -o OUT
           cover ID (--at TIME|best | --clear)
           export ID -o OUT [--strip-location]
           delete ID
           check [--verify] [--rebuild] [--json]
    """
    static let positionalCount = 1...10_000
    static let verbs = ["init", "import", "list", "albums", "album", "thumbnail", "cover", "export", "delete", "check"]
    static let options = [
        OptionSpec("library", value: "DIR", help: N_("The library folder (default $VIEWFINDER_LIBRARY, else $XDG_DATA_HOME/viewfinder/Library).")),
        // TRANSLATORS: "import:", "list:" and the like name the subcommands an option is for; keep them.
        OptionSpec("album", value: "A", help: N_("import: also add to this album; list: only this album.")),
        OptionSpec("move", help: N_("import: remove the original after it is stored.")),
        OptionSpec("type", value: "T", help: N_("list: photo, video or live (Live Photos and Motion Photos).")),
        OptionSpec("group", value: "G", help: N_("list: all, photos, videos, captures or album:NAME.")),
        OptionSpec("sort", value: "S", help: N_("list: newest (default) or oldest, by creation date, or name, by the name the file came with.")),
        OptionSpec("limit", value: "N", help: N_("list: at most N assets.")),
        OptionSpec("size", value: "N", help: N_("thumbnail: the box, N×N pixels.")),
        OptionSpec("fill", help: N_("thumbnail: fill the box (crop) instead of fitting inside it.")),
        OptionSpec("at", value: "TIME",
                   help: N_("cover: the video's cover is the exact frame at TIME, or best (the best suggestion); on a live asset, its key photo is that frame of its motion.")),
        OptionSpec("clear",
                   help: N_("cover: forget the chosen cover (the embedded one, else the best suggestion, shows); on a live asset, restore its original still.")),
        OptionSpec("output", short: "o", value: "OUT", help: N_("thumbnail, export: the file to write.")),
        OptionSpec("thumbnail-size", value: "N", help: N_("import: also make the N×N grid thumbnail (default 256, 0 = none).")),
        OptionSpec("timing", help: N_("list: report on stderr how long the catalogue query took.")),
        OptionSpec("quiet", short: "q", help: N_("import: no progress display.")),
        OptionSpec("json", help: N_("import, list, albums, check: print JSON (the other subcommands print one line and refuse it).")),
        OptionSpec("strip-location",
                   help: N_("export: without the location (a photo's GPS and place names, a video's ISO 6709 keys and ©xyz); nothing else changes.")),
        OptionSpec("verify", help: N_("check: also re-hash every original and report any whose content changed.")),
        OptionSpec("rebuild", help: N_("check: catalogue again the originals the catalogue no longer lists (instead of removing them).")),
    ]
    static let discussion = N_("""
    Files are checked by decoding before they are stored: anything that is not a readable photo
    or video is refused ("Invalid data") and nothing is stored. Identical files are stored once.
    An iPhone Live Photo (a still and a MOV that share a content identifier, imported together or
    one after the other) and a Motion Photo (a JPEG/HEIC with its MP4 inside) become one asset
    of kind live: the still for the grid, the motion (listed as motionPath) for playback.
    cover --at on a live asset chooses its key photo, the frame thumbnails and export then show.
    Creation dates come from EXIF DateTimeOriginal, else the container's creation time, else the
    file's modification time. Import goes on past bad files and lists them at the end (exit 1).

    The library only ever touches files it named itself, inside its folder, and never follows a
    link there. Outputs (export, thumbnail) must lie outside the library folder. check repairs
    what a crash can leave and reports damage it cannot repair (exit 1): rows that point
    elsewhere are dropped without touching what they name; with --verify, originals whose
    content no longer matches their hash are reported and kept.
    """)

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        var words = arguments.positionals
        let verb = words.removeFirst()
        let folder = arguments.value("library").map { URL(fileURLWithPath: $0) } ?? MediaLibrary.defaultLocation()
        // Only init and import make a library: a reading verb given a folder that is not there
        // (a typo) must not leave a new library behind.
        if !["init", "import"].contains(verb) && !FileManager.default.fileExists(atPath: folder.path) {
            throw RuntimeError(tr("there is no library at {folder}; 'viewfinder library init' or an import makes one", ["folder": folder.path]))
        }
        let library = try MediaLibrary(folder: folder)
        func id(_ text: String) throws -> Int64 {
            guard let value = Int64(text), value > 0 else { throw arguments.invalid("id", tr("'{text}' is not an asset id", ["text": text])) }
            return value
        }
        func expect(_ count: ClosedRange<Int>) throws {
            guard count.contains(words.count) else {
                throw UsageError(message: tr("library {verb}: wrong number of arguments", ["verb": verb]), command: name)
            }
        }
        let speaksJSON: Set = ["import", "list", "albums", "check"]
        if arguments.flag("json"), !speaksJSON.contains(verb) {
            throw UsageError(message: tr("library {verb} prints one line; --json is for import, list, albums and check", ["verb": verb]),
                             command: name)
        }
        switch verb {
        case "init":
            try expect(0...0)
            print(trn("{folder}: library ready ({count} assets)", "{folder}: library ready ({count} assets)", try library.assets().count,
                      ["folder": folder.path]))
        case "import":
            try expect(1...10_000)
            return try importFiles(words.map { URL(fileURLWithPath: $0) }, into: library, arguments: arguments)
        case "list":
            try expect(0...0)
            try list(library, arguments)
        case "albums":
            try expect(0...0)
            let albums = try library.albums()
            if arguments.flag("json") {
                print(JSONValue.array(albums.map { .object([("name", .string($0.name)), ("count", .int($0.count))]) }).rendered())
            } else {
                for album in albums { print("\(album.name.printable())\t\(album.count)") }
            }
        case "album":
            guard let action = words.first else {
                throw UsageError(message: tr("library album: create, rename, delete, add or remove"), command: name)
            }
            let rest = Array(words.dropFirst())
            switch (action, rest.count) {
            case ("create", 1): try library.createAlbum(rest[0])
            case ("rename", 2): try library.renameAlbum(rest[0], to: rest[1])
            case ("delete", 1): try library.deleteAlbum(rest[0])
            case ("add", 2...): try library.add(try rest.dropFirst().map(id), toAlbum: rest[0])
            case ("remove", 2...): try library.remove(try rest.dropFirst().map(id), fromAlbum: rest[0])
            default: throw UsageError(message: tr("library album {action}: wrong arguments", ["action": action]), command: name)
            }
        case "thumbnail":
            try expect(1...1)
            let side = try arguments.integer("size", in: 1...4096, default: 256)
            let output = URL(fileURLWithPath: try arguments.required("output"))
            let asset = try library.asset(id: try id(words[0]))
            try Arguments.checkOutputLocation(output, input: folder, libraries: [folder])
            let cached = try library.thumbnail(asset, size: PixelSize(width: side, height: side),
                                               mode: arguments.flag("fill") ? .fill : .fit)
            switch ImageFormat(pathExtension: output.pathExtension) {
            case nil, .jpeg?:
                try AtomicFile.write(try Data(contentsOf: cached), to: output)
            default:
                // The cache keeps JPEG: a .png or .webp name gets that format, not JPEG bytes.
                let photo = try Photo(url: cached)
                try ImageEncoder.write(try photo.preview(fitting: photo.size), to: output)
            }
            print(output.path)
        case "cover":
            try expect(1...1)
            let asset = try library.asset(id: try id(words[0]))
            let at = arguments.value("at")
            guard (at != nil) != arguments.flag("clear") else {
                throw UsageError(message: tr("library cover: give either --at TIME|best or --clear"), command: name)
            }
            var time: MediaTime?
            if let at {
                if at == "best" {
                    time = try library.bestPosterTime(of: asset)
                } else {
                    time = try library.posterTime(of: asset, at: try Arguments.position(at, option: "at", in: arguments))
                }
            }
            let updated = try library.setPoster(of: asset, at: time)
            let values: KeyValuePairs<String, any CustomStringConvertible> = ["id": updated.id, "seconds": updated.posterTime?.decimalString ?? ""]
            switch (updated.kind == .live, updated.posterTime != nil) {
            case (true, true): print(tr("asset {id}: key photo at {seconds} s of its motion", values))
            case (true, false): print(tr("asset {id}: key photo is the original still", values))
            case (false, true): print(tr("asset {id}: cover at {seconds} s", values))
            case (false, false): print(tr("asset {id}: cover chosen by the library", values))
            }
        case "export":
            try expect(1...1)
            let output = URL(fileURLWithPath: try arguments.required("output"))
            try Arguments.checkOutputLocation(output, input: folder, libraries: [folder])
            let asset = try library.asset(id: try id(words[0]))
            if arguments.flag("strip-location") {
                try library.exportWithoutLocation(asset, to: output)
            } else {
                try library.export(asset, to: output)
            }
            print(output.path)
        case "delete":
            try expect(1...1)
            try library.delete(id: try id(words[0]))
        case "check":
            try expect(0...0)
            let repair = !library.isReadOnly
            let json = arguments.flag("json")
            var rebuilt: [(String, JSONValue)] = []
            if arguments.flag("rebuild") {
                let (catalogued, failed) = try library.rebuildCatalogue()
                for failure in failed {
                    ViewfinderTool.standardError("viewfinder: " + tr("{failure} (left in place)", ["failure": failure.description.printable()]))
                }
                if json {
                    rebuilt = [("catalogued", .array(catalogued.map { .object([("id", .integer($0.id)), ("file", .string($0.originalFilename))]) })),
                               ("notCatalogued", .array(failed.map { .string($0.description) }))]
                } else {
                    for asset in catalogued { print("\(asset.id)\t" + tr("catalogued") + "\t\(asset.originalFilename.printable())") }
                    let values: KeyValuePairs<String, any CustomStringConvertible> = ["folder": folder.path.printable(), "failed": failed.count]
                    print(failed.isEmpty
                          ? trn("{folder}: {count} original catalogued again", "{folder}: {count} originals catalogued again", catalogued.count, values)
                          : trn("{folder}: {count} original catalogued again, {failed} could not be (left in place)",
                                "{folder}: {count} originals catalogued again, {failed} could not be (left in place)", catalogued.count, values))
                }
            }
            let report = try library.check(repair: repair, verify: arguments.flag("verify"))
            if json {
                print(checkJSON(report, folder: folder, repaired: repair, rebuilt: rebuilt).rendered())
                if report.needsAttention {
                    ViewfinderTool.standardError("viewfinder: " + tr("the library at {folder} has damage a repair cannot fix", ["folder": folder.path]))
                    return 1
                }
                return report.isClean || repair ? 0 : 1
            }
            return printCheck(report, folder: folder, repaired: repair)
        default:
            throw UsageError(message: tr("unknown library command '{verb}'", ["verb": verb]), command: name)
        }
        return 0
    }

    private static func list(_ library: MediaLibrary, _ arguments: ParsedArguments) throws {
        var request = FetchRequest()
        if let type = arguments.value("type") {
            guard let kind = AssetKind(rawValue: type) else { throw arguments.invalid("type", tr("photo, video or live, not '{text}'", ["text": type])) }
            request.kinds = [kind]
        }
        if let sort = arguments.value("sort") {
            guard let order = SortOrder(rawValue: sort) else { throw arguments.invalid("sort", tr("newest, oldest or name, not '{text}'", ["text": sort])) }
            request.order = order
        }
        if let album = arguments.value("album") { request.group = .album(album) }
        if let group = arguments.value("group") {
            guard arguments.value("album") == nil else {
                throw UsageError(message: tr("library list: give --group or --album, not both"), command: name)
            }
            switch group {
            case "all": request.group = .all
            case "photos": request.group = .photos
            case "videos": request.group = .videos
            case "captures": request.group = .captures
            default:
                guard group.hasPrefix("album:"), group.count > 6 else {
                    throw arguments.invalid("group", tr("all, photos, videos, captures or album:NAME, not '{text}'", ["text": group]))
                }
                request.group = .album(String(group.dropFirst(6)))
            }
        }
        if case .album(let name) = request.group, try !library.albums().contains(where: { $0.name == name }) {
            throw LibraryError.noSuchAlbum(name)
        }
        if arguments.value("limit") != nil { request.limit = try arguments.integer("limit", in: 1...1_000_000, default: 100) }
        let started = Date()
        let assets = try library.assets(request)
        if arguments.flag("timing") {
            // English: scripts/bench reads it.
            ViewfinderTool.standardError(String(format: "listed %d assets in %.3f ms", assets.count, Date().timeIntervalSince(started) * 1000))
        }
        let dates = ISO8601DateFormatter()
        func motionPath(_ asset: Asset) -> JSONValue {
            guard asset.kind == .live, let url = try? library.movieURL(of: asset) else { return .null }
            return .string(url.path)
        }
        if arguments.flag("json") {
            print(JSONValue.array(assets.map { asset in
                .object([
                    ("id", .integer(asset.id)), ("kind", .string(asset.kind.rawValue)),
                    ("creationDate", .string(dates.string(from: asset.creationDate))),
                    ("importDate", .string(dates.string(from: asset.importDate))),
                    ("originalFilename", .string(asset.originalFilename)),
                    ("width", .int(asset.size.width)), ("height", .int(asset.size.height)),
                    ("duration", asset.duration.map(JSONValue.time) ?? .null),
                    ("byteSize", .integer(asset.byteSize)), ("contentHash", .string(asset.contentHash)),
                    ("source", .string(asset.source.rawValue)),
                    ("coverTime", asset.posterTime.map(JSONValue.time) ?? .null),
                    ("path", (try? library.originalURL(of: asset)).map { .string($0.path) } ?? .null),
                    ("motionPath", motionPath(asset)),
                    ("motionFilename", asset.motion.map { JSONValue.string($0.filename) } ?? JSONValue.null),
                    ("contentIdentifier", asset.contentIdentifier.map(JSONValue.string) ?? JSONValue.null),
                    ("metadata", asset.metadata.json),
                ])
            }).rendered())
        } else {
            for asset in assets {
                let duration = asset.duration.map { " \($0.decimalString) s" } ?? ""
                print("\(asset.id)\t\(asset.kind.rawValue)\t\(dates.string(from: asset.creationDate))\t\(asset.size.width)×\(asset.size.height)\(duration)\t\(asset.originalFilename.printable())")
            }
        }
    }

    private static func importFiles(_ files: [URL], into library: MediaLibrary, arguments: ParsedArguments) throws -> Int32 {
        let side = try arguments.integer("thumbnail-size", in: 0...2048, default: 256)
        let importer = LibraryImporter(folder: library.folder, album: arguments.value("album"), move: arguments.flag("move"),
                                       thumbnail: side > 0 ? PixelSize(width: side, height: side) : nil)
        // Progress counts bytes; the details line counts files.
        let counter = FileCounter(total: files.count)
        let report = try ProgressDisplay.run(label: trn("Importing {count} file", "Importing {count} files", files.count),
                                             quiet: arguments.flag("quiet"), unit: .megabytes,
                                             details: { counter.text }) { progress in
            let report = importer.run(files, progress: progress) { counter.set(done: $0) }
            if report.cancelled { throw LibraryError.cancelled }
            return report
        }
        let failures = report.failures.map(\.description).sorted()
        let stored = files.count - failures.count
        if arguments.flag("json") {
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

    /// Prints what `check` found; exit 1 when damage remains that needs a person (or, on a
    /// read-only library, when anything is wrong).
    /// `check --json`: what the check found (and, unless the library is read-only, removed),
    /// field by field; `rebuilt` adds what `--rebuild` catalogued again.
    private static func checkJSON(_ report: CheckReport, folder: URL, repaired: Bool, rebuilt: [(String, JSONValue)]) -> JSONValue {
        func strings(_ values: [String]) -> JSONValue { .array(values.map(JSONValue.string)) }
        func ids(_ values: [Int64]) -> JSONValue { .array(values.map(JSONValue.integer)) }
        func damages(_ values: [CheckReport.Damage]) -> JSONValue {
            .array(values.map { .object([("id", .integer($0.id)), ("reason", .string($0.reason))]) })
        }
        return .object(JSONObject([
            ("library", .string(folder.path)),
            ("consistent", .bool(report.isClean)),
            ("repaired", .bool(repaired && !report.isClean)),
            ("needsAttention", .bool(report.needsAttention)),
            ("orphanFiles", strings(report.orphanFiles)),
            ("missingFiles", ids(report.missingFiles)),
            ("missingMotions", ids(report.missingMotions)),
            ("partialImports", .int(report.partialImports)),
            ("partialThumbnails", .int(report.partialThumbnails)),
            ("damagedRows", damages(report.damagedRows)),
            ("corruptOriginals", damages(report.corruptOriginals)),
            ("foreignEntries", strings(report.foreignEntries)),
            ("unaccountedOriginals", strings(report.unaccountedOriginals)),
        ] + rebuilt))
    }

    private static func printCheck(_ report: CheckReport, folder: URL, repaired: Bool) -> Int32 {
        if report.isClean {
            print(tr("{folder}: consistent", ["folder": folder.path]))
            return 0
        }
        // English says "file(s)" whatever the count; other languages take the right plural form.
        var parts = [trn("{count} orphan file(s)", "{count} orphan file(s)", report.orphanFiles.count),
                     trn("{count} row(s) without a file", "{count} row(s) without a file", report.missingFiles.count),
                     trn("{count} unfinished import(s)", "{count} unfinished import(s)", report.partialImports)]
        if !report.missingMotions.isEmpty {
            parts.append(trn("{count} Live Photo(s) without their motion (kept as photos)",
                             "{count} Live Photo(s) without their motion (kept as photos)", report.missingMotions.count))
        }
        if report.partialThumbnails > 0 {
            parts.append(trn("{count} unfinished thumbnail(s)", "{count} unfinished thumbnail(s)", report.partialThumbnails))
        }
        if !report.damagedRows.isEmpty { parts.append(trn("{count} damaged row(s)", "{count} damaged row(s)", report.damagedRows.count)) }
        let removable = report.foreignEntries.filter { !$0.hasSuffix("/") }
        if !removable.isEmpty { parts.append(trn("{count} link(s) or special file(s)", "{count} link(s) or special file(s)", removable.count)) }
        let found: KeyValuePairs<String, any CustomStringConvertible> = ["folder": folder.path, "list": parts.joinedAsDetails()]
        // TRANSLATORS: {list} is what check found, such as "2 orphan file(s), 0 row(s) without a file".
        print(repaired ? tr("{folder}: removed {list}", found) : tr("{folder}: found {list}", found))
        for damage in report.damagedRows { print("  \(damage)") }
        for entry in report.foreignEntries {
            print("  " + (entry.hasSuffix("/") ? tr("{entry}: a folder the library does not make (left alone)", ["entry": entry])
                                               : tr("{entry}: not the library's (never followed)", ["entry": entry])))
        }
        for damage in report.corruptOriginals { print("  " + tr("damaged: {damage} (kept)", ["damage": damage])) }
        if !report.unaccountedOriginals.isEmpty {
            print("  " + trn("{count} original but not one catalogue row: the catalogue was lost or emptied; nothing was removed",
                             "{count} originals but not one catalogue row: the catalogue was lost or emptied; nothing was removed",
                             report.unaccountedOriginals.count))
            print("  " + tr("to catalogue them again: {command}", ["command": "viewfinder library --library \(folder.path) check --rebuild"]))
        }
        if report.needsAttention {
            ViewfinderTool.standardError("viewfinder: " + tr("the library at {folder} has damage a repair cannot fix; see the lines above",
                                                             ["folder": folder.path]))
            return 1
        }
        return repaired ? 0 : 1
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
