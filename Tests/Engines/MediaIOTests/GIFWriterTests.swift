import Foundation
import Testing
import ViewfinderCore
import ViewfinderTestSupport

@testable import MediaIO

/// The GIF writer checked from both sides: the file's own blocks (frames, delays, loop, size)
/// and the pictures the ffmpeg CLI decodes from it (each shows the index drawn on it).
@Suite("GIF writer")
struct GIFWriterTests {
    static let size = PixelSize(width: 96, height: 54)

    /// Writes frames 0..<count of the index pattern and returns the finished file.
    static func write(count: Int, fps: Int32, size: PixelSize = size, name: String = "a") throws -> URL {
        let pictures = (0..<count).map { FrameIndexPattern.render(index: $0, size: size) }
        let url = TestPaths.scratchFolder("gif-\(name)").appendingPathComponent("\(name).gif")
        let writer = try GIFWriter(url: url, size: size, framesPerSecond: fps, palette: try ColorPalette(quantizing: pictures))
        for picture in pictures { try writer.append(picture) }
        try writer.finish()
        return url
    }

    static func structure(_ url: URL) throws -> GIFFileStructure {
        try #require(GIFFileStructure(try Data(contentsOf: url)), "\(url.lastPathComponent) is not a well-formed GIF")
    }

    /// The delay GIF can give frame `k` of `count` at `fps`: the hundredths between its
    /// start and the next frame's, both rounded to the nearest hundredth, so that the whole
    /// animation lasts `count / fps` to the hundredth.
    static func expectedDelays(count: Int, fps: Int) -> [Int] {
        func start(_ k: Int) -> Int { (k * 200 + fps) / (2 * fps) }
        return (0..<count).map { start($0 + 1) - start($0) }
    }

    @Test("size, frame count, loop forever and a delay of 1/fps, read from the file's blocks",
          arguments: [(20, 30), (25, 12), (10, 7)])
    func blocks(_ fps: Int, _ count: Int) throws {
        let gif = try Self.structure(try Self.write(count: count, fps: Int32(fps), name: "blocks-\(fps)"))
        #expect(gif.width == 96 && gif.height == 54)
        #expect(gif.frames.count == count)
        #expect(gif.loopCount == 0)
        #expect(gif.frames.map(\.delay) == Self.expectedDelays(count: count, fps: fps))
        #expect(gif.frames.first.map { $0.rect == (0, 0, 96, 54) } == true, "the first frame covers the picture")
    }

    @Test("rates that do not divide 100: delays alternate and the animation lasts count/fps")
    func unevenDelays() throws {
        let gif = try Self.structure(try Self.write(count: 30, fps: 30, name: "uneven"))
        #expect(gif.frames.map(\.delay) == Self.expectedDelays(count: 30, fps: 30))
        #expect(gif.frames.map(\.delay).reduce(0, +) == 100, "30 frames at 30 fps are one second")
    }

    @Test("ffprobe agrees on the size, the frame count and the timestamps")
    func ffprobeAgrees() throws {
        let url = try Self.write(count: 12, fps: 20, name: "probe")
        let frames = try FFprobe.frames(of: url)
        #expect(frames.timeBase.num == 1 && frames.timeBase.den == 100)
        #expect(frames.timestamps == (0..<12).map { Int64($0 * 5) })
        let description = try FFprobe.description(of: url)
        let stream = try #require((description["streams"] as? [[String: Any]])?.first)
        #expect(stream["codec_name"] as? String == "gif")
        #expect(stream["width"] as? Int == 96 && stream["height"] as? Int == 54)
    }

    @Test("every decoded frame shows the index drawn on it, close to the original", arguments: [
        PixelSize(width: 96, height: 54), PixelSize(width: 97, height: 55),
    ])
    func decodedIndices(_ size: PixelSize) throws {
        let url = try Self.write(count: 24, fps: 25, size: size, name: "indices-\(size.width)")
        let decoded = try FFmpegOracle.frames(of: url, size: size)
        #expect(decoded.count == 24)
        for (k, frame) in decoded.enumerated() {
            #expect(FrameIndexPattern.readIndex(from: frame) == k, "frame \(k)")
            let original = FrameIndexPattern.render(index: k, size: size)
            let error = zip(frame.bytes, original.bytes).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
            #expect(Double(error) / Double(frame.bytes.count) < 6, "frame \(k): mean error \(Double(error) / Double(frame.bytes.count))")
        }
    }

    @Test("a picture of at most 256 colours comes back exactly")
    func fewColoursLossless() throws {
        // The eight corners of the RGB cube in stripes of different widths.
        let corners = (0..<8).map { RGB($0 & 1 == 0 ? 0 : 255, $0 & 2 == 0 ? 0 : 255, $0 & 4 == 0 ? 0 : 255) }
        var picture = PixelBuffer(width: 64, height: 16)
        var x = 0
        for (i, colour) in corners.enumerated() {
            picture.fill(x: x, y: 0, width: i + 1, height: 16, with: colour)
            x += i + 1
        }
        let url = TestPaths.scratchFolder("gif-few").appendingPathComponent("few.gif")
        let writer = try GIFWriter(url: url, size: picture.size, framesPerSecond: 10, palette: try ColorPalette(quantizing: [picture]))
        try writer.append(picture)
        try writer.append(picture)
        try writer.finish()
        let decoded = try FFmpegOracle.frames(of: url, size: picture.size)
        #expect(decoded == [picture, picture])
    }

    @Test("the file appears only when finished, with nothing beside it")
    func atomicFinish() throws {
        let folder = TestPaths.scratchFolder("gif-atomic")
        let url = folder.appendingPathComponent("a.gif")
        let writer = try GIFWriter(url: url, size: Self.size, framesPerSecond: 10, palette: ColorPalette(colors: [RGB(0, 0, 0), RGB(255, 255, 255)]))
        try writer.append(FrameIndexPattern.render(index: 0, size: Self.size))
        #expect(!FileManager.default.fileExists(atPath: url.path))
        try writer.finish()
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["a.gif"])
    }

    @Test("a writer dropped unfinished (a cancelled render) leaves nothing")
    func cancelledLeavesNothing() throws {
        let folder = TestPaths.scratchFolder("gif-cancel")
        do {
            let writer = try GIFWriter(url: folder.appendingPathComponent("a.gif"), size: Self.size, framesPerSecond: 10,
                                       palette: ColorPalette(colors: [RGB(0, 0, 0)]))
            for k in 0..<3 { try writer.append(FrameIndexPattern.render(index: k, size: Self.size)) }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [])
    }

    @Test("a picture of the wrong size is refused and nothing is left")
    func wrongSize() throws {
        let folder = TestPaths.scratchFolder("gif-wrong")
        let url = folder.appendingPathComponent("a.gif")
        do {
            let writer = try GIFWriter(url: url, size: Self.size, framesPerSecond: 10, palette: ColorPalette(colors: [RGB(0, 0, 0)]))
            #expect(throws: MediaIOError.encodeFailed(path: url.path, detail: "picture is 95×54, expected 96×54")) {
                try writer.append(PixelBuffer(width: 95, height: 54))
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [])
    }

    @Test("a destination in a missing folder fails at once")
    func missingFolder() throws {
        let url = TestPaths.scratchFolder("gif-missing").appendingPathComponent("no/such/a.gif")
        #expect(throws: MediaIOError.self) {
            _ = try GIFWriter(url: url, size: Self.size, framesPerSecond: 10, palette: ColorPalette(colors: [RGB(0, 0, 0)]))
        }
        #expect(!FileManager.default.fileExists(atPath: url.deletingLastPathComponent().path))
    }
}
