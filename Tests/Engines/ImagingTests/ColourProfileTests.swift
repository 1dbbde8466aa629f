import Foundation
import Imaging
import Testing
import ViewfinderCore
import ViewfinderTestSupport

/// Photos with an ICC profile are converted from it to sRGB: a chart of known colours carried
/// into Display P3 and Adobe RGB by the vips command (LittleCMS) comes back within ΔE00 1.
@Suite("Colour profiles")
struct ColourProfileTests {
    static let folder = TestPaths.scratchFolder("colour-profiles")

    /// The chart as a PNG, written by the ffmpeg CLI.
    static func chartPNG() throws -> URL {
        let png = folder.appendingPathComponent("chart.png")
        if FileManager.default.fileExists(atPath: png.path) { return png }
        let raw = try ColourChart.rawFile(in: folder)
        let result = try Subprocess.run("ffmpeg", ["-v", "error", "-y", "-f", "rawvideo", "-pix_fmt", "rgb24", "-s", "256x256",
                                                   "-i", raw.path, png.path])
        guard result.status == 0 else { throw SubprocessError.failed("ffmpeg", result.stderr) }
        return png
    }

    /// The chart converted into `profile` (a vips built-in name or an .icc file) with the profile
    /// embedded, as a JPEG of quality 98.
    static func chart(in profile: String, name: String) throws -> URL {
        let output = folder.appendingPathComponent("\(name).jpg")
        let result = try Subprocess.run("vips", ["icc_transform", try chartPNG().path, output.path + "[Q=98]", profile,
                                                 "--input-profile", "srgb", "--intent", "relative"])
        guard result.status == 0 else { throw SubprocessError.failed("vips", result.stderr) }
        return output
    }

    static func picture(_ url: URL) throws -> PixelBuffer {
        let image = try Photo(url: url).preview(fitting: ColourChart.size)
        return try #require(PixelBuffer(width: image.width, height: image.height, bytes: image.bytes))
    }

    /// The pixels as stored, read by a decoder that ignores profiles (the ffmpeg CLI).
    static func storedValues(_ url: URL) throws -> PixelBuffer {
        let result = try Subprocess.run("ffmpeg", ["-v", "error", "-i", url.path, "-f", "rawvideo", "-pix_fmt", "rgb24", "-"])
        guard result.status == 0 else { throw SubprocessError.failed("ffmpeg", result.stderr) }
        return try #require(PixelBuffer(width: 256, height: 256, bytes: [UInt8](result.stdoutData)))
    }

    static let profiles: [(String, String)] = [
        ("p3", "display-p3"),
        ("/usr/share/color/icc/colord/AdobeRGB1998.icc", "adobe-rgb"),
        // A profile that swaps red and green: only a real conversion gets the chart back.
        ("/usr/share/color/icc/colord/SwappedRedAndGreen.icc", "swapped"),
    ]

    @Test("a wide-gamut photo's colours come back within ΔE00 mean 1", arguments: profiles.map(\.1))
    func wideGamut(_ name: String) throws {
        let profile = try #require(Self.profiles.first { $0.1 == name }).0
        let url = try Self.chart(in: profile, name: name)
        let info = try #require(try ImageInfo.probe(url))
        guard case .embedded = info.profile else {
            Issue.record("\(name): the profile is not read: \(info.profile)")
            return
        }
        let e = ColourChart.error(of: try Self.picture(url))
        #expect(e.mean <= 1, "\(name): mean \(e.mean), max \(e.max)")
        // The stored values differ from the chart: without the conversion the test would fail.
        let untouched = ColourChart.error(of: try Self.storedValues(url))
        #expect(untouched.mean > 2, "\(name) as stored: mean \(untouched.mean)")
    }

    @Test("a damaged profile is reported and the photo read as sRGB")
    func damagedProfile() throws {
        var bytes = [UInt8](try Data(contentsOf: Self.chart(in: "p3", name: "damaged-source")))
        // The ICC APP2 segment: "ICC_PROFILE\0", sequence numbers, then the profile; its
        // header's size field and signature are overwritten, so LittleCMS refuses it.
        let marker = Array("ICC_PROFILE".utf8)
        let at = try #require((0..<(bytes.count - marker.count)).first { Array(bytes[$0..<($0 + marker.count)]) == marker })
        let profile = at + marker.count + 3
        for i in 0..<8 { bytes[profile + i] = 0xFF }
        for i in 36..<40 { bytes[profile + i] = 0 }  // "acsp"
        let url = Self.folder.appendingPathComponent("damaged-profile.jpg")
        try Data(bytes).write(to: url)
        let info = try #require(try ImageInfo.probe(url))
        #expect(info.profile == .unusable)
        let picture = try Self.picture(url)
        // Read as sRGB: the stored values, unconverted.
        let stored = try Self.storedValues(url)
        let drift = zip(ColourChart.patchColours(of: picture), ColourChart.patchColours(of: stored)).map {
            CIEDE2000.difference($0, $1)
        }.max() ?? 0
        #expect(drift < 1, "largest patch difference from the stored values: \(drift)")
    }

    @Test("a photo without a profile is taken as sRGB, unchanged")
    func noProfile() throws {
        let png = try Self.chartPNG()
        #expect(try ImageInfo.probe(png)?.profile == ImageInfo.ColourProfile.none)
        #expect(ColourChart.error(of: try Self.picture(png)).max < 0.01)
    }
}
