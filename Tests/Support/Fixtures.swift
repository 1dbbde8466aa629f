import Foundation
import ViewfinderCore

/// A generated clip whose frames draw their own index (see `FrameIndexPattern`).
public struct FixtureSpec: Sendable, Hashable, CustomStringConvertible {
    public let name: String
    public let size: PixelSize
    public let frames: Int
    /// Input frame rate for ffmpeg's `-r` ("30", "30000/1001").
    public let rate: String
    /// Options before the output (codec, GOP, filters, ...).
    public let encode: [String]
    /// Output extension ("mp4", "webm", "ts", ...).
    public let container: String
    /// Options that precede the raw input (e.g. `-itsoffset`).
    public let input: [String]
    /// A display rotation (as ffmpeg's `rotate` tag) added by a stream-copy remux.
    public let rotateTag: Int?

    public init(_ name: String, size: PixelSize = PixelSize(width: 192, height: 108), frames: Int = 48,
                rate: String = "30", encode: [String], container: String = "mp4", input: [String] = [],
                rotateTag: Int? = nil) {
        self.name = name
        self.size = size
        self.frames = frames
        self.rate = rate
        self.encode = encode
        self.container = container
        self.input = input
        self.rotateTag = rotateTag
    }

    public var description: String { name }

    public static let x264 = ["-c:v", "libx264", "-preset", "veryfast", "-crf", "16", "-pix_fmt", "yuv420p"]

    // MARK: - The catalogue

    /// H.264 with three B-frames (pyramid) and short closed GOPs.
    public static let h264BFrames = FixtureSpec("h264-bframes", encode: x264 + ["-bf", "3", "-g", "12", "-keyint_min", "12", "-sc_threshold", "0"])
    /// H.264 open GOPs: leading B-frames reference the previous GOP.
    public static let h264OpenGOP = FixtureSpec("h264-open-gop", encode: x264 + [
        "-bf", "3", "-g", "10", "-sc_threshold", "0", "-x264-params", "open-gop=1:keyint=10:min-keyint=10"])
    /// A stream that starts 2 s in (the MP4 gets an empty edit): time 0 is still the first frame.
    public static let editList = FixtureSpec("edit-list", encode: x264 + ["-bf", "2", "-g", "15"], input: ["-itsoffset", "2"])
    /// MPEG-TS, whose timestamps start at 1.4 s.
    public static let transportStream = FixtureSpec("mpegts-start", encode: x264 + ["-bf", "2", "-g", "15"], container: "ts")
    /// Variable frame rate: irregular gaps between frames.
    public static let variableRate = FixtureSpec("vfr", encode: x264 + [
        "-bf", "2", "-g", "20", "-vf", "settb=1/90000,setpts=(N+floor(N/5)*0.6+mod(N\\,3)*0.25)/30/TB", "-fps_mode", "passthrough", "-enc_time_base", "1/90000",
        "-video_track_timescale", "90000"])
    /// NTSC 29.97 fps.
    public static let ntsc = FixtureSpec("2997", rate: "30000/1001", encode: x264 + ["-bf", "2", "-g", "15"])
    /// VP9 in WebM, with hidden alt-ref frames.
    public static let vp9 = FixtureSpec("vp9", encode: [
        "-c:v", "libvpx-vp9", "-b:v", "0", "-crf", "20", "-g", "16", "-auto-alt-ref", "1", "-lag-in-frames", "8",
        "-deadline", "realtime", "-cpu-used", "8", "-pix_fmt", "yuv420p"], container: "webm")
    /// HEVC with B-frames.
    public static let hevc = FixtureSpec("hevc", encode: [
        "-c:v", "libx265", "-preset", "ultrafast", "-crf", "18", "-pix_fmt", "yuv420p", "-tag:v", "hvc1",
        "-x265-params", "log-level=error:bframes=3:keyint=16:min-keyint=16:scenecut=0"])
    /// Odd picture size in 4:4:4 (4:2:0 needs even sides).
    public static let oddSize = FixtureSpec("odd-size", size: PixelSize(width: 97, height: 55), frames: 24,
                                            encode: ["-c:v", "libx264", "-preset", "veryfast", "-crf", "10", "-pix_fmt", "yuv444p", "-bf", "2", "-g", "8"])
    /// A size that is not a multiple of 16 (the coded picture is cropped).
    public static let croppedSize = FixtureSpec("cropped-size", size: PixelSize(width: 202, height: 114), frames: 24,
                                                encode: x264 + ["-bf", "2", "-g", "8"])
    /// A single frame.
    public static let oneFrame = FixtureSpec("one-frame", frames: 1, encode: x264)
    /// The four display rotations (ffmpeg's rotate tag; the sign convention is checked against ffprobe).
    public static func rotated(_ degrees: Int) -> FixtureSpec {
        FixtureSpec("rotate-\(degrees)", frames: 12, encode: x264 + ["-bf", "2", "-g", "6"], rotateTag: degrees)
    }
}

