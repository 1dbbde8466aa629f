import CommandLineKit
import Foundation
import MediaLibrary
import ViewfinderCore

/// `viewfinder library delete ID`: removes an asset and its files.
enum LibraryDeleteCommand: LibraryChangeCommand {
    static let change = LibraryChange(name: "delete", summary: N_("Delete an asset: its catalogue row and every file the library keeps of it."), synopsis: "ID", positionalCount: 1...1) {
        try $0.delete(id: try $1.assetID(at: 0))
    }
}
