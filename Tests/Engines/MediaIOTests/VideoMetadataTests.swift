import Foundation
import Testing
import ViewfinderCore
import ViewfinderTestSupport

@testable import MediaIO

/// Removing a video's location: clips tagged here by ffmpeg, read back by ffprobe and exiftool.
@Suite("Video location removal")
struct VideoMetadataTests {
    /// A one-second H.264 clip copied with `tags` (ffmpeg `-metadata` pairs) into `name`.
    static func tagged(_ name: String, _ tags: [(String, String)], flags: [String] = []) throws -> URL {
        let fixture = try FixtureFactory.shared.fixture(.h264BFrames)
        let url = TestPaths.scratchFolder("video-location").appendingPathComponent(name)
        let arguments = ["-v", "error", "-i", fixture.url.path, "-c", "copy"] + flags
            + tags.flatMap { ["-metadata", "\($0.0)=\($0.1)"] } + [url.path]
        let result = try Subprocess.run("ffmpeg", arguments)
        guard result.status == 0 else { throw SubprocessError.failed("ffmpeg", result.stderr) }
        return url
    }

    /// The container's tags as ffprobe reads them.
    static func formatTags(_ url: URL) throws -> [String: String] {
        let result = try Subprocess.run("ffprobe", ["-v", "error", "-show_entries", "format_tags", "-of", "json", url.path])
        let json = try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any]
        return (json?["format"] as? [String: Any])?["tags"] as? [String: String] ?? [:]
    }

    static func size(_ url: URL) throws -> Int? {
        (try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.intValue
    }

    @Test("QuickTime mdta keys: both location keys go, the keys after them keep their values, the file its size and packets")
    func quickTimeKeys() throws {
        let url = try Self.tagged("keys.mov", [
            ("com.apple.quicktime.location.name", "Tower"), ("com.apple.quicktime.make", "Viewfinder"),
            ("com.apple.quicktime.location.ISO6709", "+48.8584+002.2945+035.000/"), ("com.apple.quicktime.model", "Test"),
        ], flags: ["-movflags", "use_metadata_tags"])
        let before = try Self.formatTags(url)
        #expect(before["com.apple.quicktime.location.ISO6709"] == "+48.8584+002.2945+035.000/")
        let packets = try FFmpegOracle.packetHashes(of: url, timing: true)
        let length = try Self.size(url)
        try VideoMetadata.removeLocation(from: url)
        var expected = before
        expected["com.apple.quicktime.location.ISO6709"] = nil
        expected["com.apple.quicktime.location.name"] = nil
        #expect(try Self.formatTags(url) == expected)
        #expect(try FFmpegOracle.packetHashes(of: url, timing: true) == packets)
        #expect(try Self.size(url) == length)
        let gps = try Subprocess.run("exiftool", ["-gps:all", "-keys:LocationName", "-s", url.path])
        #expect(gps.status == 0 && gps.stdout.isEmpty, "exiftool still sees: \(gps.stdout)")
    }

    @Test("MP4 user data (3GPP loci, read as location): gone; title and comment kept")
    func userData() throws {
        let url = try Self.tagged("loci.mp4", [("title", "Tour"), ("location", "+48.8584+002.2945/"), ("comment", "hello")])
        let before = try Self.formatTags(url)
        #expect(before["location"] == "+48.8584+002.2945/")
        try VideoMetadata.removeLocation(from: url)
        let after = try Self.formatTags(url)
        #expect(after == before.filter { !$0.key.hasPrefix("location") })
        #expect(after["title"] == "Tour" && after["comment"] == "hello")
        let exif = try Subprocess.run("exiftool", ["-UserData:all", "-gps:all", "-s", url.path])
        #expect(exif.stdout.isEmpty, "exiftool still sees: \(exif.stdout)")
    }

    @Test("a clip without a location is left byte for byte as it was")
    func nothingToRemove() throws {
        let url = try Self.tagged("plain.mp4", [("title", "Tour")])
        let before = try Data(contentsOf: url)
        try VideoMetadata.removeLocation(from: url)
        #expect(try Data(contentsOf: url) == before)
    }

    @Test("a Matroska clip's location cannot be reached: a one-line error naming the tag")
    func matroskaRefused() throws {
        let url = try Self.tagged("place.mkv", [("location", "+48.8584+002.2945/")])
        #expect(throws: MediaIOError.locationKept(path: url.path, tag: "format:LOCATION")) {
            try VideoMetadata.removeLocation(from: url)
        }
    }

    @Test("the keys read as location", arguments: [
        ("com.apple.quicktime.location.ISO6709", true), ("com.apple.quicktime.location.name", true),
        ("location", true), ("location-eng", true), ("LOCATION", true),
        ("com.apple.quicktime.make", false), ("title", false), ("com.apple.quicktime.creationdate", false),
    ])
    func locationKeys(_ key: String, _ isLocation: Bool) {
        #expect(VideoMetadata.isLocationKey(key) == isLocation)
    }
}
