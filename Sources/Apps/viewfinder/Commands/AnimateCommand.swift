import CommandLineKit
import Foundation
import Imaging
import MediaIO
import Motion
import MotionRenderer
import ViewfinderCore

/// `viewfinder animate SCENE.json -o OUT.{mp4,gif,png}`: renders a Motion scene offline.
enum AnimateCommand: Command {
    static let name = "animate"
    static let summary = N_("Render a Motion scene (JSON) to MP4, GIF or one PNG frame, or print its values.")
    static let synopsis = "SCENE.json (-o OUT.{mp4,gif,png} | --at T --json) [--fps N] [--size WxH] [--duration S] [--at T]"
    static let positionalCount = 1...1
    static let output = TypedOption.path("output", short: "o", value: "OUT",
                                         help: N_(".mp4 (H.264), .gif (one palette, looping) or .png (the frame at --at)."))
    static let size = TypedOption<PixelSize?>("size", value: "WxH", help: N_("Output size (default: the scene's size)."),
                                              absent: { nil }) { text throws(InvalidValueError) in
        guard let size = PixelSize(parsing: text) else { throw InvalidValueError(tr("expected WxH, not '{text}'", ["text": text])) }
        return size
    }
    static let duration = TypedOption.seconds("duration", help: N_("Length in seconds (default: the scene's duration, else 2)."),
                                              .positive(upTo: Int(SceneLimits.maxDuration)))
    static let at = TypedOption.seconds("at", value: "T", help: N_("The time of the PNG frame or of --json (default 0)."),
                                        .nonNegative(upTo: Int(SceneLimits.maxDuration)))
    static let json = TypedOption.flag("json", help: N_("Print every layer's presentation values at --at instead of rendering."))
    static let timing = TypedOption.flag("timing", help: N_("With --json: report on stderr how long evaluating the frame took (median of 21)."))
    static let quiet = TypedOption.flag("quiet", short: "q", help: N_("No progress display."))
    static let options = OptionSpec.list(output, Arguments.fps, size, duration, at, json, timing, quiet)
    static let discussion = N_("""
    Every animation is a pure function of time, so frame i is the scene at exactly i / fps
    seconds. The scene format is described in the README (layers, images by path, sprites with
    the names of the Swift chain).
    """)

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let sceneURL = URL(fileURLWithPath: arguments.positionals[0])
        let printsValues = try arguments[json]
        // Usage first: a wrong output name, a bad number, are usage errors whatever the scene
        // file holds.
        let output = printsValues ? nil : try arguments.required(Self.output)
        let format = try output.map { output throws(UsageError) in
            guard let format = SceneExport.Format(pathExtension: output.pathExtension) else {
                throw arguments.invalid(Self.output, tr("'{file}' must end in .mp4, .gif or .png", ["file": output.lastPathComponent]))
            }
            return format
        }
        let at = try arguments[Self.at]?.seconds ?? 0
        let fps = try arguments[Arguments.fps]
        _ = try checkReadableMediaFile(sceneURL)
        let scene = try Scene.load(contentsOf: sceneURL)
        guard let output, let format else {
            if try arguments[timing] { reportEvaluationTime(scene, at: at) }
            print(scene.presentationJSON(at: at))
            return 0
        }
        let size = try arguments[Self.size]
            ?? PixelSize(width: Int(scene.size.width.rounded()), height: Int(scene.size.height.rounded()))
        let duration = try arguments[Self.duration]?.seconds ?? scene.duration ?? 2
        try Arguments.checkOutputLocation(output, input: sceneURL)
        // Images named in the scene are found relative to the scene file.
        let export: SceneExport
        do {
            export = try SceneExport(scene: scene, imageDirectory: sceneURL.deletingLastPathComponent(), format: format,
                                     size: size, fps: fps, duration: duration)
        } catch .tooManyFrames {
            let frames = Int((duration * Double(fps)).rounded())
            throw arguments.invalid(Self.duration, tr("{seconds} s at {fps} fps is {frames} frames, more than the limit of {limit}; lower --fps or --duration",
                                                   ["seconds": String(format: "%g", duration), "fps": fps, "frames": frames,
                                                    "limit": SceneLimits.maxFrameCount]))
        } catch {
            throw arguments.invalid(Self.size, tr("the frame must be from 2×2 to 8192×8192"))
        }
        let frameSize = export.size
        if format == .png {
            try export.writeFrame(at: at, to: output)
            print(tr("{file}: frame at {seconds} s ({width}×{height})",
                     ["file": output.path, "seconds": at, "width": frameSize.width, "height": frameSize.height]))
            return 0
        }
        let job = Lent(export)
        try ProgressDisplay.run(label: tr("Rendering {file}", ["file": sceneURL.lastPathComponent]), quiet: try arguments[quiet],
                                unit: .frames) { progress in
            try job.value.write(to: output, as: format, progress: progress)
        }
        print(trn("{file}: {count} frames, {width}×{height} at {fps} fps", "{file}: {count} frames, {width}×{height} at {fps} fps",
                  export.frameCount, ["file": output.path, "width": frameSize.width, "height": frameSize.height, "fps": fps]))
        return 0
    }

    /// Times `presentationTree(at:)` for the whole scene (the per-frame evaluation), 21 times. The
    /// line stays English: scripts/bench reads it.
    private static func reportEvaluationTime(_ scene: Scene, at t: Double) {
        let root = scene.makeLayerTree()
        root.advance(to: t)
        var samples: [Double] = []
        var checksum = 0.0
        for _ in 0..<21 {
            let started = DispatchTime.now().uptimeNanoseconds
            let tree = root.presentationTree(at: t)
            samples.append(Double(DispatchTime.now().uptimeNanoseconds - started) / 1_000_000)
            checksum += tree.sublayers.first?.state.opacity ?? 0
        }
        samples.sort()
        ViewfinderTool.standardError(String(format: "evaluated %d sprites on %d layers in %.3f ms (median of 21)",
                                            countSprites(root), countLayers(root) - 1, samples[10]) + (checksum.isNaN ? " " : ""))
    }

    private static func countLayers(_ layer: Layer) -> Int {
        1 + layer.sublayers.reduce(0) { $0 + countLayers($1) }
    }

    private static func countSprites(_ layer: Layer) -> Int {
        layer.activeSpriteCount + layer.sublayers.reduce(0) { $0 + countSprites($1) }
    }
}
