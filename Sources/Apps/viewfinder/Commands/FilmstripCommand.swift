import CommandLineKit
import CoverPicker
import Foundation
import Imaging
import MediaIO
import ViewfinderCore

/// `viewfinder filmstrip VIDEO -o OUT`: frames at even steps across a video.
enum FilmstripCommand: Command {
    static let name = "filmstrip"
    static let summary = N_("Take N frames at even steps across a video, as files or one contact sheet.")
    static let synopsis = "VIDEO -o OUT [--count N] [--height H] [--exact] [--max-duration S] [--json]"
    static let positionalCount = 1...1
    static let output = TypedOption.requiredPath("output", short: "o", value: "OUT",
                                                 help: N_("A folder (frame-01.jpg, ...) or one .jpg/.png sheet."))
    static let count = TypedOption.integer("count", help: N_("Number of frames, 1-100 (default 6)."), in: 1...100, default: 6)
    static let height = TypedOption.integer("height", value: "H", help: N_("Height of each frame in pixels (default 180)."),
                                            in: 16...4320, default: 180)
    static let exact = TypedOption.flag("exact", help: N_("The exact frame at each i·d/N instead of a fast frame from each slice."))
    static let quality = Arguments.imageQuality(default: 85, help: N_("JPEG quality 1-100 (default 85)."))
    static let quiet = TypedOption.flag("quiet", short: "q", help: N_("No progress display (shown on stderr when decoding takes a while)."))
    static let json = TypedOption.flag("json", help: N_("Print the requested and actual times and the outputs as JSON."))
    static let options = OptionSpec.list(output, count, height, exact, Arguments.durationLimitOption, quality, Arguments.hdr, quiet, json)
    static let discussion = N_("""
    Cell i (i = 0 ... N-1) stands for the slice [i·d/N, (i+1)·d/N) of the video, d being its
    duration, and shows a frame from inside that slice, so no two cells are alike: by default
    the slice's last keyframe (fast: one decode each, as a strip under a slider needs), or, for
    a slice without a keyframe of its own, the first frame in it, decoded forward from the
    keyframe before it. --exact decodes the exact frame at each i·d/N instead. A video with
    fewer frames than cells leaves the cells without a frame of their own empty and says so.
    OUT ending in .jpg, .jpeg, .png or .webp gets one sheet with the frames side by side; any
    other OUT is a folder that receives frame-01.jpg ... frame-NN.jpg (NN: the cell's number).
    HDR video (HLG or PQ) is tone-mapped to SDR unless --hdr says otherwise.
    """)

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let input = URL(fileURLWithPath: arguments.positionals[0])
        let output = try arguments[Self.output]
        let count = try arguments[Self.count]
        let height = try arguments[Self.height]
        let quality = try arguments[Self.quality]
        let limit = try Arguments.durationLimit(arguments)
        let mode: FrameMode = try arguments[exact] ? .exact : .fast
        let hdr = try arguments[Arguments.hdr]
        let sheet = ImageFormat(pathExtension: output.pathExtension) != nil
        if sheet {
            try Arguments.checkImageOutput(output, input: input, option: Self.output, in: arguments)
        }

        ImagingRuntime.loadsOptionalFormats = false  // only JPEG/PNG/WebP are written here
        let reader = try CoverPicker.open(input, limit: limit)
        reader.hdr = hdr
        // Exact frames, and fast cells decoded forward, can take a while on long GOPs: under the HUD.
        let shared = Lent(reader)
        let file = input.lastPathComponent
        let label = mode == .exact
            ? trn("Decoding {count} exact frames of {file}", "Decoding {count} exact frames of {file}", count, ["file": file])
            : trn("Decoding a {count}-frame strip of {file}", "Decoding a {count}-frame strip of {file}", count, ["file": file])
        let cells = try ProgressDisplay.run(label: label,
                                            quiet: try arguments[quiet], unit: .frames) { progress in
            try CoverPicker.filmstrip(from: shared.value, count: count, mode: mode, size: .height(height), progress: progress)
        }
        let shown = cells.compactMap { cell in cell.frame.map { (cell, $0) } }
        var outputs: [URL] = []
        if sheet {
            try ImageEncoder.write(ContactSheet.row(shown.map(\.1.image)), to: output, quality: quality)
            outputs = [output]
        } else {
            outputs = try writeFolder(shown, to: output, quality: quality)
        }
        let empty = cells.count - shown.count

        if try arguments[json] {
            var written = outputs.makeIterator()
            let items: [JSONValue] = cells.map { cell in
                let file: JSONValue = cell.frame == nil ? .null : .string(sheet ? output.path : written.next()?.path ?? "")
                return .object([
                    ("index", .int(cell.index)),
                    ("requested", .time(cell.requested)),
                    ("actual", cell.frame.map { .time($0.time) } ?? .null),
                    ("exact", .bool(cell.isExact)),
                    ("keyframe", cell.frame.map { .bool($0.isKeyframe) } ?? .null),
                    ("output", file),
                ])
            }
            print(JSONValue.object([
                ("input", .string(input.path)),
                ("duration", .time(reader.duration)),
                ("mode", .string(mode.rawValue)),
                ("frames", .array(items)),
                ("empty", .int(empty)),
                ("outputs", .array(outputs.map { .string($0.path) })),
            ]).rendered())
        } else {
            let values: KeyValuePairs<String, any CustomStringConvertible> = [
                "file": sheet ? output.path : output.path + "/",
                "times": shown.map { $0.1.time.decimalString }.joined(separator: ", "),
            ]
            var line = mode == .exact
                ? trn("{file}: {count} exact frames at {times} s", "{file}: {count} exact frames at {times} s", shown.count, values)
                : trn("{file}: {count} fast frames at {times} s", "{file}: {count} fast frames at {times} s", shown.count, values)
            if empty > 0 {
                line = tr("{line} ({empty} of {cells} cells empty: the video has fewer frames than cells)",
                          ["line": line, "empty": empty, "cells": count])
            }
            print(line)
        }
        return 0
    }

    /// Writes frame-NN.jpg for each cell with a frame into `folder` (NN: the cell's number);
    /// either all appear or none do.
    private static func writeFolder(_ frames: [(StripCell, VideoFrame)], to folder: URL, quality: Int) throws -> [URL] {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        let existed = manager.fileExists(atPath: folder.path, isDirectory: &isDirectory)
        if existed && !isDirectory.boolValue {
            throw RuntimeError(tr("{folder} exists and is not a folder; give a folder or a .jpg/.png name", ["folder": folder.path]))
        }
        if !existed {
            do {
                try manager.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                throw RuntimeError(tr("cannot create the folder {folder}: {reason}",
                                      ["folder": folder.path, "reason": (error as NSError).localizedDescription]))
            }
        }
        var written: [URL] = []
        do {
            for (cell, frame) in frames {
                let url = folder.appendingPathComponent(String(format: "frame-%02d.jpg", cell.index + 1))
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
