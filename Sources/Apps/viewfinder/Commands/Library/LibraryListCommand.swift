import CommandLineKit
import Foundation
import MediaLibrary
import enum MediaLibrary.SortOrder
import ViewfinderCore

/// `viewfinder library list`: the assets, as a table or JSON.
enum LibraryListCommand: LibrarySubcommand {
    static let name = "list"
    static let summary = N_("List the assets, newest first unless asked otherwise, one line or one JSON object each.")
    static let synopsis = "[--type photo|video|live] [--sort newest|oldest|name] [--group G | --album A] [--limit N] [--json]"
    /// `--type T`: nil for every kind.
    static let type = TypedOption<AssetKind?>("type", value: "T", help: N_("Only this kind: photo, video or live (Live Photos and Motion Photos)."),
                                              absent: { nil }) { text throws(InvalidValueError) in
        guard let kind = AssetKind(rawValue: text) else { throw InvalidValueError(tr("photo, video or live, not '{text}'", ["text": text])) }
        return kind
    }
    static let sort = TypedOption<SortOrder>("sort", value: "S",
                                             help: N_("The order: newest (default) or oldest, by creation date, or name, by the name the file came with."),
                                             absent: { .newestFirst }) { text throws(InvalidValueError) in
        guard let order = SortOrder(rawValue: text) else { throw InvalidValueError(tr("newest, oldest or name, not '{text}'", ["text": text])) }
        return order
    }
    /// `--group G`: nil when absent.
    static let group = TypedOption<AssetGroup?>("group", value: "G", help: N_("Only this group: all, photos, videos, captures or album:NAME."),
                                                absent: { nil }) { text throws(InvalidValueError) in
        switch text {
        case "all": return .all
        case "photos": return .photos
        case "videos": return .videos
        case "captures": return .captures
        default:
            guard text.hasPrefix("album:"), text.count > 6 else {
                throw InvalidValueError(tr("all, photos, videos, captures or album:NAME, not '{text}'", ["text": text]))
            }
            return .album(String(text.dropFirst(6)))
        }
    }
    static let album = TypedOption.text("album", value: "A", help: N_("Only the assets in this album."))
    static let limit = TypedOption<Int?>.integer("limit", help: N_("At most N assets."), in: 1...1_000_000)
    static let timing = TypedOption.flag("timing", help: N_("Report on stderr how long the catalogue query took."))
    static let json = TypedOption.flag("json", help: N_("Print the assets as JSON, with each original's path."))
    static let options = OptionSpec.list(type, sort, group, album, limit, timing, json)

    static func run(_ library: MediaLibrary, folder: URL, _ arguments: ParsedArguments) throws -> Int32 {
        var request = FetchRequest()
        if let kind = try arguments[type] { request.kinds = [kind] }
        request.order = try arguments[sort]
        if let album = try arguments[album] { request.group = .album(album) }
        if arguments.isGiven(group) {
            guard !arguments.isGiven(album) else {
                throw arguments.usageError(tr("give --group or --album, not both"))
            }
            if let group = try arguments[group] { request.group = group }
        }
        if case .album(let name) = request.group, try !library.albums().contains(where: { $0.name == name }) {
            throw LibraryError.noSuchAlbum(name)
        }
        if let limit = try arguments[limit] { request.limit = limit }
        let started = Date()
        let assets = try library.assets(request)
        if try arguments[timing] {
            // English: scripts/bench reads it.
            ViewfinderTool.standardError(String(format: "listed %d assets in %.3f ms", assets.count, Date().timeIntervalSince(started) * 1000))
        }
        let dates = ISO8601DateFormatter()
        func motionPath(_ asset: Asset) -> JSONValue {
            guard asset.kind == .live, let url = try? library.movieURL(of: asset) else { return .null }
            return .string(url.path)
        }
        if try arguments[json] {
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
