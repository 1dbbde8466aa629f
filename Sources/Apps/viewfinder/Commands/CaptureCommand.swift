import CommandLineKit
import Capture
import Foundation
import Imaging
import MediaIO
import MediaLibrary
import ViewfinderCore

/// `viewfinder capture photo|video`: take a photo or record a video.
enum CaptureCommand: Command {
    static let name = "capture"
    static let summary = N_("Take a photo or record a video from a camera (or the virtual test camera).")
    static let synopsis = "photo|video [--device ID|virtual] [--size WxH] [--quality high|medium|low] [--max-duration S] [--microphone NAME|virtual|none] [--flash off|on|auto|torch] (-o OUT | --save [--library DIR]) [--json]"
    static let positionalCount = 1...1
    static let verbs = ["photo", "video"]
    /// `--device ID`: a camera's id, nil for the first camera (looked up when the command runs).
    static let device = TypedOption.text("device", value: "ID",
                                         help: N_("A camera as 'viewfinder devices' lists it (pipewire:NAME or a /dev/video* path), or virtual (default: the first camera)."))
    static let size = Arguments.evenSize(help: N_("Picture size (default: the camera's first)."))
    static let quality = TypedOption<CaptureQuality>.choice(
        // TRANSLATORS: "video:" names `capture video`, the subcommand the option is for; keep it.
        "quality", value: "Q", help: tr("video: {choices} (default high): the export presets highest, medium and low.",
                                        ["choices": choiceList(CaptureQuality.allCases.map(\.rawValue))]),
        default: .high)
    /// `--microphone M`: a microphone's name, `none`, or nil for the default.
    static let microphone = TypedOption.text("microphone", value: "M",
                                             help: N_("video: the sound, as 'viewfinder devices' lists it, virtual or none (default: the system's default microphone; virtual with --device virtual)."))
    static let flash = TypedOption<FlashMode>.choice(
        "flash", value: "MODE",
        help: tr("{choices} (default off), through the camera's V4L2 flash controls; an error on a camera without flash.",
                 ["choices": choiceList(FlashMode.allCases.map(\.rawValue))]),
        default: .off)
    static let output = TypedOption.path("output", short: "o", value: "OUT", help: N_("The file to write (.jpg for photos, .mp4 for videos)."))
    static let save = TypedOption.flag("save", help: N_("Store the result in the library's Captures instead of a file."))
    static let quiet = TypedOption.flag("quiet", short: "q", help: N_("video: no progress display."))
    static let json = TypedOption.flag("json", help: N_("Print what was captured as JSON: the file as 'viewfinder info --json' describes it, or its library id."))
    static let options = OptionSpec.list(device, size, quality, maxDuration, microphone, flash, output, save, library, quiet, json)
    /// `--max-duration S`: a video's length, more than 0 seconds (absent: until Ctrl-C).
    static let maxDuration = SharedOption.maxDuration(help: N_("video: stop after S seconds (default: at Ctrl-C)."), zeroMeansNoLimit: false)
    /// `--library DIR`, the `library` command's, with what it means here.
    static let library = LibraryCommand.library.withHelp(N_("With --save: the library folder."))
    static let discussion = N_("""
        Ctrl-C ends a recording cleanly: the file is finished and playable. SIGTERM stops it and throws it away: \
        nothing is left, exit status 143. Sound is AAC; without a microphone on this machine the recording is silent \
        (a one-line note says so), while a named microphone that cannot be opened is an error. Photos record when \
        they were taken (EXIF).
        """)

