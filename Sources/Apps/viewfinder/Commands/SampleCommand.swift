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
    static let options = [
        OptionSpec("output", short: "o", value: "OUT", help: N_("The MP4 file to write.")),
        OptionSpec("seconds", value: "S", help: N_("Length in whole seconds, 1-600 (default 6).")),
        OptionSpec("size", value: "WxH", help: N_("Picture size, even numbers (default 640x360).")),
        OptionSpec("fps", value: "N", help: N_("Frames per second, 1-120 (default 30).")),
        OptionSpec("json", help: N_("Print what was written as JSON.")),
    ]
    static let discussion = N_("""
    Each frame carries its index twice: as large digits, and as a 14-bit bar across the top
    (white cell, black cell, then the bits) that tests read back to check frame exactness.
    Encoded with H.264 (libx264) when available, a keyframe every 2 s, B-frames on, index at
    the front of the file.
    """)

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let output = URL(fileURLWithPath: try arguments.required("output"))
        let seconds = try arguments.integer("seconds", in: 1...600, default: 6)
        let fps = try arguments.integer("fps", in: 1...120, default: 30)
        var size = PixelSize(width: 640, height: 360)
        if let text = arguments.value("size") {
            guard let parsed = Arguments.pixelSize(text), parsed.width % 2 == 0, parsed.height % 2 == 0,
                  parsed.width >= 32, parsed.height >= 32 else {
                throw arguments.invalid("size", tr("expected even WxH from 32x32 to 16384x16384, not '{text}'", ["text": text]))
            }
            size = parsed
        }
        let writer = try VideoWriter(url: output, size: size, framesPerSecond: Int32(fps),
                                     keyframeInterval: Int32(2 * fps), bFrames: 2)
        for index in 0..<(seconds * fps) {
            try writer.append(FrameIndexPattern.render(index: index, size: size))
        }
        try writer.finish()
        if arguments.flag("json") {
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
