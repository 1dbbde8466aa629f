import CommandLineKit
import CoverPicker
import Foundation
import MediaIO
import ViewfinderCore

/// `viewfinder convert IN -o OUT.mp4`: MOV (or anything FFmpeg reads) to MP4.
enum ConvertCommand: Command {
    static let name = "convert"
    static let summary = N_("Convert a video to MP4: remux when it fits, else H.264/AAC, index first.")
    static let synopsis = "IN -o OUT.mp4 [--preset P] [--cover TIME|best] [--max-duration S] [--no-faststart] [--quiet] [--json]"
    static let positionalCount = 1...1
    static let options = ExportOptions.common + maxDuration.specs
    /// `--max-duration S`: no limit when absent or 0.
    static let maxDuration = SharedOption.maxDuration(help: N_("Refuse inputs longer than S seconds (default: no limit)."),
                                                      zeroMeansNoLimit: true)
    /// The paragraphs in the user's language, shared with `trim`.
    static var discussion: String { ExportOptions.coverHelp + "\n\n" + ExportOptions.presetHelp }

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let input = URL(fileURLWithPath: arguments.positionals[0])
        var settings = try ExportOptions.settings(arguments)
        settings.maxDuration = try arguments[maxDuration].maximum(default: settings.maxDuration)
        return try ExportOptions.perform(input: input, arguments: arguments, settings: settings,
                                         label: tr("Converting {file}", ["file": input.lastPathComponent]),
                                         cover: try arguments[ExportOptions.cover],
                                         limit: DurationLimit(maximum: settings.maxDuration))
    }
}

