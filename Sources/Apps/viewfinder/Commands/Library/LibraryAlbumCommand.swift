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
enum LibraryAlbumCreateCommand: LibraryChangeCommand {
    static let change = LibraryChange(name: "create", summary: N_("Make an empty album."), synopsis: "NAME", positionalCount: 1...1) {
        try $0.createAlbum($1.positionals[0])
    }
}

/// `viewfinder library album rename NAME NEW`.
enum LibraryAlbumRenameCommand: LibraryChangeCommand {
    static let change = LibraryChange(name: "rename", summary: N_("Give an album a new name."), synopsis: "NAME NEW", positionalCount: 2...2) {
        try $0.renameAlbum($1.positionals[0], to: $1.positionals[1])
    }
}

/// `viewfinder library album delete NAME`.
enum LibraryAlbumDeleteCommand: LibraryChangeCommand {
    static let change = LibraryChange(name: "delete", summary: N_("Delete an album; its assets stay in the library."), synopsis: "NAME", positionalCount: 1...1) {
        try $0.deleteAlbum($1.positionals[0])
    }
}

/// `viewfinder library album add NAME ID…`.
enum LibraryAlbumAddCommand: LibraryChangeCommand {
    static let change = LibraryChange(name: "add", summary: N_("Add assets to an album."), synopsis: "NAME ID…", positionalCount: 2...10_000) {
        try $0.add(try $1.assetIDs(from: 1), toAlbum: $1.positionals[0])
    }
}

/// `viewfinder library album remove NAME ID…`.
enum LibraryAlbumRemoveCommand: LibraryChangeCommand {
    static let change = LibraryChange(name: "remove", summary: N_("Take assets out of an album; they stay in the library."), synopsis: "NAME ID…", positionalCount: 2...10_000) {
        try $0.remove(try $1.assetIDs(from: 1), fromAlbum: $1.positionals[0])
    }
}
