import Foundation
import Imaging
import MediaIO
import Motion
import ViewfinderCore

/// A Motion scene rendered to a file: an H.264 MP4, a looping GIF with one palette, or one PNG
/// frame. Frame i is the scene at exactly i / fps seconds. The command line and any app render
/// through it; it checks the frame budget (`SceneLimits`) before any work.
public struct SceneExport {
    /// What is written.
    public enum Format: String, Sendable, CaseIterable {
        case mp4, gif, png

        /// The format a file name asks for, or nil.
        public init?(pathExtension: String) { self.init(rawValue: pathExtension.lowercased()) }
    }

    /// Why an export cannot be made.
    public enum Error: Swift.Error, Sendable, Equatable, CustomStringConvertible {
        /// More frames than one rendering may make.
        case tooManyFrames(duration: Double, fps: Int, frames: Int)
        /// A frame smaller than 2×2 or larger than 8192×8192 pixels in all.
        case badSize(PixelSize)

        public var description: String {
            switch self {
            case .tooManyFrames(let duration, let fps, let frames):
                return trn("{seconds} s at {fps} fps is {count} frame, more than the limit of {limit}",
                           "{seconds} s at {fps} fps is {count} frames, more than the limit of {limit}", frames,
                           ["seconds": String(format: "%g", duration), "fps": fps, "limit": SceneLimits.maxFrameCount])
            case .badSize(let size):
                return tr("a frame of {width}×{height} cannot be rendered; the frame must be from 2×2 to 8192×8192",
                          ["width": size.width, "height": size.height])
            }
        }
    }

    public let scene: Scene
    /// Pictures, after rounding MP4 sizes down to even sides (H.264 needs them).
    public let size: PixelSize
    public let fps: Int
    /// Frames in an MP4 or GIF: the duration at `fps`, rounded.
    public let frameCount: Int
    private let renderer: LayerRenderer

    /// An export of `scene` at `size` (its own size when nil), `fps` frames a second for
    /// `duration` seconds; images named in the scene are found in `imageDirectory`.
    public init(scene: Scene, imageDirectory: URL, format: Format, size: PixelSize? = nil, fps: Int = 30,
                duration: Double) throws(Error) {
        var size = size ?? PixelSize(width: Int(scene.size.width.rounded()), height: Int(scene.size.height.rounded()))
        if format == .mp4 { size = PixelSize(width: max(2, size.width & ~1), height: max(2, size.height & ~1)) }
        guard size.width >= 2, size.height >= 2, size.area <= 8192 * 8192 else { throw .badSize(size) }
        guard let count = SceneLimits.frameCount(duration: duration, fps: fps) else {
            throw .tooManyFrames(duration: duration, fps: fps, frames: Int((duration * Double(fps)).rounded()))
        }
        self.scene = scene
        self.size = size
        self.fps = fps
        frameCount = format == .png ? 1 : count
        renderer = LayerRenderer(imageDirectory: imageDirectory)
    }

    /// The frame at `t` seconds, drawn from `tree` (a tree made by `scene.makeLayerTree()` and
    /// moved forward in time only).
    public func frame(of tree: Layer, at t: Double) throws -> PixelBuffer {
        try frame(of: tree, at: t, by: renderer)
    }

    /// The frame at `t` (see `frame(of:at:)`) drawn by `renderer` (one per thread), in the
    /// encoder's 4:2:0.
    func planarFrame(of tree: Layer, at t: Double, by renderer: LayerRenderer) throws -> PlanarPicture {
        try renderer.renderPlanar(tree, at: t, sceneSize: scene.size, size: size, background: scene.background)
    }

    /// The frame at `t` (see `frame(of:at:)`) drawn by `renderer`, as RGB.
    func frame(of tree: Layer, at t: Double, by renderer: LayerRenderer) throws -> PixelBuffer {
        try renderer.render(tree, at: t, sceneSize: scene.size, size: size, background: scene.background)
    }

    /// Writes the frame at `t` as a PNG.
    public func writeFrame(at t: Double, to url: URL) throws {
        try ImageEncoder.write(try frame(of: scene.makeLayerTree(), at: t), to: url)
    }

