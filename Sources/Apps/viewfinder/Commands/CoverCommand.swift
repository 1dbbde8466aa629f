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
    static let synopsis = "VIDEO (--at TIME|best -o OUT.{jpg,png,webp} [--max-size WxH] | --at TIME|best --embed -o OUT.mp4 [--quiet] | --suggest [--count K]) [--max-duration S] [--json]"
    static let positionalCount = 1...1
    static let options = [
        OptionSpec("at", value: "TIME", help: "Seconds (2.5), m:ss.fff, h:mm:ss, frame:N, or best (the best suggestion; default 0)."),
        OptionSpec("suggest", help: "Print the best covers (exact times and scores) instead of writing one."),
        OptionSpec("embed", help: "Write the video to OUT.mp4 (streams copied) with the cover inside it as its cover art."),
        OptionSpec("quiet", short: "q", help: "With --embed: show no progress."),
        OptionSpec("count", value: "K", help: "With --suggest: how many, 1-20 (default 3)."),
        OptionSpec("output", short: "o", value: "OUT", help: "Image to write: .jpg, .png or .webp (with --embed: .mp4 or .m4v)."),
        OptionSpec("max-size", value: "WxH", help: "Fit the cover in this box (never enlarged)."),
        OptionSpec("max-duration", value: "S", help: "Refuse longer videos (default 30, 0 = no limit)."),
        OptionSpec("quality", value: "Q", help: "JPEG/WebP quality 1-100 (default \(CoverFlow.coverQuality))."),
        Arguments.hdrOption,
        OptionSpec("json", help: "Print the requested and actual times and the output as JSON."),
    ]
    static let discussion = """
    The cover is the last frame whose presentation time is at or before TIME, counted from the
    first frame (0 = first frame), decoded exactly (not the nearest keyframe), rotated as the
    video's display matrix says. The frame's actual time is printed.

    HDR video (HLG or PQ, Dolby Vision 8.x through its base layer) is tone-mapped to SDR as
    the phone showed it (see --hdr and the README's Colour section).

    --suggest ranks sampled frames (keyframes, and frames every 0.5 s in long GOPs) by exposure,
    sharpness, colour and stillness; near-black, near-white, flat and blurred frames and frames
    inside fades, flashes and cuts come last, and no two suggestions are near duplicates.
    --at best writes the first of them.

    --embed writes the video itself to OUT (.mp4 or .m4v: a QuickTime .mov cannot hold the
    cover as written here) with its video and audio packets
    copied unchanged (the passthrough export of `convert`; a video whose streams MP4 cannot hold
    is refused: use `convert --cover`) and the cover attached inside it.
    """ + "\n\n" + ExportOptions.coverHelp

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let input = URL(fileURLWithPath: arguments.positionals[0])
        let limit = try Arguments.durationLimit(arguments)
        if arguments.flag("suggest") {
            for option in ["at", "output", "max-size", "quality", "hdr"] where arguments.value(option) != nil {
                throw UsageError(message: "--suggest prints times; it takes no --\(option)", command: name)
            }
            return try suggest(input, count: try arguments.integer("count", in: 1...20, default: 3), limit: limit,
                               json: arguments.flag("json"))
        }
        if arguments.value("count") != nil { throw UsageError(message: "--count goes with --suggest", command: name) }
        if arguments.flag("embed") { return try embed(input, arguments: arguments, limit: limit) }
        if arguments.flag("quiet") { throw UsageError(message: "--quiet goes with --embed", command: name) }
        let output = URL(fileURLWithPath: try arguments.required("output"))
        let at = arguments.value("at") ?? "0"
        let best = at == "best"
        let position = best ? TimePosition.time(.zero) : try Arguments.position(at, option: "at", in: arguments)
        let size = try Arguments.frameSize(arguments)
        let quality = try arguments.integer("quality", in: 1...100, default: CoverFlow.coverQuality)
        let hdr = try Arguments.hdrConversion(arguments)
        try Arguments.checkImageOutput(output, input: input, option: "output", in: arguments)

        ImagingRuntime.loadsOptionalFormats = false  // only JPEG/PNG/WebP are written here
        let reader = try CoverPicker.open(input, limit: limit)
        reader.hdr = hdr
        var requested = position
        if best, let first = try CoverPicker.suggestions(from: reader, count: 1).first { requested = .time(first.time) }
        let frame = try CoverPicker.cover(from: reader, at: requested, size: size)
        try CoverFlow.write(frame.image, to: output, quality: quality)

        if arguments.flag("json") {
            print(JSONValue.object([
                ("input", .string(input.path)),
                ("requested", best ? .string("best") : Arguments.requestedJSON(position)),
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

    /// `--embed`: the video copied with the cover inside it.
    private static func embed(_ input: URL, arguments: ParsedArguments, limit: DurationLimit) throws -> Int32 {
        for option in ["max-size", "quality", "hdr"] where arguments.value(option) != nil {
            throw UsageError(message: "--embed attaches the whole frame as a 4:2:0 JPEG at quality \(CoverFlow.coverQuality); it takes no --\(option)", command: name)
        }
        let choice = try ExportOptions.coverChoice(arguments.value("at") ?? "0", option: "at", in: arguments) ?? .best
        return try ExportOptions.perform(input: input, arguments: arguments, settings: ExportSettings(preset: .passthrough),
                                         label: "Embedding the cover of \(input.lastPathComponent)", cover: choice, limit: limit)
    }

    /// `--suggest`: the best covers, best first.
    private static func suggest(_ input: URL, count: Int, limit: DurationLimit, json: Bool) throws -> Int32 {
        let reader = try CoverPicker.open(input, limit: limit)
        let suggestions = try CoverPicker.suggestions(from: reader, count: count)
        if json {
            print(JSONValue.object([
                ("input", .string(input.path)),
                ("duration", .time(reader.duration)),
                ("suggestions", .array(suggestions.map { suggestion in
                    let q = suggestion.quality
                    return .object([
                        ("time", .time(suggestion.time)),
                        ("timeExact", .string(suggestion.time.rationalString)),
                        ("score", .literal(String(format: "%.4f", suggestion.score))),
                        ("brightness", .literal(String(format: "%.4f", q.brightness))),
                        ("contrast", .literal(String(format: "%.4f", q.contrast))),
                        ("sharpness", .literal(String(format: "%.6f", q.sharpness))),
                        ("colourfulness", .literal(String(format: "%.4f", q.colourfulness))),
                        ("change", .literal(String(format: "%.4f", q.change))),
                        ("rejected", q.rejection.map(JSONValue.string) ?? .null),
                        ("faces", suggestion.faces.map { faces in
                            .object([
                                ("count", .int(faces.count)),
                                ("size", .literal(String(format: "%.4f", faces.size))),
                                ("cut", .bool(faces.cut)),
                                ("eyeSharpness", .literal(String(format: "%.6f", faces.eyeSharpness))),
                                ("confidence", .literal(String(format: "%.4f", faces.confidence))),
                            ])
                        } ?? .null),
                    ])
                })),
            ]).rendered())
        } else {
            for (rank, suggestion) in suggestions.enumerated() {
                let faces = suggestion.faces.map { $0.count == 1 ? " (a face)" : " (\($0.count) faces)" } ?? ""
                let why = suggestion.quality.rejection.map { " (\($0))" } ?? faces
                print("\(rank + 1). \(suggestion.time.decimalString) s  score \(String(format: "%.3f", suggestion.score))\(why)")
            }
        }
        return 0
    }
}
