import CommandLineKit
import Foundation
import MediaLibrary
import ViewfinderCore

/// `viewfinder library list`: the assets, as a table or JSON.
enum LibraryListCommand: LibrarySubcommand {
    static let name = "list"
    static let summary = N_("List the assets, newest first unless asked otherwise, one line or one JSON object each.")
    static let synopsis = "[--type photo|video|live] [--sort newest|oldest|name] [--group G | --album A] [--limit N] [--json]"
    static let options = [
        OptionSpec("type", value: "T", help: N_("Only this kind: photo, video or live (Live Photos and Motion Photos).")),
        OptionSpec("sort", value: "S", help: N_("The order: newest (default) or oldest, by creation date, or name, by the name the file came with.")),
        OptionSpec("group", value: "G", help: N_("Only this group: all, photos, videos, captures or album:NAME.")),
        OptionSpec("album", value: "A", help: N_("Only the assets in this album.")),
        OptionSpec("limit", value: "N", help: N_("At most N assets.")),
        OptionSpec("timing", help: N_("Report on stderr how long the catalogue query took.")),
        OptionSpec("json", help: N_("Print the assets as JSON, with each original's path.")),
    ]

    static func run(_ library: MediaLibrary, folder: URL, _ arguments: ParsedArguments) throws -> Int32 {
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
                throw arguments.usageError(tr("give --group or --album, not both"))
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
        return 0
    }
}
