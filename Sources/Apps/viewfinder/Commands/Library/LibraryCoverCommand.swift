import CommandLineKit
import Foundation
import MediaLibrary
import ViewfinderCore

/// `viewfinder library cover ID (--at TIME|best | --clear)`: a video's cover, or a live asset's
/// key photo.
enum LibraryCoverCommand: LibrarySubcommand {
    static let name = "cover"
    static let summary = N_("Choose a video's cover (or a live asset's key photo), or forget the choice.")
    static let synopsis = "ID (--at TIME|best | --clear)"
    static let positionalCount = 1...1
    static let options = [
        OptionSpec("at", value: "TIME",
                   help: N_("The video's cover is the exact frame at TIME, or best (the best suggestion); on a live asset, its key photo is that frame of its motion.")),
        OptionSpec("clear",
                   help: N_("Forget the chosen cover (the embedded one, else the best suggestion, shows); on a live asset, restore its original still.")),
    ]

    static func run(_ library: MediaLibrary, folder: URL, _ arguments: ParsedArguments) throws -> Int32 {
        let asset = try library.asset(id: try arguments.assetID(at: 0))
        let at = arguments.value("at")
        guard (at != nil) != arguments.flag("clear") else {
            throw arguments.usageError(tr("give either --at TIME|best or --clear"))
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
        return 0
    }
}
