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
    /// `--at TIME|best`, as `cover --at` reads it.
    static let at = ExportOptions.coverChoice(
        "at", help: N_("The video's cover is the exact frame at TIME, or best (the best suggestion); on a live asset, its key photo is that frame of its motion."))
    static let clear = TypedOption.flag(
        "clear", help: N_("Forget the chosen cover (the embedded one, else the best suggestion, shows); on a live asset, restore its original still."))
    static let options = OptionSpec.list(at, clear)

    static func run(_ library: MediaLibrary, folder: URL, _ arguments: ParsedArguments) throws -> Int32 {
        let asset = try library.asset(id: try arguments.assetID(at: 0))
        guard arguments.isGiven(at) != (try arguments[clear]) else {
            throw arguments.usageError(tr("give either --at TIME|best or --clear"))
        }
        var time: MediaTime?
        switch try arguments[at] {
        case .best?: time = try library.bestPosterTime(of: asset)
        case .at(let position)?: time = try library.posterTime(of: asset, at: position)
        case nil: time = nil
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
