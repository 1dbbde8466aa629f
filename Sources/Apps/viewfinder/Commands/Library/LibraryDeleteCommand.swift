import CommandLineKit
import Foundation
import MediaLibrary
import ViewfinderCore

/// `viewfinder library delete ID`: removes an asset and its files.
enum LibraryDeleteCommand: LibrarySubcommand {
    static let name = "delete"
    static let summary = N_("Delete an asset: its catalogue row and every file the library keeps of it.")
    static let synopsis = "ID"
    static let positionalCount = 1...1

    static func run(_ library: MediaLibrary, folder: URL, _ arguments: ParsedArguments) throws -> Int32 {
        try library.delete(id: try assetID(arguments.positionals[0], arguments))
        return 0
    }
}
