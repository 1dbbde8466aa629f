import CommandLineKit
import CoverPicker
import Foundation
import Imaging
import MediaIO
import ViewfinderCore

/// `viewfinder cover VIDEO --at TIME -o OUT`: the exact frame at a time, as an image.
enum CoverCommand: Command {
    static let name = "cover"
    static let summary = N_("Save the exact frame at a time as the video's cover image.")
    static let synopsis = "VIDEO (--at TIME|best -o OUT.{jpg,png,webp} [--max-size WxH] | --at TIME|best --embed -o OUT.mp4 [--quiet] | --suggest [--count K]) [--max-duration S] [--json]"
    static let positionalCount = 1...1
    static let options = [
        OptionSpec("at", value: "TIME", help: N_("Seconds (2.5), m:ss.fff, h:mm:ss, frame:N, or best (the best suggestion; default 0).")),
        OptionSpec("suggest", help: N_("Print the best covers (exact times and scores) instead of writing one.")),
        OptionSpec("embed", help: N_("Write the video to OUT.mp4 (streams copied) with the cover inside it as its cover art.")),
        OptionSpec("quiet", short: "q", help: N_("With --embed: show no progress.")),
        OptionSpec("count", value: "K", help: N_("With --suggest: how many, 1-20 (default 3).")),
        OptionSpec("output", short: "o", value: "OUT", help: N_("Image to write: .jpg, .png or .webp (with --embed: .mp4 or .m4v).")),
        OptionSpec("max-size", value: "WxH", help: N_("Fit the cover in this box (never enlarged).")),
        Arguments.durationLimitOption.specs[0],
        OptionSpec("quality", value: "Q", help: tr("JPEG/WebP quality 1-100 (default {quality}).", ["quality": CoverFlow.coverQuality])),
        Arguments.hdrOption,
        OptionSpec("json", help: N_("Print the requested and actual times and the output as JSON.")),
    ]
    /// The paragraphs in the user's language (`--cover`'s are shared with `convert` and `trim`).
    static var discussion: String {
        tr("""
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
        """) + "\n\n" + ExportOptions.coverHelp
    }

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let input = URL(fileURLWithPath: arguments.positionals[0])
        let limit = try Arguments.durationLimit(arguments)
        if arguments.flag("suggest") {
            for option in ["at", "output", "max-size", "quality", "hdr"] where arguments.value(option) != nil {
                throw UsageError(message: tr("--suggest prints times; it takes no {option}", ["option": "--\(option)"]), command: name)
            }
            return try suggest(input, count: try arguments.integer("count", in: 1...20, default: 3), limit: limit,
                               json: arguments.flag("json"))
        }
        if arguments.value("count") != nil { throw UsageError(message: tr("--count goes with --suggest"), command: name) }
        if arguments.flag("embed") { return try embed(input, arguments: arguments, limit: limit) }
        if arguments.flag("quiet") { throw UsageError(message: tr("--quiet goes with --embed"), command: name) }
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
            print(tr("{file}: frame at {seconds} s ({width}×{height})", ["file": output.path, "seconds": frame.time.decimalString,
                                                                          "width": frame.image.width, "height": frame.image.height]))
        }
        return 0
    }

    /// `--embed`: the video copied with the cover inside it.
    private static func embed(_ input: URL, arguments: ParsedArguments, limit: DurationLimit) throws -> Int32 {
        for option in ["max-size", "quality", "hdr"] where arguments.value(option) != nil {
            throw UsageError(message: tr("--embed attaches the whole frame as a 4:2:0 JPEG at quality {quality}; it takes no {option}",
                                         ["quality": CoverFlow.coverQuality, "option": "--\(option)"]), command: name)
        }
        let choice = try ExportOptions.coverChoice(arguments.value("at") ?? "0", option: "at", in: arguments) ?? .best
        return try ExportOptions.perform(input: input, arguments: arguments, settings: ExportSettings(preset: .passthrough),
                                         label: tr("Embedding the cover of {file}", ["file": input.lastPathComponent]), cover: choice, limit: limit)
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
                let faces = suggestion.faces.map { $0.count == 1 ? tr("a face") : trn("{count} face", "{count} faces", $0.count) }
                let values: KeyValuePairs<String, any CustomStringConvertible> = [
                    "rank": rank + 1, "seconds": suggestion.time.decimalString, "score": String(format: "%.3f", suggestion.score),
                    "note": suggestion.quality.rejection.map { tr($0) } ?? faces ?? "",
                ]
                if suggestion.quality.rejection == nil && faces == nil {
                    // TRANSLATORS: one cover suggestion: its rank, its time and its score.
                    print(tr("{rank}. {seconds} s  score {score}", values))
                } else {
                    // TRANSLATORS: one cover suggestion, then why it ranks low or how many faces it shows.
                    print(tr("{rank}. {seconds} s  score {score} ({note})", values))
                }
            }
        }
        return 0
    }
}
