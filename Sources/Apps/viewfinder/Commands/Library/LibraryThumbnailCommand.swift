import CommandLineKit
import Foundation
import Imaging
import MediaLibrary
import ViewfinderCore

/// `viewfinder library thumbnail ID --size N [--fill] -o OUT`: an asset's thumbnail, from the
/// library's cache.
enum LibraryThumbnailCommand: LibrarySubcommand {
    static let name = "thumbnail"
    static let summary = N_("Write an asset's thumbnail, fitted inside an N×N box or filling it.")
    static let synopsis = "ID --size N [--fill] -o OUT"
    static let positionalCount = 1...1
    static let size = TypedOption.integer("size", help: N_("The box, N×N pixels (default 256)."), in: 1...4096, default: 256)
    static let fill = TypedOption.flag("fill", help: N_("Fill the box (crop) instead of fitting inside it."))
    static let options = OptionSpec.list(size, fill, LibraryCommand.output)

    static func run(_ library: MediaLibrary, folder: URL, _ arguments: ParsedArguments) throws -> Int32 {
        let side = try arguments[size]
        let output = try arguments[LibraryCommand.output]
        let asset = try library.asset(id: try arguments.assetID(at: 0))
        try Arguments.checkOutputLocation(output, input: folder, libraries: [folder])
        let cached = try library.thumbnail(asset, size: PixelSize(width: side, height: side),
                                           mode: try arguments[fill] ? .fill : .fit)
        switch ImageFormat(pathExtension: output.pathExtension) {
        case nil, .jpeg?:
            try AtomicFile.write(try Data(contentsOf: cached), to: output)
        default:
            // The cache keeps JPEG: a .png or .webp name gets that format, not JPEG bytes.
            let photo = try Photo(url: cached)
            try ImageEncoder.write(try photo.preview(fitting: photo.size), to: output)
        }
        print(output.path)
        return 0
    }
}