/// A fixture on disk with what ffprobe says about it.
public struct Fixture: Sendable {
    public let spec: FixtureSpec
    public let url: URL
    /// Presentation timestamps of every frame, in order, in the stream's time base.
    public let timestamps: [Int64]
    /// The stream's time base (seconds per tick = num/den).
    public let timeBase: (num: Int64, den: Int64)
    /// ffprobe's display rotation: counter-clockwise degrees.
    public let ffprobeRotation: Int

    /// The time of frame `k` measured from the first frame, exactly.
    public func time(ofFrame k: Int) -> MediaTime {
        MediaTime.ticks(timestamps[k] - timestamps[0], timeBase: timeBase.num, timeBase.den) ?? .zero
    }

    /// One tick of the stream's time base.
    public var tick: MediaTime { MediaTime(value: timeBase.num, timescale: timeBase.den) }
}

/// Builds fixtures once per test process and hands out the same files to every test.
public final class FixtureFactory: @unchecked Sendable {
    public static let shared = FixtureFactory()

    private let lock = NSLock()
    private var built: [FixtureSpec: Result<Fixture, Error>] = [:]
    /// One lock per spec, so making one fixture never holds up a test that needs another.
    private var specLocks: [FixtureSpec: NSLock] = [:]
    private let folder = TestPaths.scratchFolder("fixtures")

    /// The fixture for `spec`, generated on first use with the ffmpeg command-line tool.
    public func fixture(_ spec: FixtureSpec) throws -> Fixture {
        let specLock = lock.withLock {
            if let existing = specLocks[spec] { return existing }
            let made = NSLock()
            specLocks[spec] = made
            return made
        }
        specLock.lock()
        defer { specLock.unlock() }
        if let done = lock.withLock({ built[spec] }) { return try done.get() }
        let result = Result { try generate(spec) }
        lock.withLock { built[spec] = result }
        return try result.get()
    }

    /// `fixture(_:)` for tests on the main actor: ffmpeg runs off it, so other suites that
    /// need the main actor meanwhile (camera, HUD, sessions) are not held up.
    public nonisolated func make(_ spec: FixtureSpec) async throws -> Fixture {
        try fixture(spec)
    }

    private func generate(_ spec: FixtureSpec) throws -> Fixture {
        var raw = Data(capacity: spec.size.width * spec.size.height * 3 * spec.frames)
        for index in 0..<spec.frames {
            raw.append(contentsOf: FrameIndexPattern.render(index: index, size: spec.size).bytes)
        }
        let rawURL = folder.appendingPathComponent("\(spec.name).rgb")
        try raw.write(to: rawURL)
        defer { try? FileManager.default.removeItem(at: rawURL) }

        var url = folder.appendingPathComponent("\(spec.name).\(spec.container)")
        var arguments = ["-v", "error", "-y"] + spec.input
        arguments += ["-f", "rawvideo", "-pix_fmt", "rgb24", "-s", "\(spec.size.width)x\(spec.size.height)",
                      "-r", spec.rate, "-i", rawURL.path]
        arguments += spec.encode + [url.path]
        let encoded = try Subprocess.run("ffmpeg", arguments)
        guard encoded.status == 0 else { throw SubprocessError.failed("ffmpeg", encoded.stderr) }

        if let degrees = spec.rotateTag {
            let rotated = folder.appendingPathComponent("\(spec.name)-tagged.\(spec.container)")
            let remux = try Subprocess.run("ffmpeg", ["-v", "error", "-y", "-i", url.path, "-c", "copy",
                                                      "-metadata:s:v:0", "rotate=\(degrees)", rotated.path])
            guard remux.status == 0 else { throw SubprocessError.failed("ffmpeg", remux.stderr) }
            url = rotated
        }
        let probe = try FFprobe.frames(of: url)
        guard probe.timestamps.count == spec.frames else {
            throw SubprocessError.failed("fixture \(spec.name)", "ffprobe sees \(probe.timestamps.count) frames, expected \(spec.frames)")
        }
        return Fixture(spec: spec, url: url, timestamps: probe.timestamps, timeBase: probe.timeBase,
                       ffprobeRotation: probe.rotation)
    }
}

