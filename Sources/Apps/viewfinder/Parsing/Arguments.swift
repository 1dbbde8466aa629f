import CommandLineKit
import CoverPicker
import Foundation
import Imaging
import MediaIO
import ViewfinderCore

/// Option values shared by several commands, parsed and checked in one place.
enum Arguments {
    /// A TIME argument (seconds, m:ss.fff, h:mm:ss or frame:N) given inside another option's
    /// value (`--keep A-B`).
    static func position(_ text: String, option: String, in arguments: ParsedArguments) throws(UsageError) -> TimePosition {
        do throws(InvalidValueError) {
            return try TimePosition(optionValue: text)
        } catch {
            throw arguments.invalid(option, error.reason)
        }
    }

    /// `--max-size WxH`: the box a picture is fitted in (the original size when absent).
    static let maxSize = TypedOption<FrameSize>("max-size", value: "WxH", help: N_("Fit the cover in this box (never enlarged)."),
                                                absent: { .original }) { text throws(InvalidValueError) in
        guard let size = PixelSize(parsing: text) else {
            throw InvalidValueError(tr("expected WxH with both sides from 1 to 16384, like 1280x720, not '{text}'", ["text": text]))
        }
        return .fit(size)
    }

    /// `--size WxH` where the picture is made (a sample, a recording): both sides even and at
    /// least `minimum`, nil when absent (the command's default).
    static func evenSize(help: String, minimum: Int = 2) -> TypedOption<PixelSize?> {
        TypedOption("size", value: "WxH", help: help, absent: { nil }) { text throws(InvalidValueError) in
            guard let size = PixelSize(parsing: text), size.width % 2 == 0, size.height % 2 == 0,
                  size.width >= minimum, size.height >= minimum else {
                throw InvalidValueError(minimum > 2
                    ? tr("expected even WxH from {minimum}x{minimum} to 16384x16384, not '{text}'", ["minimum": minimum, "text": text])
                    : tr("expected even WxH, not '{text}'", ["text": text]))
            }
            return size
        }
    }

    /// `--fps N`: frames per second of a video a command makes, 30 when absent.
    static let fps = TypedOption.integer("fps", help: N_("Frames per second, 1-120 (default 30)."), in: 1...120, default: 30)

    /// `--quality Q`: a JPEG's (or WebP's) quality, `fallback` when absent; `help` says which
    /// formats and the default.
    static func imageQuality(default fallback: Int, help: String) -> TypedOption<Int> {
        TypedOption.integer("quality", value: "Q", help: help, in: 1...100, default: fallback)
    }

    /// `--hdr tonemap|clip|none`, declared once for every command that makes pictures from
    /// video (tone-mapped when absent).
    static let hdr = TypedOption<HDRConversion>.choice(
        "hdr", value: "MODE",
        help: N_("HLG/PQ video: tonemap (default: as the phone showed it), clip, or none (the coded values)."),
        default: .toneMap)

    /// `--max-duration S` for the commands that refuse long videos before decoding (cover,
    /// filmstrip): 30 s when absent, 0 for no limit.
    static let durationLimitOption = SharedOption.maxDuration(help: N_("Refuse longer videos (default 30, 0 = no limit)."),
                                                              zeroMeansNoLimit: true)

    /// The limit `--max-duration` sets (see `durationLimitOption`).
    static func durationLimit(_ arguments: ParsedArguments) throws(UsageError) -> DurationLimit {
        DurationLimit(maximum: try arguments[durationLimitOption].maximum(default: DurationLimit.standard.maximum))
    }

    /// Checks an image output path before any work: a known extension, not the input, and a
    /// folder that exists.
    static func checkImageOutput<Value>(_ output: URL, input: URL, option: TypedOption<Value>,
                                        in arguments: ParsedArguments) throws {
        guard ImageFormat(pathExtension: output.pathExtension) != nil else {
            throw arguments.invalid(option, tr("'{file}' must end in .jpg, .jpeg, .png or .webp", ["file": output.lastPathComponent]))
        }
        try checkOutputLocation(output, input: input)
    }

    /// Checks an output path by the one rule every command applies (`OutputLocation.check`):
    /// not the input, in an existing folder, not a folder, outside the photo libraries.
    static func checkOutputLocation(_ output: URL, input: URL, libraries: [URL] = []) throws {
        do {
            try OutputLocation.check(output, input: input, libraries: libraries)
        } catch {
            throw RuntimeError(error.description)
        }
    }

    /// A requested position for JSON output: seconds, or the frame number.
    static func requestedJSON(_ position: TimePosition) -> JSONValue {
        switch position {
        case .time(let t): return .time(t)
        case .frame(let n): return .string("frame:\(n)")
        }
    }
}
