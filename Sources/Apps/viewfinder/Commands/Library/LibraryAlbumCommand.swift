import CommandLineKit
import Foundation
import MediaLibrary
import ViewfinderCore

/// `viewfinder library album …`: makes, renames and deletes albums and fills them; each action
/// is a subcommand of its own.
enum LibraryAlbumCommand: Command {
    static let name = "album"
    static let summary = N_("Make, rename or delete an album, or add assets to it or take them out.")
    static let synopsis = "SUBCOMMAND"
    static let options: [OptionSpec] = []
    static var subcommands: [any Command.Type] {
        [LibraryAlbumCreateCommand.self, LibraryAlbumRenameCommand.self, LibraryAlbumDeleteCommand.self,
         LibraryAlbumAddCommand.self, LibraryAlbumRemoveCommand.self]
    }
}

/// `viewfinder library album create NAME`.
enum LibraryAlbumCreateCommand: LibrarySubcommand {
    static let name = "create"
    static let summary = N_("Make an empty album.")
    static let synopsis = "NAME"
    static let positionalCount = 1...1

    static func run(_ library: MediaLibrary, folder: URL, _ arguments: ParsedArguments) throws -> Int32 {
        try library.createAlbum(arguments.positionals[0])
        return 0
    }
}

/// `viewfinder library album rename NAME NEW`.
enum LibraryAlbumRenameCommand: LibrarySubcommand {
    static let name = "rename"
    static let summary = N_("Give an album a new name.")
    static let synopsis = "NAME NEW"
    static let positionalCount = 2...2

    static func run(_ library: MediaLibrary, folder: URL, _ arguments: ParsedArguments) throws -> Int32 {
        try library.renameAlbum(arguments.positionals[0], to: arguments.positionals[1])
        return 0
    }
}

/// `viewfinder library album delete NAME`.
enum LibraryAlbumDeleteCommand: LibrarySubcommand {
    static let name = "delete"
    static let summary = N_("Delete an album; its assets stay in the library.")
    static let synopsis = "NAME"
    static let positionalCount = 1...1

    static func run(_ library: MediaLibrary, folder: URL, _ arguments: ParsedArguments) throws -> Int32 {
        try library.deleteAlbum(arguments.positionals[0])
        return 0
    }
}

/// `viewfinder library album add NAME ID…`.
enum LibraryAlbumAddCommand: LibrarySubcommand {
    static let name = "add"
    static let summary = N_("Add assets to an album.")
    static let synopsis = "NAME ID…"
    static let positionalCount = 2...10_000

    static func run(_ library: MediaLibrary, folder: URL, _ arguments: ParsedArguments) throws -> Int32 {
        try library.add(try assetIDs(arguments.positionals.dropFirst(), arguments), toAlbum: arguments.positionals[0])
        return 0
    }
}

/// `viewfinder library album remove NAME ID…`.
enum LibraryAlbumRemoveCommand: LibrarySubcommand {
    static let name = "remove"
    static let summary = N_("Take assets out of an album; they stay in the library.")
    static let synopsis = "NAME ID…"
    static let positionalCount = 2...10_000

    static func run(_ library: MediaLibrary, folder: URL, _ arguments: ParsedArguments) throws -> Int32 {
        try library.remove(try assetIDs(arguments.positionals.dropFirst(), arguments), fromAlbum: arguments.positionals[0])
        return 0
    }
}
