import CommandLineKit
import Foundation
import MediaLibrary
import ViewfinderCore

/// `viewfinder library …`: the photo library (a folder of originals and its catalogue). Each
/// verb is a subcommand type with its own options; `--library` is declared here, once.
enum LibraryCommand: Command {
    static let name = "library"
    static let summary = N_("Keep a photo library: import, list, albums, thumbnails, video covers, export, delete, check.")
    static let synopsis = "[--library DIR] SUBCOMMAND [OPTIONS]"
    static var subcommands: [any Command.Type] {
        [LibraryInitCommand.self, LibraryImportCommand.self, LibraryListCommand.self, LibraryAlbumsCommand.self,
         LibraryAlbumCommand.self, LibraryThumbnailCommand.self, LibraryCoverCommand.self, LibraryExportCommand.self,
         LibraryDeleteCommand.self, LibraryCheckCommand.self]
    }
    static let options = library.specs
    /// `--library DIR`, read by every subcommand (and by `capture --save`).
    static let library = SharedOption.library(help: N_("The library folder (default $VIEWFINDER_LIBRARY, else $XDG_DATA_HOME/viewfinder/Library)."))
    static let discussion = N_("""
    Files are checked by decoding before they are stored: anything that is not a readable photo
    or video is refused ("Invalid data") and nothing is stored. Identical files are stored once.
    An iPhone Live Photo (a still and a MOV that share a content identifier, imported together or
    one after the other) and a Motion Photo (a JPEG/HEIC with its MP4 inside) become one asset
    of kind live: the still for the grid, the motion (listed as motionPath) for playback.
    cover --at on a live asset chooses its key photo, the frame thumbnails and export then show.
    Creation dates come from EXIF DateTimeOriginal, else the container's creation time, else the
    file's modification time. Import goes on past bad files and lists them at the end (exit 1).

    The library only ever touches files it named itself, inside its folder, and never follows a
    link there. Outputs (export, thumbnail) must lie outside the library folder. check repairs
    what a crash can leave and reports damage it cannot repair (exit 1): rows that point
    elsewhere are dropped without touching what they name; with --verify, originals whose
    content no longer matches their hash are reported and kept.
    """)

    /// `-o OUT`, for the subcommands that write a file outside the library.
    static let output = TypedOption.requiredPath("output", short: "o", value: "OUT", help: N_("The file to write (outside the library folder)."))
}

/// A `library` subcommand: it works on the library `--library` names, opened once for it.
protocol LibrarySubcommand: Command {
    /// Whether it may make the library (init and import do). The others refuse a folder that is
    /// not there: a reading verb given a mistyped `--library` must not leave a new library behind.
    static var makesLibrary: Bool { get }
    /// Does the work on `library`, kept in `folder` as `--library` (or the default) named it.
    static func run(_ library: MediaLibrary, folder: URL, _ arguments: ParsedArguments) throws -> Int32
}

// MARK: - Defaults

extension LibrarySubcommand {
    /// A reading verb.
    static var makesLibrary: Bool { false }

    /// No options but `--library` (declared on `library`).
    static var options: [OptionSpec] { [] }

    /// Opens the library and runs the subcommand on it.
    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let folder = try arguments[LibraryCommand.library]
        if !makesLibrary && !FileManager.default.fileExists(atPath: folder.path) {
            throw RuntimeError(tr("there is no library at {folder}; 'viewfinder library init' or an import makes one", ["folder": folder.path]))
        }
        return try run(try MediaLibrary(folder: folder), folder: folder, arguments)
    }
}
