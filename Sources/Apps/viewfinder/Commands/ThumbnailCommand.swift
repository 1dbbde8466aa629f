import CommandLineKit
import CoverPicker
import Foundation
import Imaging
import MediaIO
import ViewfinderCore

/// `viewfinder thumbnail -s SIZE VIDEO OUT.png`: a video's picture for file managers, called by
/// the desktop's thumbnailing service through `data/viewfinder.thumbnailer`.
enum ThumbnailCommand: Command {
    static let name = "thumbnail"
    static let summary = N_("Write a video's thumbnail as a PNG: its embedded cover, else its best keyframe.")
    static let synopsis = "[-s SIZE] VIDEO OUT"
    static let positionalCount = 2...2
    static let size = TypedOption.integer("size", short: "s", value: "SIZE", help: N_("Fit the picture in SIZE × SIZE pixels, 16-2048 (default 256)."),
                                          in: 16...2048, default: 256)
    static let options = size.specs
    static let discussion = N_("""
    The cover embedded in the file, else the best-scored of the keyframes near 20, 50 and 80 %
    of the video, each decoded alone (exposure, sharpness and colour as cover
    suggestions score them, so never a black lead-in or a blurred frame when the video has
    better), tone-mapped to SDR when the video is HDR, fitted in SIZE × SIZE (never enlarged), written as
    PNG whatever OUT's name says (the freedesktop thumbnail format). Nothing is written but OUT,
    atomically — or, when OUT is an empty file the caller made to receive it (as tumbler does),
    into that file in place, cut back to empty if the write fails. The desktop calls it through data/viewfinder.thumbnailer
    (`viewfinder thumbnail -s %s %i %o`), which `make install` puts in share/thumbnailers.
    """)

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let input = URL(fileURLWithPath: arguments.positionals[0])
        let output = URL(fileURLWithPath: arguments.positionals[1])
        let side = try arguments[size]
        try Arguments.checkOutputLocation(output, input: input)
        ImagingRuntime.loadsOptionalFormats = false  // only PNG is written here
        let reader = try CoverPicker.open(input, limit: .none)
        let picture = try CoverPicker.quickCover(from: reader, size: .fit(PixelSize(width: side, height: side)))
        let png = try ImageEncoder.encode(picture, as: .png)
        // A thumbnailing service (tumbler) makes OUT empty and reads it back through its own
        // descriptor: fill that file in place; otherwise write OUT atomically.
        if try !AtomicFile.fillPlaceholder(png, at: output) {
            try AtomicFile.write(png, to: output)
        }
        return 0
    }
}
