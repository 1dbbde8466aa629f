import CommandLineKit
import CoverPicker
import Foundation
import Imaging
import MediaIO
import ViewfinderCore

/// Option values shared by several commands, parsed and checked in one place.
enum Arguments {
    /// A TIME argument (seconds, m:ss.fff, h:mm:ss or frame:N).
    static func position(_ text: String, option: String, in arguments: ParsedArguments) throws(UsageError) -> TimePosition {
        do {
            return try TimePosition(parsing: text)
        } catch {
            throw arguments.invalid(option, error.description)
        }
    }

    /// `--max-size WxH` as a frame size (original when absent).
    static func frameSize(_ arguments: ParsedArguments) throws(UsageError) -> FrameSize {
        guard let text = arguments.value("max-size") else { return .original }
        guard let size = pixelSize(text) else {
            throw arguments.invalid("max-size", tr("expected WxH with both sides from 1 to 16384, like 1280x720, not '{text}'",
                                                   ["text": text]))
        }
        return .fit(size)
    }

    /// "640x360" or "640×360" (see `PixelSize(parsing:)`).
    static func pixelSize(_ text: String) -> PixelSize? {
        PixelSize(parsing: text)
    }

    /// `--hdr MODE`, declared once for every command that makes pictures from video.
    static let hdrOption = OptionSpec(
        "hdr", value: "MODE",
        help: N_("HLG/PQ video: tonemap (default: as the phone showed it), clip, or none (the coded values)."))

    /// `--hdr tonemap|clip|none` (tone-mapped when absent).
    static func hdrConversion(_ arguments: ParsedArguments) throws(UsageError) -> HDRConversion {
        guard let text = arguments.value("hdr") else { return .toneMap }
        guard let mode = HDRConversion(rawValue: text) else {
            throw arguments.invalid("hdr", tr("expected {choices}, not '{text}'",
                                              ["choices": alternatives(HDRConversion.allCases.map(\.rawValue)), "text": text]))
        }
        return mode
    }

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
    static func checkImageOutput(_ output: URL, input: URL, option: String,
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

    /// Option values as a person reads a choice between them ("tonemap, clip or none"), the
    /// commas and the "or" in the user's language.
    static func alternatives(_ names: [String]) -> String {
        choiceList(names)
    }

    /// A requested position for JSON output: seconds, or the frame number.
    static func requestedJSON(_ position: TimePosition) -> JSONValue {
        switch position {
        case .time(let t): return .time(t)
        case .frame(let n): return .string("frame:\(n)")
        }
    }
}
