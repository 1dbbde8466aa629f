import CommandLineKit
import Foundation
import MediaIO
import ViewfinderCore

/// `viewfinder sample -o clip.mp4`: a generated clip whose frames show their own number.
enum SampleCommand: Command {
    static let name = "sample"
    static let summary = N_("Make a sample clip whose frames show their own number (for demos and tests).")
    static let synopsis = "-o OUT.mp4 [--seconds S] [--size WxH] [--fps N] [--json]"
    static let positionalCount = 0...0
    static let output = TypedOption.requiredPath("output", short: "o", value: "OUT", help: N_("The MP4 file to write."))
    static let seconds = TypedOption.integer("seconds", value: "S", help: N_("Length in whole seconds, 1-600 (default 6)."),
                                             in: 1...600, default: 6)
    static let size = Arguments.evenSize(help: N_("Picture size, even numbers (default 640x360)."), minimum: 32)
    static let json = TypedOption.flag("json", help: N_("Print what was written as JSON."))
    static let options = OptionSpec.list(output, seconds, size, Arguments.fps, json)
    static let discussion = N_("""
    Each frame carries its index twice: as large digits, and as a 14-bit bar across the top
    (white cell, black cell, then the bits) that tests read back to check frame exactness.
    Encoded with H.264 (libx264) when available, a keyframe every 2 s, B-frames on, index at
    the front of the file.
    """)

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let output = try arguments[Self.output]
        let seconds = try arguments[Self.seconds]
        let fps = try arguments[Arguments.fps]
        let size = try arguments[Self.size] ?? PixelSize(width: 640, height: 360)
        let writer = try VideoWriter(url: output, size: size, framesPerSecond: Int32(fps),
                                     keyframeInterval: Int32(2 * fps), bFrames: 2)
        for index in 0..<(seconds * fps) {
            try writer.append(FrameIndexPattern.render(index: index, size: size))
        }
        try writer.finish()
        if try arguments[json] {
            print(JSONValue.object([
                ("output", .string(output.path)),
                ("frames", .int(seconds * fps)),
                ("width", .int(size.width)),
                ("height", .int(size.height)),
                ("fps", .int(fps)),
                ("duration", .int(seconds)),
                ("encoder", .string(writer.encoderName)),
            ]).rendered())
        } else {
            print(trn("{file}: {count} frames, {width}×{height} at {fps} fps ({encoder})",
                      "{file}: {count} frames, {width}×{height} at {fps} fps ({encoder})", seconds * fps,
                      ["file": output.path, "width": size.width, "height": size.height, "fps": fps, "encoder": writer.encoderName]))
        }
        return 0
    }
}
