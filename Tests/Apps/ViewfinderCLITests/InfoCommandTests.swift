import Foundation
import Testing
import ViewfinderCore
import ViewfinderTestSupport

/// `info --json` checked field by field against ffprobe.
@Suite("info command")
struct InfoCommandTests {
    /// Compares our JSON with ffprobe's description of the same file.
    static func checkAgainstFFprobe(_ url: URL) throws {
        let result = try viewfinder("info", url.path, "--json")
        #expect(result.status == 0, "\(url.lastPathComponent): \(result.stderr)")
        let ours = try #require(jsonObject(result), "\(url.lastPathComponent)")
        let theirs = try FFprobe.description(of: url)
        let streams = theirs["streams"] as? [[String: Any]] ?? []
        let format = theirs["format"] as? [String: Any] ?? [:]
        let name = url.lastPathComponent

        #expect((ours["fileSize"] as? NSNumber)?.int64Value == Int64(format["size"] as? String ?? ""), "\(name)")
        let audio = streams.first { $0["codec_type"] as? String == "audio" }
        #expect(ours["audioCodec"] as? String == audio?["codec_name"] as? String, "\(name)")

        let index = try #require(ours["streamIndex"] as? Int ?? (ours["videoCodec"] == nil ? nil : 0), "\(name)")
        let video = try #require(streams.first { $0["index"] as? Int == index }, "\(name)")
        #expect(ours["videoCodec"] as? String == video["codec_name"] as? String, "\(name)")
        #expect(ours["width"] as? Int == video["width"] as? Int, "\(name)")
        #expect(ours["height"] as? Int == video["height"] as? Int, "\(name)")
        let sideData = video["side_data_list"] as? [[String: Any]] ?? []
        let ccw = sideData.compactMap { ($0["rotation"] as? NSNumber)?.doubleValue }.first ?? 0
        let rotation = Rotation(clockwiseDegrees: -ccw)
        #expect(ours["rotation"] as? Int == rotation.degrees, "\(name)")
        let coded = PixelSize(width: video["width"] as? Int ?? 0, height: video["height"] as? Int ?? 0)
        let display = rotation.apply(to: coded)
        if (video["sample_aspect_ratio"] as? String ?? "1:1") == "1:1" || video["sample_aspect_ratio"] == nil
            || video["sample_aspect_ratio"] as? String == "0:1" {
            #expect(ours["displayWidth"] as? Int == display.width, "\(name)")
            #expect(ours["displayHeight"] as? Int == display.height, "\(name)")
        }
        if let rate = video["avg_frame_rate"] as? String, rate != "0/0" {
            let parts = rate.split(separator: "/").compactMap { Int64($0) }
            #expect(ours["frameRateExact"] as? String == MediaTime(value: parts[0], timescale: parts[1]).rationalString, "\(name)")
        }
        // Duration: the video stream's when ffprobe has one, else the container's.
        let expected = Double(video["duration"] as? String ?? "") ?? Double(format["duration"] as? String ?? "")
        if let expected {
            let actual = (ours["duration"] as? NSNumber)?.doubleValue ?? -1
            #expect(abs(actual - expected) < 0.000_002, "\(name): \(actual) vs \(expected)")
        }
    }

    @Test("generated clips", arguments: [FixtureSpec.h264BFrames, .ntsc, .vp9, .hevc, .editList, .oddSize, .rotated(90), .rotated(270)])
    func generated(_ spec: FixtureSpec) throws {
        try Self.checkAgainstFFprobe(try FixtureFactory.shared.fixture(spec).url)
    }

    @Test("a clip with AAC audio")
    func withAudio() throws {
        let folder = TestPaths.scratchFolder("info-audio")
        let clip = folder.appendingPathComponent("av.mp4")
        let made = try Subprocess.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=s=160x90:r=25:d=1.2",
                                                 "-f", "lavfi", "-i", "sine=d=1.2", "-c:v", "libx264", "-c:a", "aac",
                                                 "-shortest", clip.path])
        #expect(made.status == 0)
        try Self.checkAgainstFFprobe(clip)
        let json = try #require(jsonObject(try viewfinder("info", clip.path, "--json")))
        #expect(json["audioCodec"] as? String == "aac")
        #expect(json["kind"] as? String == "video")
    }

    @Test("photos report kind, size and orientation")
    func photo() throws {
        let url = TestPaths.media.appendingPathComponent("images/exif_orient6_samsung_galaxyS.jpg")
        let result = try viewfinder("info", url.path, "--json")
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(jsonObject(result))
        #expect(json["kind"] as? String == "photo")
        #expect(json["format"] as? String == "jpeg")
        #expect(json["orientation"] as? Int == 6)
        let (w, h) = (json["width"] as? Int ?? 0, json["height"] as? Int ?? 0)
        #expect(w > 0 && h > 0)
        #expect(json["displayWidth"] as? Int == h && json["displayHeight"] as? Int == w)
        let text = try viewfinder("info", url.path)
        #expect(text.stdout.contains("kind        photo"))
    }

    @Test("every real video in the shared corpus matches ffprobe")
    func realVideos() throws {
        let files = ["phone_video", "slowmo", "video_features"].flatMap(TestPaths.mediaFiles(in:))
        try #require(files.count >= 20, "the shared media corpus is missing at \(TestPaths.media.path)")
        for file in files {
            let result = try viewfinder("info", file.path, "--json")
            guard result.status == 0 else {
                Issue.record("\(file.lastPathComponent): \(result.stderr)")
                continue
            }
            if jsonObject(result)?["kind"] as? String == "video" {
                try Self.checkAgainstFFprobe(file)
            }
        }
    }
}