    /// The captured file as `info --json` describes it.
    private static func describe(_ url: URL) throws -> JSONValue {
        let bytes = try checkReadableMediaFile(url)
        if let image = try? ImageInfo.probe(url) { return InfoCommand.photoJSON(image, url: url, bytes: bytes) }
        return InfoCommand.videoJSON(try probeMedia(at: url))
    }

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let what = arguments.positionals[0]
        guard what == "photo" || what == "video" else {
            throw arguments.invalid("kind", tr("capture photo or capture video, not '{text}'", ["text": what]))
        }
        let save = try arguments[Self.save]
        let output = try arguments[Self.output]
        guard save != (output != nil) else {
            throw UsageError(message: tr("give either -o OUT or --save"), command: name)
        }
        let size = try arguments[Self.size]
        let quality = try arguments[Self.quality]
        let maxDuration = try arguments[Self.maxDuration].maximum(default: nil)
        let device: CaptureDevice
        if let id = try arguments[Self.device] {
            guard let found = try CameraDiscovery.named(id) else { throw CaptureError.unknownDevice(id) }
            device = found
        } else {
            // The first camera that opens; when none does, the first one's reason (or the
            // portal's refusal).
            let listing = CameraDiscovery.listing()
            if let failure = listing.failure { throw failure }
            let cameras = listing.cameras
            guard let first = cameras.first(where: \.isUsable) ?? cameras.first else { throw CaptureError.noCamera }
            device = first
        }
        let flash = try arguments[Self.flash]
        let microphone = what == "video" ? try chooseMicrophone(try arguments[Self.microphone], for: device) : nil
        let ext = what == "photo" ? "jpg" : "mp4"
        let target = output ?? FileManager.default.temporaryDirectory.appendingPathComponent("capture-\(UUID().uuidString).\(ext)")
        if let output {
            guard output.pathExtension.lowercased() == ext || (ext == "jpg" && output.pathExtension.lowercased() == "jpeg") else {
                throw arguments.invalid(Self.output, what == "photo" ? tr("a photo is written as .jpg") : tr("a video is written as .mp4"))
            }
            try Arguments.checkOutputLocation(output, input: URL(fileURLWithPath: "/dev/null"))
        }
        // The camera screen's session: one path (its thread, settling, recording) for both front ends.
        try MainActor.assumeIsolated {
            let session = CameraSession(device: device, size: size, microphone: microphone)
            try session.setFlashMode(flash)
            if what == "photo" {
                _ = try MainRunLoop.await { try await session.takePhoto(to: target) }
            } else {
                try record(session, to: target, quality: quality, maxDuration: maxDuration, quiet: try arguments[quiet])
            }
        }
        let printsJSON = try arguments[json]
        var result: [(String, JSONValue)] = [("kind", .string(what)), ("device", .string(device.id))]
        if save {
            let folder = try arguments[Self.library]
            let library = try MediaLibrary(folder: folder)
            let asset = try library.importFile(target, move: true, source: .capture).asset
            result += [("library", .string(folder.path)), ("id", .integer(asset.id))]
            if !printsJSON { print(tr("{library}: saved to Captures as {id}", ["library": folder.path, "id": asset.id])) }
        } else {
            result += [("output", .string(target.path)), ("file", try describe(target))]
            if !printsJSON { print(target.path) }
        }
        if printsJSON { print(JSONValue.object(JSONObject(result)).rendered()) }
        return 0
    }

    /// The microphone `--microphone` names; without it the camera's default, or none with a
    /// note when this machine has no microphone.
    private static func chooseMicrophone(_ name: String?, for device: CaptureDevice) throws -> MicrophoneDevice? {
        guard let name else {
            let found = CameraSession.defaultMicrophone(for: device)
            if found == nil {
                ViewfinderTool.standardError("viewfinder: " + tr("no microphone found; recording without sound (--microphone none hides this note)"))
            }
            return found
        }
        if name == "none" { return nil }
        guard let found = MicrophoneDevice.named(name) else { throw CaptureError.unknownMicrophone(name) }
        return found
    }

    /// Records under the progress display; SIGTERM throws the recording away (nothing is left,
    /// even when it arrives while the file is being finished).
    @MainActor
    private static func record(_ session: CameraSession, to target: URL, quality: CaptureQuality, maxDuration: MediaTime?,
                               quiet: Bool) throws {
        let terminated = Lent(false)
        let watch = OnSignal(SIGTERM) {
            Task { @MainActor in
                terminated.value = true
                await session.discardRecording()
            }
        }
        defer { watch.stop() }
        do {
            _ = try ProgressDisplay.runOnMainActor(label: tr("Recording from {camera}", ["camera": session.device.name]),
                                                   quiet: quiet) { progress in
                if let maxDuration { progress.totalUnitCount = max(1, Int64(maxDuration.seconds * 1000)) }
                session.onRecordingChange = { [unowned session] _ in progress.completedUnitCount = Int64(session.recordedDuration.seconds * 1000) }
                return try await session.record(to: target, quality: quality, maxDuration: maxDuration)
            }
        } catch CaptureError.recordingDiscarded {
            throw Terminated()
        }
        // Let a SIGTERM that came as the recording ended be handled, then honour it.
        _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 0.01))
        if terminated.value {
            try? FileManager.default.removeItem(at: target)
            throw Terminated()
        }
    }
}

/// The recording was stopped by SIGTERM and thrown away.
struct Terminated: Error, CustomStringConvertible {
    var description: String { CaptureError.recordingDiscarded.description }
}
