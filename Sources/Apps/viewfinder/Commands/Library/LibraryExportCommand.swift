import CommandLineKit
import Foundation
import MediaLibrary
import ViewfinderCore

/// `viewfinder library export ID -o OUT [--strip-location]`: a copy of an asset's original.
enum LibraryExportCommand: LibrarySubcommand {
    static let name = "export"
    static let summary = N_("Write a copy of an asset's original, with or without its location.")
    static let synopsis = "ID -o OUT [--strip-location]"
    static let positionalCount = 1...1
    static let stripLocation = TypedOption.flag(
        "strip-location", help: N_("Without the location (a photo's GPS and place names, a video's ISO 6709 keys and ©xyz); nothing else changes."))
    static let options = OptionSpec.list(LibraryCommand.output, stripLocation)

    static func run(_ library: MediaLibrary, folder: URL, _ arguments: ParsedArguments) throws -> Int32 {
        let output = try arguments[LibraryCommand.output]
        try Arguments.checkOutputLocation(output, input: folder, libraries: [folder])
        let asset = try library.asset(id: try arguments.assetID(at: 0))
        if try arguments[stripLocation] {
            try library.exportWithoutLocation(asset, to: output)
        } else {
            try library.export(asset, to: output)
        }
        print(output.path)
        return 0
    }
}
