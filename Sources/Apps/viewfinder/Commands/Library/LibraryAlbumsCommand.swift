import CommandLineKit
import Foundation
import MediaLibrary
import ViewfinderCore

/// `viewfinder library albums`: the albums and how many assets each holds.
enum LibraryAlbumsCommand: LibrarySubcommand {
    static let name = "albums"
    static let summary = N_("List the albums and how many assets each holds.")
    static let synopsis = "[--json]"
    static let json = TypedOption.flag("json", help: N_("Print the albums as JSON, each with its name and count."))
    static let options = json.specs

    static func run(_ library: MediaLibrary, folder: URL, _ arguments: ParsedArguments) throws -> Int32 {
        let albums = try library.albums()
        if try arguments[json] {
            print(JSONValue.array(albums.map { .object([("name", .string($0.name)), ("count", .int($0.count))]) }).rendered())
        } else {
            for album in albums { print("\(album.name.printable())\t\(album.count)") }
        }
        return 0
    }
}
