import CommandLineKit
import Foundation
import MediaIO
import ViewfinderCore

/// `viewfinder convert IN -o OUT.mp4`: MOV (or anything FFmpeg reads) to MP4.
enum ConvertCommand: Command {
    static let name = "convert"
    static let summary = "Convert a video to MP4: remux when it fits, else H.264/AAC, index first."
    static let synopsis = "IN -o OUT.mp4 [--preset P] [--max-duration S] [--no-faststart] [--quiet] [--json]"
    static let positionalCount = 1...1
    static let options = ExportOptions.common + [
        OptionSpec("max-duration", value: "S", help: "Refuse inputs longer than S seconds (default: no limit)."),
    ]
    static let discussion = ExportOptions.presetHelp

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let input = URL(fileURLWithPath: arguments.positionals[0])
        var settings = try ExportOptions.settings(arguments)
        if let text = arguments.value("max-duration") {
            guard case .time(let seconds)? = try? TimePosition(parsing: text) else {
                throw arguments.invalid("max-duration", "expected seconds (0 = no limit), not '\(text)'")
            }
            settings.maxDuration = seconds > .zero ? seconds : nil
        }
        return try ExportOptions.perform(input: input, arguments: arguments, settings: settings,
                                         label: "Converting \(input.lastPathComponent)")
    }
}

/// `viewfinder trim IN --from T --to T -o OUT.mp4`: a frame-exact cut.
enum TrimCommand: Command {
    static let name = "trim"
    static let summary = "Cut a video from the frame at --from up to --to, frame-exact, into MP4."
    static let synopsis = "IN --from TIME --to TIME -o OUT.mp4 [--preset P] [--keyframe-cut] [--quiet] [--json]"
    static let positionalCount = 1...1
    static let options = ExportOptions.common + [
        OptionSpec("from", value: "TIME", help: "First frame: the frame shown at TIME (default 0)."),
        OptionSpec("to", value: "TIME", help: "End: frames shown at or after TIME are cut (default: the end)."),
        OptionSpec("keyframe-cut", help: "With passthrough, start at the keyframe at or before --from instead of re-encoding."),
    ]
    static let discussion = """
    The first frame is the frame shown at --from, as `cover` defines it; the last is the last frame
    shown before --to. A passthrough cut can only start on a keyframe: when --from is not on one,
    trim says so and re-encodes, unless --keyframe-cut is given. Audio is cut at packet edges.

    """ + ExportOptions.presetHelp

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let input = URL(fileURLWithPath: arguments.positionals[0])
        var settings = try ExportOptions.settings(arguments)
        let from = try Arguments.position(arguments.value("from") ?? "0", option: "from", in: arguments)
        let to = try arguments.value("to").map { text throws(UsageError) in try Arguments.position(text, option: "to", in: arguments) }
        if case .time(let a) = from, case .time(let b)? = to, b <= a {
            throw arguments.invalid("to", "must be after --from")
        }
        settings.range = ExportRange(start: from, end: to)
        settings.keyframeCut = arguments.flag("keyframe-cut")
        return try ExportOptions.perform(input: input, arguments: arguments, settings: settings,
                                         label: "Trimming \(input.lastPathComponent)")
    }
}