/// ffprobe as an independent oracle.
public enum FFprobe {
    /// Every decoded frame's presentation timestamp, the stream time base and the rotation.
    public static func frames(of url: URL) throws -> (timestamps: [Int64], timeBase: (num: Int64, den: Int64), rotation: Int) {
        let result = try Subprocess.run("ffprobe", [
            "-v", "error", "-select_streams", "v:0", "-show_entries",
            "frame=pts,best_effort_timestamp:stream=time_base:stream_side_data=rotation", "-of", "json", url.path])
        guard result.status == 0,
              let json = try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any],
              let streams = json["streams"] as? [[String: Any]], let stream = streams.first,
              let base = stream["time_base"] as? String
        else { throw SubprocessError.failed("ffprobe", result.stderr) }
        let parts = base.split(separator: "/").compactMap { Int64($0) }
        let frames = json["frames"] as? [[String: Any]] ?? []
        let timestamps = frames.compactMap { frame -> Int64? in
            (frame["pts"] as? NSNumber)?.int64Value ?? (frame["best_effort_timestamp"] as? NSNumber)?.int64Value
        }
        let sideData = stream["side_data_list"] as? [[String: Any]] ?? []
        let rotation = sideData.compactMap { ($0["rotation"] as? NSNumber)?.intValue }.first ?? 0
        return (timestamps, (parts.first ?? 1, parts.last ?? 1), rotation)
    }

    /// `ffprobe -show_format -show_streams` as JSON.
    public static func description(of url: URL) throws -> [String: Any] {
        let result = try Subprocess.run("ffprobe", ["-v", "error", "-show_format", "-show_streams", "-of", "json", url.path])
        guard result.status == 0, let json = try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any] else {
            throw SubprocessError.failed("ffprobe", result.stderr)
        }
        return json
    }
}

extension FixtureFactory {
    /// A folder of `count` tiny JPEGs made with the ffmpeg CLI, `shot-01.jpg`, `shot-02.jpg` …,
    /// modified a minute apart in name order (so oldest first is name order), and after shot
    /// number `brokenAfter` a broken one, `shot-NNb.jpg`: the first 100 bytes of a JPEG. Blocks
    /// while ffmpeg runs (call it off the test pool).
    public static func shotFolder(_ folder: URL, count: Int, brokenAfter: Int) throws -> (shots: [URL], broken: URL) {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let made = try Subprocess.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=32x24:rate=1",
                                                 "-frames:v", "\(count)", folder.appendingPathComponent("shot-%02d.jpg").path])
        guard made.status == 0 else { throw SubprocessError.failed("ffmpeg", made.stderr) }
        let shots = (1...count).map { folder.appendingPathComponent(String(format: "shot-%02d.jpg", $0)) }
        for (index, shot) in shots.enumerated() {
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_600_000_000 + Double(index) * 60)],
                                                  ofItemAtPath: shot.path)
        }
        let broken = folder.appendingPathComponent(String(format: "shot-%02db.jpg", brokenAfter))
        try Data(try Data(contentsOf: shots[0]).prefix(100)).write(to: broken)
        return (shots, broken)
    }
}
