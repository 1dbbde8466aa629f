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
    /// `--at TIME|best`: the frame (absent: the first, at 0).
    static let at = ExportOptions.coverChoice("at", help: N_("Seconds (2.5), m:ss.fff, h:mm:ss, frame:N, or best (the best suggestion; default 0)."))
    static let suggest = TypedOption.flag("suggest", help: N_("Print the best covers (exact times and scores) instead of writing one."))
    static let embed = TypedOption.flag("embed", help: N_("Write the video to OUT.mp4 (streams copied) with the cover inside it as its cover art."))
    /// `-q`: `convert`'s, read by the export `--embed` runs.
    static let quiet = ExportOptions.quiet.withHelp(N_("With --embed: show no progress."))
    static let count = TypedOption.integer("count", value: "K", help: N_("With --suggest: how many, 1-20 (default 3)."), in: 1...20, default: 3)
    /// `-o OUT`: `convert`'s, with what it means here (`--embed` writes through the export).
    static let output = ExportOptions.output.withHelp(N_("Image to write: .jpg, .png or .webp (with --embed: .mp4 or .m4v)."))
    static let quality = Arguments.imageQuality(default: CoverFlow.coverQuality,
                                                help: tr("JPEG/WebP quality 1-100 (default {quality}).", ["quality": CoverFlow.coverQuality]))
    static let json = ExportOptions.json.withHelp(N_("Print the requested and actual times and the output as JSON."))
    static let options = OptionSpec.list(at, suggest, embed, quiet, count, output, Arguments.maxSize, Arguments.durationLimitOption,
                                         quality, Arguments.hdr, json)
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
        let imageOnly: [any OptionDeclaration] = [Arguments.maxSize, quality, Arguments.hdr]
        if try arguments[suggest] {
            for option in [at as any OptionDeclaration, output] + imageOnly where option.isGiven(in: arguments) {
                throw UsageError(message: tr("--suggest prints times; it takes no {option}", ["option": "--\(option.specs[0].name)"]), command: name)
            }
            return try suggest(input, count: try arguments[count], limit: limit, json: try arguments[json])
        }
        if arguments.isGiven(count) { throw UsageError(message: tr("--count goes with --suggest"), command: name) }
        if try arguments[embed] {
            for option in imageOnly where option.isGiven(in: arguments) {
                throw UsageError(message: tr("--embed attaches the whole frame as a 4:2:0 JPEG at quality {quality}; it takes no {option}",
                                             ["quality": CoverFlow.coverQuality, "option": "--\(option.specs[0].name)"]), command: name)
            }
            let choice = try arguments[at] ?? .at(.time(.zero))
            return try ExportOptions.perform(input: input, arguments: arguments, settings: ExportSettings(preset: .passthrough),
                                             label: tr("Embedding the cover of {file}", ["file": input.lastPathComponent]), cover: choice, limit: limit)
        }
        if try arguments[quiet] { throw UsageError(message: tr("--quiet goes with --embed"), command: name) }
        let output = try arguments[Self.output]
        let choice = try arguments[at] ?? .at(.time(.zero))
        let size = try arguments[Arguments.maxSize]
        let quality = try arguments[Self.quality]
        let hdr = try arguments[Arguments.hdr]
        try Arguments.checkImageOutput(output, input: input, option: Self.output, in: arguments)

        ImagingRuntime.loadsOptionalFormats = false  // only JPEG/PNG/WebP are written here
        let reader = try CoverPicker.open(input, limit: limit)
        reader.hdr = hdr
        var requested = TimePosition.time(.zero)
        switch choice {
        case .at(let position): requested = position
        case .best: if let first = try CoverPicker.suggestions(from: reader, count: 1).first { requested = .time(first.time) }
        }
        let frame = try CoverPicker.cover(from: reader, at: requested, size: size)
        try CoverFlow.write(frame.image, to: output, quality: quality)

        if try arguments[json] {
            print(JSONValue.object([
                ("input", .string(input.path)),
                ("requested", choice == .best ? .string("best") : Arguments.requestedJSON(requested)),
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
