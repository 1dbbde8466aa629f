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
    static let summary = "Render a Motion scene (JSON) to MP4, GIF or one PNG frame, or print its values."
    static let synopsis = "SCENE.json (-o OUT.{mp4,gif,png} | --at T --json) [--fps N] [--size WxH] [--duration S] [--at T]"
    static let positionalCount = 1...1
    static let options = [
        OptionSpec("output", short: "o", value: "OUT", help: ".mp4 (H.264), .gif (one palette, looping) or .png (the frame at --at)."),
        OptionSpec("fps", value: "N", help: "Frames per second, 1-120 (default 30)."),
        OptionSpec("size", value: "WxH", help: "Output size (default: the scene's size)."),
        OptionSpec("duration", value: "S", help: "Length in seconds (default: the scene's duration, else 2)."),
        OptionSpec("at", value: "T", help: "The time of the PNG frame or of --json (default 0)."),
        OptionSpec("json", help: "Print every layer's presentation values at --at instead of rendering."),
        OptionSpec("timing", help: "With --json: report on stderr how long evaluating the frame took (median of 21)."),
        OptionSpec("quiet", short: "q", help: "No progress display."),
    ]
    static let discussion = """
    Every animation is a pure function of time, so frame i is the scene at exactly i / fps
    seconds. The scene format is described in the README (layers, images by path, sprites with
    the names of the Swift chain).
    """

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let sceneURL = URL(fileURLWithPath: arguments.positionals[0])
        if !arguments.flag("json") {
            // Usage first: a wrong output name is a usage error whatever the scene holds.
            let name = try arguments.required("output")
            guard ["mp4", "gif", "png"].contains((name as NSString).pathExtension.lowercased()) else {
                throw arguments.invalid("output", "'\((name as NSString).lastPathComponent)' must end in .mp4, .gif or .png")
            }
        }
        let bytes = try checkReadableMediaFile(sceneURL)
        guard bytes <= SceneLimits.maxSceneBytes else {
            throw RuntimeError("\(sceneURL.path) is \(bytes >> 20) MiB; a scene file may be at most \(SceneLimits.maxSceneBytes >> 20) MiB")
        }
        let data: Data
        do {
            data = try Data(contentsOf: sceneURL)
        } catch {
            throw RuntimeError("cannot read \(sceneURL.path): \((error as NSError).localizedDescription)")
        }
        let scene = try Scene.parse(data)
        var at = 0.0
        if let text = arguments.value("at") {
            guard case .time(let t)? = try? TimePosition(parsing: text) else { throw arguments.invalid("at", "expected seconds, not '\(text)'") }
            guard t.seconds <= SceneLimits.maxDuration else {
                throw arguments.invalid("at", "\(text) is out of range (0…\(Int(SceneLimits.maxDuration)) seconds)")
            }
            at = t.seconds
        }
        if arguments.flag("json") {
            if arguments.flag("timing") { reportEvaluationTime(scene, at: at) }
            print(scene.presentationJSON(at: at))
            return 0
        }
        let output = URL(fileURLWithPath: try arguments.required("output"))
        let fps = try arguments.integer("fps", in: 1...120, default: 30)
        var size = PixelSize(width: Int(scene.size.width.rounded()), height: Int(scene.size.height.rounded()))
        if let text = arguments.value("size") {
            guard let parsed = Arguments.pixelSize(text) else { throw arguments.invalid("size", "expected WxH, not '\(text)'") }
            size = parsed
        }
        var duration = scene.duration ?? 2
        if let text = arguments.value("duration") {
            guard case .time(let t)? = try? TimePosition(parsing: text), t > .zero, t.seconds <= SceneLimits.maxDuration else {
                throw arguments.invalid("duration", "expected seconds from 0 to \(Int(SceneLimits.maxDuration)), not '\(text)'")
            }
            duration = t.seconds
        }
        let kind = output.pathExtension.lowercased()
        guard ["mp4", "gif", "png"].contains(kind) else {
            throw arguments.invalid("output", "'\(output.lastPathComponent)' must end in .mp4, .gif or .png")
        }
        try Arguments.checkOutputLocation(output, input: sceneURL)
        if kind == "mp4" { size = PixelSize(width: max(2, size.width & ~1), height: max(2, size.height & ~1)) }
        guard size.width >= 2, size.height >= 2, size.area <= 8192 * 8192 else {
            throw arguments.invalid("size", "the frame must be from 2×2 to 8192×8192")
        }

        // Images named in the scene are found relative to the scene file.
        let renderer = LayerRenderer(imageDirectory: sceneURL.deletingLastPathComponent())
        let root = scene.makeLayerTree()
        let frameSize = size
        let frame: (Double) throws -> PixelBuffer = { t in
            try renderer.render(root, at: t, sceneSize: scene.size, size: frameSize, background: scene.background)
        }
        if kind == "png" {
            try ImageEncoder.write(try frame(at), to: output)
            print("\(output.path): frame at \(at) s (\(frameSize.width)×\(frameSize.height))")
            return 0
        }
        // The scene's duration is within SceneLimits.maxDuration and --fps within 1…120, but
        // together they may still be more frames than one rendering may make.
        guard let count = SceneLimits.frameCount(duration: duration, fps: fps) else {
            let frames = Int((duration * Double(fps)).rounded())
            throw arguments.invalid("duration", "\(String(format: "%g", duration)) s at \(fps) fps is \(frames) frames, more than the limit of \(SceneLimits.maxFrameCount); lower --fps or --duration")
        }
        let shared = Lent(RenderJob(frame: frame, sample: { tree, t in
            try renderer.render(tree, at: t, sceneSize: scene.size, size: frameSize, background: scene.background)
        }))
        try ProgressDisplay.run(label: "Rendering \(sceneURL.lastPathComponent)", quiet: arguments.flag("quiet"), unit: .frames) { progress in
            progress.totalUnitCount = Int64(count)
            if kind == "gif" {
                // One palette for the whole animation, from a sample of its frames.
                // Sampling renders from a fresh tree so the main pass still runs forward in time.
                let sampler = scene.makeLayerTree()
                let samples = try Swift.stride(from: 0, to: count, by: max(1, count / 12)).map { i in
                    try shared.value.sample(sampler, Double(i) / Double(fps))
                }
                let writer = try GIFWriter(url: output, size: frameSize, framesPerSecond: Int32(fps), palette: try ColorPalette(quantizing: samples))
                for i in 0..<count {
                    if progress.isCancelled { throw MediaIOError.cancelled }
                    try writer.append(try shared.value.frame(Double(i) / Double(fps)))
                    progress.completedUnitCount = Int64(i + 1)
                }
                try writer.finish()
            } else {
                let writer = try VideoWriter(url: output, size: frameSize, framesPerSecond: Int32(fps),
                                             keyframeInterval: Int32(fps * 2), bFrames: 2)
                // Draw the next frames on a second thread while this one encodes (a few frames
                // ahead at most), so drawing and x264 keep both cores busy.
                let pipe = FramePipe(capacity: 4)
                let drawer = Thread {
                    for i in 0..<count {
                        if progress.isCancelled || pipe.isClosed { break }
                        pipe.put(Result { try shared.value.frame(Double(i) / Double(fps)) })
                    }
                    pipe.close()
                }
                drawer.start()
                defer { pipe.close() }
                var written = 0
                while let next = pipe.take() {
                    if progress.isCancelled { throw MediaIOError.cancelled }
                    try writer.append(try next.get())
                    written += 1
                    progress.completedUnitCount = Int64(written)
                }
                if progress.isCancelled { throw MediaIOError.cancelled }
                try writer.finish()
            }
        }
        print("\(output.path): \(count) frames, \(frameSize.width)×\(frameSize.height) at \(fps) fps")
        return 0
    }

    /// Times `presentationTree(at:)` for the whole scene (the per-frame evaluation), 21 times.
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

    /// A small bounded queue of drawn frames between the drawing thread and the encoder.
    final class FramePipe: @unchecked Sendable {
        private let condition = NSCondition()
        private var items: [Result<PixelBuffer, Error>] = []
        private var closed = false
        let capacity: Int

        init(capacity: Int) { self.capacity = capacity }

        var isClosed: Bool { condition.lock(); defer { condition.unlock() }; return closed }

        func put(_ item: Result<PixelBuffer, Error>) {
            condition.lock()
            while items.count >= capacity && !closed { condition.wait() }
            if !closed { items.append(item) }
            condition.broadcast()
            condition.unlock()
        }

        /// The next frame, or nil once the drawer has finished and the queue is empty.
        func take() -> Result<PixelBuffer, Error>? {
            condition.lock()
            defer { condition.unlock() }
            while items.isEmpty && !closed { condition.wait() }
            guard !items.isEmpty else { return nil }
            let item = items.removeFirst()
            condition.broadcast()
            return item
        }

        func close() {
            condition.lock()
            closed = true
            condition.broadcast()
            condition.unlock()
        }
    }

    /// The frame function handed to the rendering thread (the tree and renderer are used there only).
    struct RenderJob {
        let frame: (Double) throws -> PixelBuffer
        let sample: (Layer, Double) throws -> PixelBuffer
    }
}
