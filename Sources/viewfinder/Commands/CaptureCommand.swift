import CommandLineKit
import Capture
import Foundation
import MediaIO
import MediaLibrary
import ViewfinderCore

/// `viewfinder capture photo|video`: take a photo or record a video.
enum CaptureCommand: Command {
    static let name = "capture"
    static let summary = "Take a photo or record a video from a camera (or the virtual test camera)."
    static let synopsis = "photo|video [--device ID|virtual] [--size WxH] [--quality high|medium|low] [--max-duration S] (-o OUT | --save [--library DIR])"
    static let positionalCount = 1...1
    static let options = [
        OptionSpec("device", value: "ID", help: "A /dev/video* path, or virtual (default: the first camera)."),
        OptionSpec("size", value: "WxH", help: "Picture size (default: the camera's first)."),
        OptionSpec("quality", value: "Q", help: "video: \(CaptureQuality.choices) (default high): the export presets highest, medium and low."),
        OptionSpec("max-duration", value: "S", help: "video: stop after S seconds (default: at Ctrl-C)."),
        OptionSpec("output", short: "o", value: "OUT", help: "The file to write (.jpg for photos, .mp4 for videos)."),
        OptionSpec("save", help: "Store the result in the library's Captures instead of a file."),
        OptionSpec("library", value: "DIR", help: "With --save: the library folder."),
        OptionSpec("quiet", short: "q", help: "video: no progress display."),
    ]
    static let discussion = "Ctrl-C ends a recording cleanly: the file is finished and playable. Photos record when they were taken (EXIF)."

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let what = arguments.positionals[0]
        guard what == "photo" || what == "video" else { throw arguments.invalid("kind", "capture photo or capture video, not '\(what)'") }
        let save = arguments.flag("save")
        let output = arguments.value("output").map { URL(fileURLWithPath: $0) }
        guard save != (output != nil) else {
            throw UsageError(message: "give either -o OUT or --save", command: name)
        }
        var size: PixelSize?
        if let text = arguments.value("size") {
            guard let parsed = Arguments.pixelSize(text), parsed.width % 2 == 0, parsed.height % 2 == 0 else {
                throw arguments.invalid("size", "expected even WxH, not '\(text)'")
            }
            size = parsed
        }
        var quality = CaptureQuality.high
        if let text = arguments.value("quality") {
            guard let parsed = CaptureQuality(rawValue: text) else { throw arguments.invalid("quality", "\(CaptureQuality.choices), not '\(text)'") }
            quality = parsed
        }
        var maxDuration: MediaTime?
        if let text = arguments.value("max-duration") {
            guard case .time(let t)? = try? TimePosition(parsing: text), t > .zero else {
                throw arguments.invalid("max-duration", "expected positive seconds, not '\(text)'")
            }
            maxDuration = t
        }
        let device: CaptureDevice
        if let id = arguments.value("device") {
            guard let found = CaptureDevice.named(id) else { throw CaptureError.unknownDevice(id) }
            device = found
        } else {
            guard let first = CaptureDevice.cameras().first else { throw CaptureError.noCamera }
            device = first
        }
        let ext = what == "photo" ? "jpg" : "mp4"
        let target = output ?? FileManager.default.temporaryDirectory.appendingPathComponent("capture-\(UUID().uuidString).\(ext)")
        if let output {
            guard output.pathExtension.lowercased() == ext || (ext == "jpg" && output.pathExtension.lowercased() == "jpeg") else {
                throw arguments.invalid("output", "a \(what) is written as .\(ext)")
            }
            try Arguments.checkOutputLocation(output, input: URL(fileURLWithPath: "/dev/null"))
        }
        // The camera screen's session: one path (its thread, settling, recording) for both front ends.
        try MainActor.assumeIsolated {
            let session = CameraSession(device: device, size: size)
            if what == "photo" {
                _ = try MainRunLoop.await { try await session.takePhoto(to: target) }
            } else {
                _ = try ProgressDisplay.runOnMainActor(label: "Recording from \(device.name)", quiet: arguments.flag("quiet")) { progress in
                    if let maxDuration { progress.totalUnitCount = max(1, Int64(maxDuration.seconds * 1000)) }
                    session.onRecordingChange = { [unowned session] _ in progress.completedUnitCount = Int64(session.recordedDuration.seconds * 1000) }
                    return try await session.record(to: target, quality: quality, maxDuration: maxDuration)
                }
            }
        }
        if save {
            let folder = arguments.value("library").map { URL(fileURLWithPath: $0) } ?? MediaLibrary.defaultLocation()
            let library = try MediaLibrary(folder: folder)
            let asset = try library.importFile(target, move: true, source: .capture).asset
            print("\(folder.path): saved to Captures as \(asset.id)")
        } else {
            print(target.path)
        }
        return 0
    }
}
