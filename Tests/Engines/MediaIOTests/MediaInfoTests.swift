import Foundation
import Testing
import ViewfinderCore
import ViewfinderTestSupport

@testable import MediaIO

/// `probeMedia(at:)` field by field: exact values for clips made here, and ffprobe's values
/// (the oracle) for every file of the shared corpus.
@Suite("Probing")
struct MediaInfoTests {
    static let corpus = ["phone_video", "slowmo", "video_features"].flatMap(TestPaths.mediaFiles(in:))

    static func fileSize(_ url: URL) throws -> Int64 {
        try #require((try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.int64Value)
    }

    @Test("an H.264 MP4 made by ffmpeg: every field, exactly")
    func mp4() throws {
        let fixture = try FixtureFactory.shared.fixture(.h264BFrames)
        let info = try probeMedia(at: fixture.url)
        #expect(info.path == fixture.url.path)
        #expect(info.container == "mp4")
        #expect(info.containerDescription == "QuickTime / MOV")
        #expect(info.duration == MediaTime(value: 8, timescale: 5))
        #expect(info.fileSize == (try Self.fileSize(fixture.url)))
        #expect(info.audioCodec == nil)
        let video = try #require(info.video)
        #expect(video.streamIndex == 0)
        #expect(video.codec == "h264")
        #expect(video.codedSize == PixelSize(width: 192, height: 108))
        #expect(video.sampleAspectRatio == MediaTime(value: 1, timescale: 1))
        #expect(video.rotation == .none)
        #expect(video.frameRate == MediaTime(value: 30, timescale: 1))
        #expect(video.frameCount == 48)
        #expect(video.pixelFormat == "yuv420p")
        #expect(video.displaySize == PixelSize(width: 192, height: 108))
    }

    @Test("container, codec, size and pixel format of other clips", arguments: [
        (FixtureSpec.vp9, "webm", "Matroska / WebM", "vp9", "yuv420p"),
        (FixtureSpec.hevc, "mp4", "QuickTime / MOV", "hevc", "yuv420p"),
        (FixtureSpec.transportStream, "mpegts", "MPEG-TS (MPEG-2 Transport Stream)", "h264", "yuv420p"),
        (FixtureSpec.oddSize, "mp4", "QuickTime / MOV", "h264", "yuv444p"),
        (FixtureSpec("mov-container", frames: 12, encode: ["-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p"], container: "mov"),
         "mov", "QuickTime / MOV", "h264", "yuv420p"),
        (FixtureSpec("mkv-container", frames: 12, encode: ["-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p"], container: "mkv"),
         "matroska", "Matroska / WebM", "h264", "yuv420p"),
    ])
    func containers(_ spec: FixtureSpec, _ container: String, _ description: String, _ codec: String, _ pixelFormat: String) throws {
        let fixture = try FixtureFactory.shared.fixture(spec)
        let info = try probeMedia(at: fixture.url)
        #expect(info.container == container)
        #expect(info.containerDescription == description)
        #expect(info.video?.codec == codec)
        #expect(info.video?.codedSize == spec.size)
        #expect(info.video?.pixelFormat == pixelFormat)
        #expect(info.duration == MediaTime(value: Int64(spec.frames), timescale: 30), "\(spec): \(info.duration)")
    }

    @Test("a display matrix is the clockwise rotation ffprobe reports (counter-clockwise)", arguments: [90, 180, 270])
    func rotation(_ degrees: Int) throws {
        let fixture = try FixtureFactory.shared.fixture(.rotated(degrees))
        let video = try #require(try probeMedia(at: fixture.url).video)
        #expect(fixture.ffprobeRotation != 0)
        #expect(video.rotation == Rotation(clockwiseDegrees: Double(-fixture.ffprobeRotation)))
        #expect(video.displaySize == (degrees == 180 ? fixture.spec.size : fixture.spec.size.transposed))
    }

    @Test("container names of real files", arguments: [
        ("phone_video/iphone4s_h264_rot90_vfr_sideways.mov", "mov"),
        ("phone_video/phone_3gp5brand_h264_rot90_nomake.mp4", "3gp"),
        ("phone_video/pixel7_h264_rot180_noaudio_moov_at_end.mp4", "mp4"),
        ("video_features/audioonly_alac.m4a", "m4a"),
        ("video_features/audioonly_aac_long_editlist.mp4", "mp4"),
        ("video_features/mkv_h264_ac3_bframes.mkv", "matroska"),
        ("video_features/webm_vp9_2997fps_noaudio_bear.webm", "webm"),
    ])
    func realContainers(_ path: String, _ container: String) throws {
        #expect(try probeMedia(at: TestPaths.media.appendingPathComponent(path)).container == container)
    }

