import CommandLineKit
import CoverPicker
import Foundation
import Imaging
import MediaIO
import MediaLibrary
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
            throw arguments.invalid("max-size", "expected WxH with both sides from 1 to 16384, like 1280x720, not '\(text)'")
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
        help: "HLG/PQ video: tonemap (default: as the phone showed it), clip, or none (the coded values).")

    /// `--hdr tonemap|clip|none` (tone-mapped when absent).
    static func hdrConversion(_ arguments: ParsedArguments) throws(UsageError) -> HDRConversion {
        guard let text = arguments.value("hdr") else { return .toneMap }
        guard let mode = HDRConversion(rawValue: text) else {
            throw arguments.invalid("hdr", "expected \(HDRConversion.spellings), not '\(text)'")
        }
        return mode
    }

    /// `--max-duration S` (default 30 s, 0 = no limit).
    static func durationLimit(_ arguments: ParsedArguments) throws(UsageError) -> DurationLimit {
        guard let text = arguments.value("max-duration") else { return .standard }
        guard case .time(let seconds)? = try? TimePosition(parsing: text) else {
            throw arguments.invalid("max-duration", "expected seconds (0 = no limit), not '\(text)'")
        }
        return DurationLimit(seconds: seconds)
    }

    /// Checks an image output path before any work: a known extension, not the input, and a
    /// folder that exists.
    static func checkImageOutput(_ output: URL, input: URL, option: String,
                                 in arguments: ParsedArguments) throws {
        guard ImageFormat(pathExtension: output.pathExtension) != nil else {
            throw arguments.invalid(option, "'\(output.lastPathComponent)' must end in .jpg, .jpeg, .png or .webp")
        }
        try checkOutputLocation(output, input: input)
    }

    /// Checks that `output` is not the input, lies in an existing folder, is not a folder, and
    /// lies outside the photo library (the default one, and any in `libraries`): the library's
    /// files are its own.
    static func checkOutputLocation(_ output: URL, input: URL,
                                    libraries: [URL] = []) throws {
        for library in libraries + [MediaLibrary.defaultLocation()] {
            if MediaLibrary.contains(output, library: library) {
                throw RuntimeError("cannot write \(output.path): it is inside the photo library at \(library.path); choose a place outside it")
            }
        }
        if output.standardizedFileURL.resolvingSymlinksInPath() == input.standardizedFileURL.resolvingSymlinksInPath() {
            throw RuntimeError("the output \(output.path) is the input; choose another name")
        }
        var isDirectory: ObjCBool = false
        let folder = output.deletingLastPathComponent()
        if !FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory) || !isDirectory.boolValue {
            throw RuntimeError("cannot write \(output.path): the folder \(folder.path) does not exist")
        }
        if let problem = AtomicFile.nonRegularTarget(output) {
            throw RuntimeError("cannot write \(output.path): \(problem)")
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