    /// Writes every frame to `url` as `format` (.mp4 or .gif), following `progress` (its total
    /// becomes the frame count; cancelling stops before the next frame with
    /// `MediaIOError.cancelled`, and nothing is left). Written beside the target and renamed.
    ///
    /// An MP4's frames are drawn by `drawingThreads` threads (nil: one per core, at most two),
    /// each with its own renderer and layer tree, taking every n-th frame (`drawFrames`); the
    /// frames reach the encoder in order, and each is a function of its time alone, so the
    /// pictures encoded do not depend on the number of threads. (The H.264 bytes can still
    /// differ between two encodes of the same pictures in one busy process: seen in tests, not
    /// in separate `viewfinder animate` runs; x264's cause not found yet.)
    public func write(to url: URL, as format: Format, progress: Progress, drawingThreads: Int? = nil) throws {
        progress.totalUnitCount = Int64(frameCount)
        let fps = self.fps
        let time: @Sendable (Int) -> Double = { Double($0) / Double(fps) }
        switch format {
        case .png:
            try writeFrame(at: 0, to: url)
        case .gif:
            // One palette for the whole animation, from a sample of its frames. Sampling draws
            // from a tree of its own so the main pass still runs forward in time.
            let sampler = scene.makeLayerTree()
            let samples = try Swift.stride(from: 0, to: frameCount, by: max(1, frameCount / 12)).map { try frame(of: sampler, at: time($0)) }
            let writer = try GIFWriter(url: url, size: size, framesPerSecond: Int32(fps), palette: try ColorPalette(quantizing: samples))
            let tree = scene.makeLayerTree()
            for i in 0..<frameCount {
                if progress.isCancelled { throw MediaIOError.cancelled }
                try writer.append(try frame(of: tree, at: time(i)))
                progress.completedUnitCount = Int64(i + 1)
            }
            try writer.finish()
        case .mp4:
            let writer = try VideoWriter(url: url, size: size, framesPerSecond: Int32(fps), keyframeInterval: Int32(fps * 2), bFrames: 2)
            try drawFrames(planar: writer.takesPlanarPictures, progress: progress, drawingThreads: drawingThreads) { frame in
                switch frame {
                case .planar(let picture): try writer.append(picture)
                case .rgb(let picture): try writer.append(picture)
                }
            }
            if progress.isCancelled { throw MediaIOError.cancelled }
            try writer.finish()
        }
    }

    /// Draws every frame, in order, handing each to `take` on this thread, while
    /// `drawingThreads` threads (nil: one per core, at most two) draw the next ones ahead: each
    /// with its own renderer and layer tree, taking every n-th frame (each tree moves forward in
    /// time only), converting straight from its canvas to 4:2:0 when `planar` (no copy, no RGB
    /// picture, no scaler). `progress` counts the frames taken; cancelling stops before the next.
    func drawFrames(planar: Bool, progress: Progress, drawingThreads: Int? = nil,
                    take: (Frame) throws -> Void) throws {
        let fps = self.fps
        let time: @Sendable (Int) -> Double = { Double($0) / Double(fps) }
        let count = frameCount
        let lanes = max(1, min(drawingThreads ?? min(2, ProcessInfo.processInfo.activeProcessorCount), count))
        let pipes = (0..<lanes).map { _ in FramePipe<Frame>(capacity: lanes > 1 ? 2 : 4) }
        defer { for pipe in pipes { pipe.close() } }
        for lane in 0..<lanes {
            let pipe = pipes[lane]
            let renderer = lane == 0 ? self.renderer : LayerRenderer(imageDirectory: self.renderer.imageDirectory, maxImageSize: self.renderer.maxImageSize)
            let job = Lent((export: self, tree: scene.makeLayerTree(), renderer: renderer))
            let drawer = Thread {
                for i in Swift.stride(from: lane, to: count, by: lanes) {
                    if progress.isCancelled || pipe.isClosed { break }
                    pipe.put(Result {
                        let (export, tree, renderer) = job.value
                        return planar ? .planar(try export.planarFrame(of: tree, at: time(i), by: renderer))
                                      : .rgb(try export.frame(of: tree, at: time(i), by: renderer))
                    })
                }
                pipe.close()
            }
            drawer.start()
        }
        var taken = 0
        while taken < count, let next = pipes[taken % lanes].take() {
            if progress.isCancelled { throw MediaIOError.cancelled }
            try take(try next.get())
            taken += 1
            progress.completedUnitCount = Int64(taken)
        }
    }
}

/// A drawn frame on its way to the encoder: already in its 4:2:0, or RGB for the scaler.
enum Frame: Sendable {
    case planar(PlanarPicture)
    case rgb(PixelBuffer)
}

/// A small bounded queue of drawn frames between the drawing thread and the encoder.
final class FramePipe<Item: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var items: [Result<Item, Error>] = []
    private var closed = false
    let capacity: Int

    init(capacity: Int) { self.capacity = capacity }

    var isClosed: Bool { condition.lock(); defer { condition.unlock() }; return closed }

    func put(_ item: Result<Item, Error>) {
        condition.lock()
        while items.count >= capacity && !closed { condition.wait() }
        if !closed { items.append(item) }
        condition.broadcast()
        condition.unlock()
    }

    /// The next frame, or nil once the drawer has finished and the queue is empty.
    func take() -> Result<Item, Error>? {
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

extension SceneExport.Error: ReadableError {}
