import Foundation
import Testing
import ViewfinderCore
import ViewfinderTestSupport

@testable import MediaIO

/// The MP4 writer checked with ffprobe (frame count, exact timestamps, keyframes) and with the
/// ffmpeg CLI's decoder (every frame shows the index drawn on it).
@Suite("Video writer")
struct VideoWriterTests {
    static let size = PixelSize(width: 96, height: 54)

    /// Writes frames 0..<count of the index pattern and returns the finished file.
    static func write(count: Int, fps: Int32, keyframeInterval: Int32 = 60, bFrames: Int32 = 2,
                      size: PixelSize = size, name: String) throws -> (url: URL, encoder: String) {
        let url = TestPaths.scratchFolder("mp4-\(name)").appendingPathComponent("\(name).mp4")
        let writer = try VideoWriter(url: url, size: size, framesPerSecond: fps, keyframeInterval: keyframeInterval, bFrames: bFrames)
        for k in 0..<count { try writer.append(FrameIndexPattern.render(index: k, size: size)) }
        try writer.finish()
        return (url, writer.encoderName)
    }

    @Test("exactly the frames appended, frame k shown at k/fps from 0", arguments: [(30, 40), (25, 13), (24, 1)])
    func timestamps(_ fps: Int, _ count: Int) throws {
        let (url, _) = try Self.write(count: count, fps: Int32(fps), name: "times-\(fps)")
        let probe = try FFprobe.frames(of: url)
        #expect(probe.timestamps.count == count)
        let times = probe.timestamps.map { MediaTime.ticks($0, timeBase: probe.timeBase.num, probe.timeBase.den) }
        let expected: [MediaTime?] = (0..<count).map { MediaTime(value: Int64($0), timescale: Int64(fps)) }
        #expect(times == expected)
    }

    @Test("a keyframe exactly every keyframeInterval frames, none between", arguments: [(10, 35), (7, 15)])
    func keyframes(_ interval: Int, _ count: Int) throws {
        let (url, _) = try Self.write(count: count, fps: 30, keyframeInterval: Int32(interval), name: "keys-\(interval)")
        let frames = try FFmpegOracle.frameEntries(of: url, select: "v:0", entries: "key_frame")
        #expect(frames.count == count)
        let keys = frames.enumerated().filter { ($0.element["key_frame"] as? Int) == 1 }.map(\.offset)
        #expect(keys == Array(stride(from: 0, to: count, by: interval)))
    }

    @Test("every decoded frame shows the index drawn on it")
    func decodedIndices() throws {
        let (url, encoder) = try Self.write(count: 30, fps: 30, keyframeInterval: 8, name: "indices")
        let decoded = try FFmpegOracle.frames(of: url, size: Self.size)
        #expect(decoded.map(FrameIndexPattern.readIndex(from:)) == (0..<30).map { $0 })
        let stream = try #require((try FFprobe.description(of: url)["streams"] as? [[String: Any]])?.first)
        #expect(stream["width"] as? Int == 96 && stream["height"] as? Int == 54)
        #expect(stream["codec_name"] as? String == (encoder == "libx264" ? "h264" : "mpeg4"))
        #expect(encoder == "libx264", "Debian's FFmpeg has libx264")
    }

    @Test("odd, tiny and empty sizes and a zero rate are refused, and nothing is written", arguments: [
        (97, 54, 30), (96, 55, 30), (1, 2, 30), (0, 0, 30), (96, 54, 0),
    ])
    func refusedSizes(_ width: Int, _ height: Int, _ fps: Int) throws {
        let folder = TestPaths.scratchFolder("mp4-refused")
        let url = folder.appendingPathComponent("a.mp4")
        #expect(throws: MediaIOError.encodeFailed(path: url.path, detail: "the size must be even and at least 2×2, the rate positive")) {
            _ = try VideoWriter(url: url, size: PixelSize(width: width, height: height), framesPerSecond: Int32(fps))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [])
    }

    @Test("a picture of the wrong size is refused")
    func wrongPicture() throws {
        let url = TestPaths.scratchFolder("mp4-wrong").appendingPathComponent("a.mp4")
        let writer = try VideoWriter(url: url, size: Self.size, framesPerSecond: 30)
        #expect(throws: MediaIOError.encodeFailed(path: url.path, detail: "picture is 96×56, expected 96×54")) {
            try writer.append(PixelBuffer(width: 96, height: 56))
        }
    }

    @Test("the file appears only when finished; dropped unfinished, nothing is left")
    func atomic() throws {
        let folder = TestPaths.scratchFolder("mp4-atomic")
        let kept = folder.appendingPathComponent("kept.mp4")
        do {
            let writer = try VideoWriter(url: kept, size: Self.size, framesPerSecond: 30)
            try writer.append(FrameIndexPattern.render(index: 0, size: Self.size))
            #expect(!FileManager.default.fileExists(atPath: kept.path))
            try writer.finish()
        }
        do {
            let dropped = try VideoWriter(url: folder.appendingPathComponent("dropped.mp4"), size: Self.size, framesPerSecond: 30)
            for k in 0..<5 { try dropped.append(FrameIndexPattern.render(index: k, size: Self.size)) }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["kept.mp4"])
    }
}
