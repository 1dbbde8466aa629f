import Foundation
import Testing
import ViewfinderCore
import ViewfinderTestSupport

/// A PNG header declaring `width` × `height` with no real pixel data: a decompression bomb's
/// calling card.
func pngBomb(width: UInt32, height: UInt32) -> Data {
    func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
    func be(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + body
        return be(UInt32(body.count)) + typed + be(crc32(typed))
    }
    var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    bytes += chunk("IHDR", be(width) + be(height) + [8, 2, 0, 0, 0])
    bytes += chunk("IDAT", [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])
    bytes += chunk("IEND", [])
    return Data(bytes)
}

@Suite("avatar command")
struct AvatarCommandTests {
    static let photo = TestPaths.media.appendingPathComponent("exif_orientation/Portrait_6.jpg")

    @Test("default: a 512 px circle PNG from the largest centred square")
    func defaults() throws {
        let folder = TestPaths.scratchFolder("avatar")
        let out = folder.appendingPathComponent("a.png")
        let result = try viewfinder("avatar", Self.photo.path, "-o", out.path, "--json")
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(jsonObject(result))
        #expect(json["width"] as? Int == 512 && json["height"] as? Int == 512)
        let crop = try #require(json["crop"] as? [String: Any])
        #expect(crop["x"] as? Int == 0 && crop["y"] as? Int == 300 && crop["width"] as? Int == 1200)
        let probe = try Subprocess.run("ffprobe", ["-v", "error", "-show_entries", "stream=width,height,pix_fmt", "-of", "csv=p=0", out.path])
        #expect(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "512,512,rgba")
        #expect(leftovers(in: folder) == ["a.png"])
    }

    @Test("--print-spec, then --spec replays identical bytes; --zoom and --center move the crop")
    func specReplay() throws {
        let folder = TestPaths.scratchFolder("avatar-spec")
        let first = folder.appendingPathComponent("first.png")
        let printed = try viewfinder("avatar", Self.photo.path, "-o", first.path, "--zoom", "2", "--center", "300,500",
                                     "--size", "200", "--print-spec")
        #expect(printed.status == 0, "\(printed.stderr)")
        let specURL = folder.appendingPathComponent("spec.json")
        try printed.stdoutData.write(to: specURL)
        let spec = try CropSpec.parse(printed.stdoutData)
        #expect(spec.rect == Rect(x: 0, y: 200, width: 600, height: 600), "clamped at the left edge")
        let second = folder.appendingPathComponent("second.png")
        let replay = try viewfinder("avatar", Self.photo.path, "-o", second.path, "--spec", specURL.path)
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(try Data(contentsOf: first) == Data(contentsOf: second))
    }

    @Test("square avatars as JPEG; a circle as JPEG is a usage error")
    func shapes() throws {
        let folder = TestPaths.scratchFolder("avatar-shapes")
        let jpeg = folder.appendingPathComponent("s.jpg")
        #expect(try viewfinder("avatar", Self.photo.path, "-o", jpeg.path, "--shape", "square", "--size", "128").status == 0)
        let image = try #require(try decodeImage(jpeg))
        #expect(image.size == PixelSize(width: 128, height: 128))
        let circle = try viewfinder("avatar", Self.photo.path, "-o", folder.appendingPathComponent("c.jpg").path)
        #expect(circle.status == 2)
        #expect(circle.stderr.contains("a circle needs transparency"))
    }

    @Test("bad usage exits 2", arguments: [
        ["avatar", "p.jpg"], ["avatar", "p.jpg", "-o", "a.png", "--shape", "star"], ["avatar", "p.jpg", "-o", "a.png", "--size", "3"],
        ["avatar", "p.jpg", "-o", "a.png", "--zoom", "0.5"], ["avatar", "p.jpg", "-o", "a.png", "--center", "12"],
        ["avatar", "p.jpg", "-o", "a.bmp"],
    ])
    func usage(_ arguments: [String]) throws {
        let result = try viewfinder(arguments)
        #expect(result.status == 2, "\(arguments): \(result.stderr)")
    }

    @Test("a 60000×60000 PNG bomb is refused from its header, under 200 MB")
    func bomb() throws {
        let folder = TestPaths.scratchFolder("bomb")
        let bomb = folder.appendingPathComponent("bomb.png")
        try pngBomb(width: 60000, height: 60000).write(to: bomb)
        let out = folder.appendingPathComponent("a.png")
        let started = Date()
        let result = try Subprocess.run(URL(fileURLWithPath: "/usr/bin/time"), ["-f", "%M", TestPaths.tool.path, "avatar", bomb.path, "-o", out.path])
        let elapsed = Date().timeIntervalSince(started)
        #expect(result.status == 1)
        #expect(result.stderr.contains("declares 60000×60000 pixels, more than the limit of 100 MP"))
        let peakKB = Int(result.stderr.split(separator: "\n").last.map(String.init) ?? "") ?? Int.max
        #expect(peakKB < 200_000, "peak \(peakKB) KB")
        // Not a benchmark: a guard against decoding it (which would take a minute), loose
        // enough for a loaded CI machine.
        #expect(elapsed < 10, "\(elapsed) s")
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    @Test("every file of the corpus: an avatar for photos, a one-line error otherwise",
          arguments: ["images", "exif_orientation", "broken", "video_features"].flatMap(TestPaths.mediaFiles(in:)))
    func corpus(_ file: URL) async throws {
        let folder = TestPaths.scratchFolder("avatar-corpus")
        let out = folder.appendingPathComponent("a.png")
        let result = try await viewfinderOffPool("avatar", file.path, "-o", out.path, "--size", "64")
        let name = file.lastPathComponent
        #expect(result.status == 0 || result.status == 1, "\(name): exit \(result.status) \(result.stderr)")
        if result.status == 0 {
            #expect(try decodeImage(out)?.size == PixelSize(width: 64, height: 64), "\(name)")
        } else {
            #expect(result.stderr.hasPrefix("viewfinder: ") && result.stderr.filter { $0 == "\n" }.count == 1, "\(name): \(result.stderr)")
            #expect(leftovers(in: folder).isEmpty, "\(name)")
        }
        let truncated = ["jpeg_truncated.jpg", "jpeg_truncated_progressive.jpg", "png_truncated.png", "png_broken_80bytes.png"]
        if truncated.contains(name) { #expect(result.status == 1, "\(name) is truncated: no half picture") }
        let good = file.path.contains("/images/") && !name.hasPrefix("huge_dims")
        if good || file.path.contains("/exif_orientation/") && name.hasSuffix(".jpg") {
            #expect(result.status == 0, "\(name) is a good photo: \(result.stderr)")
        }
        try? FileManager.default.removeItem(at: folder)
    }
}