    /// ffprobe's duration of stream `index` (exact, from duration_ts), else the file's (to the microsecond).
    static func oracleDuration(_ stream: [String: Any], _ format: [String: Any]) -> MediaTime? {
        if let ticks = (stream["duration_ts"] as? NSNumber)?.int64Value, let base = stream["time_base"] as? String {
            let parts = base.split(separator: "/").compactMap { Int64($0) }
            if parts.count == 2 { return MediaTime.ticks(ticks, timeBase: parts[0], parts[1]) }
        }
        guard let text = format["duration"] as? String, let seconds = Decimal(string: text) else { return nil }
        return MediaTime(value: NSDecimalNumber(decimal: seconds * 1_000_000).int64Value, timescale: 1_000_000)
    }

    @Test("every corpus file agrees with ffprobe: codec, size, pixel format, rotation, frames, audio, duration",
          arguments: corpus)
    func agreesWithFFprobe(_ url: URL) throws {
        let info = try probeMedia(at: url)
        let json = try FFprobe.description(of: url)
        let streams = json["streams"] as? [[String: Any]] ?? []
        let format = json["format"] as? [String: Any] ?? [:]
        #expect(info.fileSize == Int64(format["size"] as? String ?? ""))
        let audio = streams.first { $0["codec_type"] as? String == "audio" }
        #expect(info.audioCodec == audio?["codec_name"] as? String)
        let main: [String: Any]
        if let video = info.video {
            let stream = try #require(streams.first { $0["index"] as? Int == video.streamIndex })
            main = stream
            #expect(stream["codec_type"] as? String == "video")
            #expect(video.codec == stream["codec_name"] as? String)
            #expect(video.codedSize == PixelSize(width: stream["width"] as? Int ?? 0, height: stream["height"] as? Int ?? 0))
            #expect(video.pixelFormat == stream["pix_fmt"] as? String)
            let sides = stream["side_data_list"] as? [[String: Any]] ?? []
            let ccw = sides.compactMap { ($0["rotation"] as? NSNumber)?.doubleValue }.first ?? 0
            #expect(video.rotation == Rotation(clockwiseDegrees: -ccw))
            #expect(video.frameCount == Int(stream["nb_frames"] as? String ?? ""))
        } else {
            main = try #require(audio, "\(url.lastPathComponent) has neither video nor audio")
            #expect(!streams.contains { $0["codec_type"] as? String == "video" && ($0["disposition"] as? [String: Any])?["attached_pic"] as? Int != 1 })
        }
        if let expected = Self.oracleDuration(main, format) {
            #expect(info.duration == expected, "\(url.lastPathComponent): \(info.duration.decimalString) s, ffprobe \(expected.decimalString) s")
        } else {
            #expect(info.duration > .zero, "\(url.lastPathComponent): a duration found by reading the packets")
        }
    }

    @Test("a video's location, camera, software and capture date, as exiftool reads them", arguments: [
        "phone_video/android601_h264_1080p_gps.mp4", "phone_video/iphone6_h264_rot90_2997_vfr_gps.mov",
        "phone_video/iphone13pro_livephoto_companion_h264_vfr.MOV",
    ])
    func captureMetadata(_ path: String) throws {
        let url = TestPaths.media.appendingPathComponent(path)
        let ours = try FrameReader(url: url).info.metadata
        let result = try Subprocess.run("exiftool", ["-n", "-j", "-GPSLatitude", "-GPSLongitude", "-GPSAltitude", "-Make", "-Model",
                                                     "-Software", "-CreationDate", url.path])
        let theirs = try #require((try JSONSerialization.jsonObject(with: result.stdoutData) as? [[String: Any]])?.first)
        let location = try #require(ours.location)
        #expect(abs(location.latitude - ((theirs["GPSLatitude"] as? NSNumber)?.doubleValue ?? .nan)) < 1e-9)
        #expect(abs(location.longitude - ((theirs["GPSLongitude"] as? NSNumber)?.doubleValue ?? .nan)) < 1e-9)
        #expect(location.altitude.map { abs($0 - ((theirs["GPSAltitude"] as? NSNumber)?.doubleValue ?? .nan)) < 1e-9 } ?? (theirs["GPSAltitude"] == nil))
        #expect(ours.make == theirs["Make"] as? String && ours.model == theirs["Model"] as? String)
        #expect(ours.software.flatMap(Double.init) == (theirs["Software"] as? NSNumber)?.doubleValue || ours.software == theirs["Software"] as? String)
        if let created = theirs["CreationDate"] as? String {
            // exiftool: "2019:07:24 11:25:40+03:00".
            #expect((ours.captureDate ?? "") + (ours.captureZone ?? "") == created)
        } else {
            #expect(ours.captureDate == nil)
        }
    }
}
