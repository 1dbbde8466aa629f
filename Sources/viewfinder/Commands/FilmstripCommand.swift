import CommandLineKit
import CoverPicker
import Foundation
import Imaging
import MediaIO
import ViewfinderCore

/// `viewfinder filmstrip VIDEO -o OUT`: frames at even steps across a video.
enum FilmstripCommand: Command {
    static let name = "filmstrip"
    static let summary = "Take N frames at even steps across a video, as files or one contact sheet."
    static let synopsis = "VIDEO -o OUT [--count N] [--height H] [--exact] [--max-duration S] [--json]"
    static let positionalCount = 1...1
    static let options = [
        OptionSpec("output", short: "o", value: "OUT", help: "A folder (frame-01.jpg, ...) or one .jpg/.png sheet."),
        OptionSpec("count", value: "N", help: "Number of frames, 1-100 (default 6)."),
        OptionSpec("height", value: "H", help: "Height of each frame in pixels (default 180)."),
        OptionSpec("exact", help: "Exact frames instead of the keyframe before each time."),
        OptionSpec("max-duration", value: "S", help: "Refuse longer videos (default 30, 0 = no limit)."),
        OptionSpec("quality", value: "Q", help: "JPEG quality 1-100 (default 85)."),
        OptionSpec("quiet", short: "q", help: "No progress display (shown for --exact on stderr)."),
        OptionSpec("json", help: "Print the requested and actual times and the outputs as JSON."),
    ]
    static let discussion = """
    Frame i (i = 0 ... N-1) is taken at i·d/N, d being the duration. By default each is the
    keyframe at or before its time (fast, as a strip under a slider needs); --exact decodes the
    exact frame. OUT ending in .jpg, .jpeg, .png or .webp gets one sheet with the frames side by
    side; any other OUT is a folder that receives frame-01.jpg ... frame-NN.jpg.
    """

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let input = URL(fileURLWithPath: arguments.positionals[0])
        let output = URL(fileURLWithPath: try arguments.required("output"))
        let count = try arguments.integer("count", in: 1...100, default: 6)
        let height = try arguments.integer("height", in: 16...4320, default: 180)
        let quality = try arguments.integer("quality", in: 1...100, default: 85)
        let limit = try Arguments.durationLimit(arguments)
        let mode: FrameMode = arguments.flag("exact") ? .exact : .fast
        let sheet = ImageFormat(pathExtension: output.pathExtension) != nil
        if sheet {
            try Arguments.checkImageOutput(output, input: input, option: "output", in: arguments)
        }

        ImagingRuntime.loadsOptionalFormats = false  // only JPEG/PNG/WebP are written here
        let reader = try CoverPicker.open(input, limit: limit)
        let frames: [VideoFrame]
        if mode == .exact {
            // Exact frames can take a while on long GOPs: decode them under the HUD.
            let shared = Lent(reader)
            frames = try ProgressDisplay.run(label: "Decoding \(count) exact frames of \(input.lastPathComponent)",
                                             quiet: arguments.flag("quiet"), unit: .frames) { progress in
                try CoverPicker.filmstrip(from: shared.value, count: count, mode: .exact, size: .height(height), progress: progress)
            }
        } else {
            frames = try CoverPicker.filmstrip(from: reader, count: count, mode: mode, size: .height(height))
        }
        var outputs: [URL] = []
        if sheet {
            try ImageEncoder.write(ContactSheet.row(frames.map(\.image)), to: output, quality: quality)
            outputs = [output]
        } else {
            outputs = try writeFolder(frames, to: output, quality: quality)
        }

        let times = CoverPicker.stripTimes(duration: reader.duration, count: count)
        if arguments.flag("json") {
            let items: [JSONValue] = zip(times, frames).enumerated().map { i, pair in
                .object([
                    ("index", .int(i)),
                    ("requested", .time(pair.0)),
                    ("actual", .time(pair.1.time)),
                    ("keyframe", .bool(pair.1.isKeyframe)),
                    ("output", .string(sheet ? output.path : outputs[i].path)),
                ])
            }
            print(JSONValue.object([
                ("input", .string(input.path)),
                ("duration", .time(reader.duration)),
                ("mode", .string(mode.rawValue)),
                ("frames", .array(items)),
                ("outputs", .array(outputs.map { .string($0.path) })),
            ]).rendered())
        } else {
            let actual = frames.map { $0.time.decimalString }.joined(separator: ", ")
            let target = sheet ? output.path : output.path + "/"
            print("\(target): \(frames.count) \(mode.rawValue) frames at \(actual) s")
        }
        return 0
    }

    /// Writes frame-01.jpg ... into `folder`; either all appear or none do.
    private static func writeFolder(_ frames: [VideoFrame], to folder: URL, quality: Int) throws -> [URL] {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        let existed = manager.fileExists(atPath: folder.path, isDirectory: &isDirectory)
        if existed && !isDirectory.boolValue {
            throw RuntimeError("\(folder.path) exists and is not a folder; give a folder or a .jpg/.png name")
        }
        if !existed {
            do {
                try manager.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                throw RuntimeError("cannot create the folder \(folder.path): \((error as NSError).localizedDescription)")
            }
        }
        var written: [URL] = []
        do {
            for (i, frame) in frames.enumerated() {
                let url = folder.appendingPathComponent(String(format: "frame-%02d.jpg", i + 1))
                try ImageEncoder.write(frame.image, to: url, quality: quality)
                written.append(url)
            }
        } catch {
            for url in written { try? manager.removeItem(at: url) }
            if !existed { try? manager.removeItem(at: folder) }
            throw error
        }
        return written
    }
}
