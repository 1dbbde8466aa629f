import Foundation
import Testing
import ViewfinderCore
import ViewfinderTestSupport

/// Every file of ../shared/media through `cover` and `filmstrip`: a picture of the right size
/// for good videos, a one-line error for everything else; never a crash or a hang.
@Suite("Real media through the CLI")
struct RealMediaCLITests {
    static let files = ["phone_video", "slowmo", "video_features", "broken", "images", "exif_orientation"]
        .flatMap(TestPaths.mediaFiles(in:))

    @Test("cover and filmstrip on every file", arguments: files)
    func everyFile(_ file: URL) async throws {
        let folder = TestPaths.scratchFolder("real")
        let cover = folder.appendingPathComponent("cover.jpg")
        let result = try await viewfinderOffPool("cover", file.path, "--at", "0", "--max-duration", "0", "--max-size", "320x320", "-o", cover.path)
        let name = file.lastPathComponent
        #expect(result.status == 0 || result.status == 1, "\(name): exit \(result.status) \(result.stderr)")
        if result.status == 0 {
            let info = try #require(jsonObject(try await viewfinderOffPool("info", file.path, "--json")), "\(name)")
            let display = PixelSize(width: info["displayWidth"] as? Int ?? 0, height: info["displayHeight"] as? Int ?? 0)
            let image = try #require(try decodeImage(cover), "\(name)")
            #expect(image.size == display.fitting(in: PixelSize(width: 320, height: 320)), "\(name)")
            #expect(result.stdout.contains("frame at 0 s"), "\(name): \(result.stdout)")
        } else {
            #expect(result.stderr.hasPrefix("viewfinder: ") && result.stderr.filter { $0 == "\n" }.count == 1, "\(name): \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: cover.path), "\(name)")
        }
        let strip = try await viewfinderOffPool("filmstrip", file.path, "--max-duration", "0", "-o", folder.appendingPathComponent("strip.jpg").path)
        #expect(strip.status == result.status, "\(name): filmstrip exit \(strip.status) \(strip.stderr)")
        try? FileManager.default.removeItem(at: folder)
    }

    @Test("trim on every phone video and broken file: frames a decoder reads cleanly (HEVC as hvc1), or a one-line error",
          arguments: ["phone_video", "broken"].flatMap(TestPaths.mediaFiles(in:)))
    func trimEveryFile(_ file: URL) async throws {
        let name = file.lastPathComponent
        let folder = TestPaths.scratchFolder("real-trim")
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("cut.mp4")
        // From a tenth into the video, 0.3 s (or to a tenth before its end): enough for a cut
        // inside a GOP at both ends, short enough that a clip with no keyframe inside, which is
        // re-encoded whole (the iPhone's 10-bit HEVC by x265), stays a few seconds of work.
        let info = jsonObject(try await viewfinderOffPool("info", file.path, "--json"))
        let duration = info?["duration"] as? Double ?? 1
        let range = String(format: "%.3f-%.3f", duration * 0.1, duration * 0.1 + min(0.3, duration * 0.8))
        let result = try await viewfinderOffPool("trim", file.path, "--keep", range, "-o", out.path, "--json", "-q")
        if file.deletingLastPathComponent().lastPathComponent == "phone_video" {
            #expect(result.status == 0, "\(name): \(result.stderr)")
        }
        guard result.status == 0 else {
            #expect(result.status == 1, "\(name): exit \(result.status)")
            #expect(result.stderr.hasPrefix("viewfinder: ") && result.stderr.filter { $0 == "\n" }.count == 1, "\(name): \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out.path), "\(name)")
            return
        }
        let json = try #require(jsonObject(result), "\(name)")
        #expect(try FFmpegOracle.decodeErrors(of: out) == "", "\(name)")
        let streams = try FFprobe.description(of: out)["streams"] as? [[String: Any]] ?? []
        let video = try #require(streams.first { $0["codec_type"] as? String == "video" }, "\(name)")
        if video["codec_name"] as? String == "hevc" { #expect(video["codec_tag_string"] as? String == "hvc1", "\(name)") }
        let counted = try FFmpegOracle.frameEntries(of: out, select: "v:0", entries: "pts").count
        #expect(counted == json["frames"] as? Int, "\(name): \(counted) frames decoded, \(json["frames"] ?? "-") said")
    }

    @Test("the known-good phone videos all give a cover")
    func phoneVideosSucceed() throws {
        for file in TestPaths.mediaFiles(in: "phone_video") {
            let out = TestPaths.scratchFolder("phone").appendingPathComponent("c.png")
            let result = try viewfinder("cover", file.path, "--at", "0", "--max-size", "64x64", "-o", out.path)
            #expect(result.status == 0, "\(file.lastPathComponent): \(result.stderr)")
        }
    }
}
