import CommandLineKit
import CoverPicker
import Foundation
import Imaging
import MediaIO
import ViewfinderCore

/// `viewfinder cover VIDEO --at TIME -o OUT`: the exact frame at a time, as an image.
enum CoverCommand: Command {
    static let name = "cover"
    static let summary = "Save the exact frame at a time as the video's cover image."
    static let synopsis = "VIDEO --at TIME -o OUT.{jpg,png,webp} [--max-size WxH] [--max-duration S] [--json]"
    static let positionalCount = 1...1
    static let options = [
        OptionSpec("at", value: "TIME", help: "Seconds (2.5), m:ss.fff, h:mm:ss or frame:N (default 0)."),
        OptionSpec("output", short: "o", value: "OUT", help: "Image to write: .jpg, .png or .webp."),
        OptionSpec("max-size", value: "WxH", help: "Fit the cover in this box (never enlarged)."),
        OptionSpec("max-duration", value: "S", help: "Refuse longer videos (default 30, 0 = no limit)."),
        OptionSpec("quality", value: "Q", help: "JPEG/WebP quality 1-100 (default \(CoverFlow.coverQuality))."),
        OptionSpec("json", help: "Print the requested and actual times and the output as JSON."),
    ]
    static let discussion = """
    The cover is the last frame whose presentation time is at or before TIME, counted from the
    first frame (0 = first frame), decoded exactly (not the nearest keyframe), rotated as the
    video's display matrix says. The frame's actual time is printed.
    """

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let input = URL(fileURLWithPath: arguments.positionals[0])
        let output = URL(fileURLWithPath: try arguments.required("output"))
        let position = try Arguments.position(arguments.value("at") ?? "0", option: "at", in: arguments)
        let size = try Arguments.frameSize(arguments)
        let limit = try Arguments.durationLimit(arguments)
        let quality = try arguments.integer("quality", in: 1...100, default: CoverFlow.coverQuality)
        try Arguments.checkImageOutput(output, input: input, option: "output", in: arguments)

        ImagingRuntime.loadsOptionalFormats = false  // only JPEG/PNG/WebP are written here
        let reader = try CoverPicker.open(input, limit: limit)
        let frame = try CoverPicker.cover(from: reader, at: position, size: size)
        try CoverFlow.write(frame.image, to: output, quality: quality)

        if arguments.flag("json") {
            print(JSONValue.object([
                ("input", .string(input.path)),
                ("requested", Arguments.requestedJSON(position)),
                ("actual", .time(frame.time)),
                ("actualExact", .string(frame.time.rationalString)),
                ("keyframe", .bool(frame.isKeyframe)),
                ("width", .int(frame.image.width)),
                ("height", .int(frame.image.height)),
                ("output", .string(output.path)),
            ]).rendered())
        } else {
            print("\(output.path): frame at \(frame.time.decimalString) s (\(frame.image.width)×\(frame.image.height))")
        }
        return 0
    }
}
