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

    @Test("the known-good phone videos all give a cover")
    func phoneVideosSucceed() throws {
        for file in TestPaths.mediaFiles(in: "phone_video") {
            let out = TestPaths.scratchFolder("phone").appendingPathComponent("c.png")
            let result = try viewfinder("cover", file.path, "--at", "0", "--max-size", "64x64", "-o", out.path)
            #expect(result.status == 0, "\(file.lastPathComponent): \(result.stderr)")
        }
    }
}
