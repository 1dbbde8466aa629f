import CommandLineKit
import CoverPicker
import Foundation
import Imaging
import MediaIO
import VideoEditing
import ViewfinderCore

/// What `convert` and `trim` share: options, output checks, and running an export under the HUD.
enum ExportOptions {
    static let output = TypedOption.requiredPath("output", short: "o", value: "OUT",
                                                 help: N_("The file to write: .mp4 or .m4v (MP4), or .mov (QuickTime)."))
    /// `--preset P`: nil when absent (the settings' default, auto).
    static let preset = TypedOption<ExportPreset?>("preset", value: "P", help: tr("{choices} (default auto).", ["choices": presetChoices]),
                                                   absent: { nil }) { text throws(InvalidValueError) in
        guard let preset = ExportPreset(parsing: text) else {
            throw InvalidValueError(tr("expected {choices}, not '{text}'", ["choices": presetChoices, "text": text]))
        }
        return preset
    }
    static let noFastStart = TypedOption.flag("no-faststart", help: N_("Put the index at the end (default: at the front)."))
    static let quiet = TypedOption.flag("quiet", short: "q", help: N_("Show no progress."))
    static let json = TypedOption.flag("json", help: N_("Print what was written as JSON."))
    /// `--cover TIME|best`: nil when absent.
    static let cover = coverChoice("cover", help: N_("Attach the exact frame at TIME of the input (or best) as the file's cover art."))
    static let sdr = TypedOption.flag("sdr", help: N_("Make HDR video SDR: tone-mapped as covers are, 8-bit BT.709 H.264 (default: HDR stays HDR)."))
    static let common = OptionSpec.list(output, preset, noFastStart, quiet, json, cover, sdr)

    /// "auto, passthrough, highest, medium, low or WxH" (as `ExportPreset.choices`), the "or" in
    /// the user's language.
    static var presetChoices: String {
        choiceList(ExportPreset.named.map(\.description) + ["WxH"])
    }

    /// `--cover` explained, for `convert`, `trim` and `cover --embed`, in the user's language.
    static var coverHelp: String {
        tr("""
        --cover TIME|best (for `cover --embed`, its --at) attaches the exact frame at TIME (as
        `cover --at` picks it, upright, a 4:2:0 JPEG at quality {quality}) as the file's cover
        art: an attached picture, written as MP4's `covr` item, which file managers, players and
        uploads show. Any cover the input carried is dropped, so the new one replaces it; the video
        and audio are written as without it. Only an MP4 (.mp4, .m4v) holds it: with a cover, a .mov
        OUT is refused.
        """, ["quality": CoverFlow.coverQuality])
    }

    /// `--NAME TIME|best` (`--cover`, and `cover --at`): the frame a cover is taken from, nil
    /// when not given.
    static func coverChoice(_ name: String, help: String) -> TypedOption<CoverPicker.CoverChoice?> {
        TypedOption(name, value: "TIME", help: help, absent: { nil }) { text throws(InvalidValueError) in
            text == "best" ? .best : .at(try TimePosition(optionValue: text))
        }
    }

    /// The presets explained, with the boxes and qualities read from `ExportPreset.encoding`, in
    /// the user's language.
    static var presetHelp: String {
        func box(_ preset: ExportPreset) -> String { preset.encoding.box.map { "\($0.width)×\($0.height)" } ?? "" }
        func crf(_ preset: ExportPreset) -> Int { preset.encoding.crf }
        // TRANSLATORS: {…Box} are sizes such as 960×540, {…CRF} x264's quality numbers.
        return tr("""
        Presets: passthrough copies the streams (no re-encoding); highest keeps the size and encodes
        H.264 (x264 CRF {highestCRF}) with AAC audio (AAC is copied); medium fits {mediumBox} (CRF {mediumCRF}),
        low {lowBox} (CRF {lowCRF}), WxH that box (CRF {boxCRF}), either orientation,
        aspect kept, even sides. auto is passthrough when the streams fit MP4 (H.264/HEVC video,
        AAC/MP3/ALAC audio), else highest. The rotation is kept once, as the display matrix.
        HDR video (HLG, PQ/HDR10, Dolby Vision 8.x) re-encoded stays HDR: 10-bit HEVC (x265 Main 10,
        CRF {x265Offset} above x264's) with its colour tags and HDR10 metadata; a Dolby Vision layer cannot be
        re-encoded and is dropped, keeping its base layer. --sdr instead makes an SDR copy for
        sharing where HDR is not shown: tone-mapped as covers are (BT.2390), 8-bit BT.709 H.264.
        Ctrl-C, SIGTERM or SIGHUP cancels: nothing is left behind and the exit status is 130, 143 or 129.
        """, ["highestCRF": crf(.highest), "mediumBox": box(.medium), "mediumCRF": crf(.medium), "lowBox": box(.low),
              "lowCRF": crf(.low), "boxCRF": crf(.fit(PixelSize(width: 2, height: 2))), "x265Offset": ExportPreset.Encoding.x265Offset])
    }

