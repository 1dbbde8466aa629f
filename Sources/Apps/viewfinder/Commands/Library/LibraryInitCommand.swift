import CommandLineKit
import Foundation
import MediaLibrary
import ViewfinderCore

/// `viewfinder library init`: makes the library (or says how many assets the one there holds).
enum LibraryInitCommand: LibrarySubcommand {
    static let name = "init"
    static let summary = N_("Make an empty library, or say how many assets the one there holds.")
    static let synopsis = ""
    static let makesLibrary = true

    static func run(_ library: MediaLibrary, folder: URL, _ arguments: ParsedArguments) throws -> Int32 {
        print(trn("{folder}: library ready ({count} assets)", "{folder}: library ready ({count} assets)", try library.assets().count,
                  ["folder": folder.path]))
        return 0
    }
}