/// `viewfinder trim IN --from T --to T -o OUT.mp4`: a frame-exact cut; `--keep A-B` (repeated)
/// joins several ranges.
enum TrimCommand: Command {
    static let name = "trim"
    static let summary = N_("Cut a video from the frame at --from up to --to (or join --keep ranges), frame-exact, into MP4.")
    static let synopsis = "IN (--from TIME --to TIME | --keep A-B ...) -o OUT.mp4 [--method M] [--preset P] [--keyframe-cut] [--cover TIME|best] [--quiet] [--json]"
    static let positionalCount = 1...1
    static let from = TypedOption.position("from", help: N_("First frame: the frame shown at TIME (default 0)."))
    static let to = TypedOption.position("to", help: N_("End: frames shown at or after TIME are cut (default: the end)."))
    /// `--keep A-B`, repeated: the texts in order (`keptRanges` reads and checks them together).
    static let keep = TypedOption.repeated("keep", value: "A-B", help: N_("Keep A up to B (TIME-TIME); repeat to join several ranges in order."))
    /// `--method M`: nil when absent (the settings' default, smart).
    static let method = TypedOption<TrimMethod?>("method", value: "M", help: N_("smart (re-encode only the edges, copy the rest; default) or reencode."),
                                                 absent: { nil }) { text throws(InvalidValueError) in
        guard let method = TrimMethod(rawValue: text.lowercased()) else {
            throw InvalidValueError(tr("expected smart or reencode, not '{text}'", ["text": text]))
        }
        return method
    }
    static let keyframeCut = TypedOption.flag("keyframe-cut", help: N_("With passthrough, start at the keyframe at or before --from instead of re-encoding."))
    static let options = ExportOptions.common + OptionSpec.list(from, to, keep, method, keyframeCut)
    /// The paragraphs in the user's language (`--cover`'s and the presets' are `convert`'s too).
    static var discussion: String {
        tr("""
        The first frame is the frame shown at --from, as `cover` defines it; the last is the last frame
        shown before --to. --keep A-B keeps the same span (A as --from, B as --to); several --keep
        ranges are joined in the order given, each join frame-exact; they may not overlap, run
        backwards or lie past the end.

        --method smart (the default) cuts H.264 and HEVC in MP4, MOV or Matroska at copy speed: the
        frames from the cut to the first IDR keyframe after it, and from the last usable keyframe to
        the end, are re-encoded with x264 or x265 matched to the source (profile, level, size, pixel
        format, colour, aspect ratio, timestamps); the packets between are copied unchanged. Where that cannot
        work (another codec, a size-changing preset, a check decode of the output that fails) the
        range is re-encoded whole and a note says why. --method reencode
        copies when the cut falls on keyframes and re-encodes otherwise; --keyframe-cut starts a
        passthrough cut at the keyframe before --from. The first audio track keeps exactly the kept
        ranges' samples: one range of AAC is copied, joined ranges (and audio MP4 cannot hold) are
        re-encoded to AAC, cut to the sample. With --cover, TIME is on the input's timeline and must lie
        inside a kept range; best is the best suggestion inside them.
        """) + "\n\n" + ExportOptions.coverHelp + "\n\n" + ExportOptions.presetHelp
    }

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let input = URL(fileURLWithPath: arguments.positionals[0])
        var settings = try ExportOptions.settings(arguments)
        if let method = try arguments[method] { settings.method = method }
        settings.keyframeCut = try arguments[keyframeCut]
        let keeps = try arguments[keep]
        if keeps.isEmpty {
            let from = try arguments[Self.from] ?? .time(.zero)
            let to = try arguments[Self.to]
            if case .time(let a) = from, case .time(let b)? = to, b <= a {
                throw arguments.invalid(Self.to, tr("must be after --from"))
            }
            settings.range = ExportRange(start: from, end: to)
        } else {
            if arguments.isGiven(Self.from) || arguments.isGiven(Self.to) {
                throw arguments.invalid(keep, tr("give the ranges with --keep or with --from/--to, not both"))
            }
            if keeps.count > 1 && settings.keyframeCut {
                throw arguments.invalid(keyframeCut, tr("cuts one range, not several --keep ranges"))
            }
            settings.ranges = try keptRanges(keeps, input: input, in: arguments)
        }
        return try ExportOptions.perform(input: input, arguments: arguments, settings: settings,
                                         label: tr("Trimming {file}", ["file": input.lastPathComponent]),
                                         cover: try arguments[ExportOptions.cover])
    }

    /// The `--keep` ranges, checked: each runs forwards, none overlaps another, none lies past
    /// the end of the video (when its header says how long it is).
    private static func keptRanges(_ texts: [String], input: URL, in arguments: ParsedArguments) throws(UsageError) -> [ExportRange] {
        var ranges: [ExportRange] = []
        for text in texts {
            let sides = text.split(separator: "-", omittingEmptySubsequences: false)
            guard sides.count == 2 else {
                throw arguments.invalid(keep, tr("expected A-B (two times joined by '-', like 1.5-4), not '{text}'", ["text": text]))
            }
            let a = try Arguments.position(String(sides[0]), option: keep.name, in: arguments)
            let b = try Arguments.position(String(sides[1]), option: keep.name, in: arguments)
            if a.isBefore(b) == false {
                throw arguments.invalid(keep, tr("'{range}' runs backwards: its end must come after its start", ["range": text]))
            }
            ranges.append(ExportRange(start: a, end: b))
        }
        for (i, r) in ranges.enumerated() {
            for other in ranges[(i + 1)...] where r.overlaps(other) == true {
                throw arguments.invalid(keep, tr("'{range}' and '{other}' overlap",
                                                   ["range": texts[i], "other": texts[ranges.firstIndex(of: other) ?? i]]))
            }
        }
        if let duration = (try? headerDuration(of: input)) ?? nil {
            for (text, range) in zip(texts, ranges) {
                if case .time(let end)? = range.end, end > duration {
                    throw arguments.invalid(keep, tr("'{range}' ends past the end of the video ({seconds} s)",
                                                       ["range": text, "seconds": duration.decimalString]))
                }
            }
        }
        return ranges
    }
}