    static func settings(_ arguments: ParsedArguments) throws(UsageError) -> ExportSettings {
        var settings = ExportSettings()
        if let preset = try arguments[preset] { settings.preset = preset }
        settings.fastStart = !(try arguments[noFastStart])
        settings.toSDR = try arguments[sdr]
        return settings
    }

    /// Checks the output, runs the export with progress on stderr (`label` in the user's
    /// language), prints the result. With
    /// `cover`, the frame it names is attached as the output's cover art (`CoverPicker.export`;
    /// the input is refused over `limit` first). VideoEditing's editor writes the file, `trim`'s
    /// and `convert`'s alike: its smart cut is also how a copy whose last frames refer to later
    /// ones is finished.
    static func perform(input: URL, arguments: ParsedArguments, settings: ExportSettings, label: String,
                        cover: CoverPicker.CoverChoice? = nil, limit: DurationLimit = .none) throws -> Int32 {
        let output = try arguments[Self.output]
        guard ["mp4", "m4v", "mov"].contains(output.pathExtension.lowercased()) else {
            throw arguments.invalid(Self.output, tr("'{file}' must end in .mp4, .m4v or .mov", ["file": output.lastPathComponent]))
        }
        if cover != nil, !VideoExporter.holdsCover(output) {
            throw arguments.invalid(Self.output, tr("'{file}' is a QuickTime file, which cannot hold a cover here: name it .mp4 or .m4v",
                                                 ["file": output.lastPathComponent]))
        }
        try Arguments.checkOutputLocation(output, input: input)
        _ = try checkReadableMediaFile(input)
        if cover != nil { ImagingRuntime.loadsOptionalFormats = false }  // a cover is written as JPEG only

        let (result, art) = try ProgressDisplay.run(label: label, quiet: try arguments[quiet]) { progress in
            let editor: CoverPicker.Exporting = { settings, reader, progress throws(MediaIOError) in
                try VideoEditor(input: input, output: output, settings: settings).export(progress: progress, reading: reader)
            }
            if let cover {
                let made = try CoverPicker.export(input, to: output, settings: settings, cover: cover, limit: limit, progress: progress,
                                                  exporting: editor)
                return (made.result, Optional(made.cover))
            }
            return (try VideoEditor(input: input, output: output, settings: settings).export(progress: progress), CoverArt?.none)
        }
        let coverJSON: JSONValue = art.map { art in
            .object([("time", art.time.map(JSONValue.time) ?? .null), ("timeExact", .optional(art.time?.rationalString)),
                     ("width", .int(art.size.width)), ("height", .int(art.size.height)), ("format", .string(art.format.rawValue))])
        } ?? .null
        if try arguments[json] {
            print(JSONValue.object([
                ("input", .string(input.path)),
                ("output", .string(output.path)),
                ("method", .string(result.method)),
                ("note", .optional(result.note)),
                ("start", .time(result.start)),
                ("duration", .time(result.duration)),
                ("frames", .int(result.frameCount)),
                ("width", .int(result.size.width)),
                ("height", .int(result.size.height)),
                ("audio", .optional(result.audio)),
                ("framesReencoded", result.reencodedFrames.map(JSONValue.int) ?? .null),
                ("framesCopied", result.copiedFrames.map(JSONValue.int) ?? .null),
                ("parts", .array(result.parts.map { part in
                    .object([("method", .string(part.reencoded ? "reencoded" : "copied")), ("start", .time(part.start)),
                             ("duration", .time(part.duration)), ("frames", .int(part.frames))])
                })),
                ("cover", coverJSON),
            ]).rendered())
        } else {
            if let note = result.note {
                ViewfinderTool.standardError("viewfinder: " + (result.keyframeBefore == nil ? tr("note: {note}", ["note": note])
                                                                                          : tr("note: {note} (--keyframe-cut)", ["note": note])))
            }
            print(tr("{file}: {details}", ["file": output.path, "details": resultParts(result, cover: art).joinedAsDetails()]))
        }
        return 0
    }

    /// What an export wrote, item by item, in the user's language: "150 frames", "5 s from 0 s",
    /// "1280×720", "smart (30 re-encoded, 120 copied)", "audio aac", "cover: frame at 1 s (…)".
    private static func resultParts(_ result: ExportResult, cover: CoverArt?) -> [String] {
        var method = result.method
        if let reencoded = result.reencodedFrames, let copied = result.copiedFrames {
            // TRANSLATORS: {method} is how an export was made, such as smart (a value of --method).
            method = tr("{method} ({reencoded} re-encoded, {copied} copied)", ["method": method, "reencoded": reencoded, "copied": copied])
        }
        var parts = [
            trn("{count} frames", "{count} frames", result.frameCount),
            tr("{seconds} s from {start} s", ["seconds": result.duration.decimalString, "start": result.start.decimalString]),
            "\(result.size.width)×\(result.size.height)",
            method,
        ]
        // TRANSLATORS: {codec} is the audio codec, such as aac.
        if let audio = result.audio { parts.append(tr("audio {codec}", ["codec": audio])) }
        if let cover {
            parts.append(tr("cover: frame at {seconds} s ({width}×{height})",
                            ["seconds": cover.time?.decimalString ?? "?", "width": cover.size.width, "height": cover.size.height]))
        }
        return parts
    }
}
