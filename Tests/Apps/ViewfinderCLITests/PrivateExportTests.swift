import Foundation
import Testing
import ViewfinderCore
import ViewfinderTestSupport

/// `library export --strip-location` on the placements a hostile round found left behind:
/// XMP in a video's user data and in a top-level `uuid` box, Apple location keys the editor
/// cannot read (a flipped bit in the name, a lying count), GPS in a JPEG's second EXIF
/// segment, XMP-only GPS in a WebP. Each export either has no location left per exiftool, or
/// is refused in one line with nothing written: never a file with the place in it.
@Suite("Exports without location, verified")
struct PrivateExportTests {
    static let folder = TestPaths.scratchFolder("private-export")

    /// What exiftool reads of a position or a place, every group and embedded document.
    static func locationTags(_ url: URL) throws -> [String] {
        let result = try Subprocess.run("exiftool", ["-a", "-G1", "-s", "-ee", "-api", "LargeFileSupport=1", url.path])
        return result.stdout.split(separator: "\n").map(String.init).filter { line in
            !line.hasPrefix("[System]") && !line.hasPrefix("[File]")
                && ["GPS", "Location", "Coordinates", "City", "Country", "ISO6709"].contains { line.contains($0) }
        }
    }

    /// Imports `file` into a fresh library and exports it with --strip-location.
    static func export(_ file: URL, name: String) throws -> (RunResult, URL) {
        let library = Self.folder.appendingPathComponent("lib-\(name)").path
        let imported = try viewfinder(["library", "--library", library, "import", file.path, "-q"])
        #expect(imported.status == 0, "\(imported.stderr)")
        let outFolder = Self.folder.appendingPathComponent("out-\(name)")
        try FileManager.default.createDirectory(at: outFolder, withIntermediateDirectories: true)
        let out = outFolder.appendingPathComponent("private." + file.pathExtension)
        return (try viewfinder("library", "--library", library, "export", "1", "--strip-location", "-o", out.path), out)
    }

    /// A small H.264 MP4 made by the ffmpeg CLI (its movie box last, `udta` the movie's last child).
    static func clip(_ name: String) throws -> URL {
        let url = Self.folder.appendingPathComponent("\(name).mp4")
        let made = try Subprocess.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=64x64:r=10:d=0.5",
                                                 "-c:v", "libx264", "-metadata", "title=kept", url.path])
        guard made.status == 0 else { throw SubprocessError.failed("ffmpeg", made.stderr) }
        return url
    }

    static func bigEndian(_ value: Int) -> [UInt8] {
        [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    static let xmp = """
    <?xpacket begin='' id='W5M0MpCehiHzreSzNTczkc9d'?><x:xmpmeta xmlns:x='adobe:ns:meta/'><rdf:RDF \
    xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#'><rdf:Description rdf:about='' \
    xmlns:exif='http://ns.adobe.com/exif/1.0/' xmlns:photoshop='http://ns.adobe.com/photoshop/1.0/'>\
    <exif:GPSLatitude>37,46.494N</exif:GPSLatitude><exif:GPSLongitude>122,25.164W</exif:GPSLongitude>\
    <photoshop:City>San Francisco</photoshop:City></rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end='w'?>
    """

    @Test("XMP with GPS in a video's moov/udta/XMP_ box is removed; the rest of the file is kept")
    func userDataXMP() throws {
        let url = try Self.clip("udta-xmp")
        var bytes = [UInt8](try Data(contentsOf: url))
        // Append an XMP_ box to the movie's user data (both are the last of their parents).
        let moov = try #require(Self.topLevel(bytes).last)
        #expect(moov.type == "moov" && moov.end == bytes.count)
        let udta = try #require(Self.children(bytes, moov.start + 8, moov.end).last)
        #expect(udta.type == "udta" && udta.end == moov.end)
        let box = Self.bigEndian(8 + Self.xmp.utf8.count) + Array("XMP_".utf8) + Array(Self.xmp.utf8)
        bytes += box
        bytes.replaceSubrange(udta.start..<(udta.start + 4), with: Self.bigEndian(udta.end - udta.start + box.count))
        bytes.replaceSubrange(moov.start..<(moov.start + 4), with: Self.bigEndian(moov.end - moov.start + box.count))
        try Data(bytes).write(to: url)
        #expect(!(try Self.locationTags(url)).isEmpty, "exiftool reads the planted XMP: the check below could fail")
        let (result, out) = try Self.export(url, name: "udta-xmp")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Self.locationTags(out) == [])
        #expect(try FFmpegOracle.packetHashes(of: out, timing: true) == FFmpegOracle.packetHashes(of: url, timing: true))
        #expect(try Subprocess.run("exiftool", ["-s3", "-Title", out.path]).stdout.contains("kept"))
    }

    @Test("XMP with GPS in a top-level uuid box (as exiftool writes XMP into MP4) is removed")
    func topLevelXMP() throws {
        let url = try Self.clip("uuid-xmp")
        let wrote = try Subprocess.run("exiftool", ["-q", "-overwrite_original", "-XMP-exif:GPSLatitude=37.7749",
                                                    "-XMP-exif:GPSLongitude=-122.4194", "-XMP-photoshop:City=San Francisco", url.path])
        #expect(wrote.status == 0, "\(wrote.stderr)")
        #expect(!(try Self.locationTags(url)).isEmpty)
        let (result, out) = try Self.export(url, name: "uuid-xmp")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Self.locationTags(out) == [])
        #expect(try FFmpegOracle.packetHashes(of: out, timing: true) == FFmpegOracle.packetHashes(of: url, timing: true))
    }

    /// An MP4 with Apple's location key (written by exiftool), then `damage` applied to its bytes.
    static func appleKeys(_ name: String, damage: (inout [UInt8]) throws -> Void) throws -> URL {
        let url = try Self.clip(name)
        let wrote = try Subprocess.run("exiftool", ["-q", "-overwrite_original", "-Keys:GPSCoordinates=37.7749, -122.4194, 10", url.path])
        #expect(wrote.status == 0, "\(wrote.stderr)")
        var bytes = [UInt8](try Data(contentsOf: url))
        try damage(&bytes)
        try Data(bytes).write(to: url)
        return url
    }

    static func refused(_ result: RunResult, _ out: URL) throws {
        #expect(result.status == 1, "\(result.stdout)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(result.stderr.contains("a location is still kept") || result.stderr.contains("location"), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.deletingLastPathComponent().path).isEmpty,
                "nothing written, no partial file left")
    }

    @Test("an Apple location key the editor cannot recognise (a flipped bit) or read (a lying count) is refused, nothing written",
          arguments: ["flipped", "lying-count"])
    func unreadableKeys(_ damage: String) throws {
        let url = try Self.appleKeys("keys-\(damage)") { bytes in
            let name = Array("com.apple.quicktime.location.ISO6709".utf8)
            let at = try #require((0...(bytes.count - name.count)).first { bytes[$0..<($0 + name.count)].elementsEqual(name) })
            if damage == "flipped" {
                bytes[at + 21] ^= 0x01  // "location" becomes "lncation"
            } else {
                // The keys box's entry count (after its type and version/flags) says 0.
                let keys = try #require((0...(at)).reversed().first { bytes[$0..<($0 + 4)].elementsEqual("keys".utf8) })
                bytes.replaceSubrange((keys + 8)..<(keys + 12), with: Self.bigEndian(0))
            }
        }
        #expect(try Subprocess.run("strings", [url.path]).stdout.contains("+37.7749-122.4194"))
        let (result, out) = try Self.export(url, name: "keys-\(damage)")
        try Self.refused(result, out)
    }

    @Test("a JPEG whose GPS sits in a second EXIF segment loses that segment; the first, with the camera, stays")
    func secondExifSegment() throws {
        let plain = Self.folder.appendingPathComponent("plain.jpg")
        let gps = Self.folder.appendingPathComponent("gps.jpg")
        for url in [plain, gps] {
            #expect(try Subprocess.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=64x64", "-frames:v", "1",
                                                  url.path]).status == 0)
        }
        #expect(try Subprocess.run("exiftool", ["-q", "-overwrite_original", "-Make=Camera", plain.path]).status == 0)
        #expect(try Subprocess.run("exiftool", ["-q", "-overwrite_original", "-GPSLatitude=37.7749", "-GPSLatitudeRef=N",
                                                "-GPSLongitude=122.4194", "-GPSLongitudeRef=W", gps.path]).status == 0)
        /// The first APP1 (EXIF) segment of a JPEG and where it ends.
        func firstAPP1(_ b: [UInt8]) throws -> Range<Int> {
            var offset = 2
            while offset + 4 <= b.count, b[offset] == 0xFF {
                let length = Int(b[offset + 2]) << 8 | Int(b[offset + 3])
                if b[offset + 1] == 0xE1 { return offset..<(offset + 2 + length) }
                offset += 2 + length
            }
            throw SubprocessError.failed("fixture", "no APP1")
        }
        var bytes = [UInt8](try Data(contentsOf: plain))
        let source = [UInt8](try Data(contentsOf: gps))
        let second = Array(source[try firstAPP1(source)])
        bytes.insert(contentsOf: second, at: try firstAPP1(bytes).upperBound)
        let input = Self.folder.appendingPathComponent("second-exif.jpg")
        try Data(bytes).write(to: input)
        #expect(!(try Self.locationTags(input)).isEmpty, "exiftool reads the second segment: the check below could fail")
        let (result, out) = try Self.export(input, name: "second-exif")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Self.locationTags(out) == [])
        #expect(try Subprocess.run("exiftool", ["-s3", "-Make", out.path]).stdout.contains("Camera"))
    }

    @Test("a WebP with XMP-only GPS (which exiv2 leaves) loses its XMP chunk; the picture stays")
    func webpXMP() throws {
        let input = Self.folder.appendingPathComponent("xmp.webp")
        #expect(try Subprocess.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=64x64", "-frames:v", "1",
                                              input.path]).status == 0)
        let wrote = try Subprocess.run("exiftool", ["-q", "-overwrite_original", "-XMP-exif:GPSLatitude=37.7749",
                                                    "-XMP-exif:GPSLongitude=-122.4194", input.path])
        #expect(wrote.status == 0, "\(wrote.stderr)")
        #expect(!(try Self.locationTags(input)).isEmpty)
        let (result, out) = try Self.export(input, name: "webp-xmp")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Self.locationTags(out) == [])
        #expect(try Subprocess.run("ffmpeg", ["-v", "error", "-i", out.path, "-f", "null", "-"]).stderr.isEmpty)
        let framesIn = try Subprocess.run("ffmpeg", ["-v", "error", "-i", input.path, "-f", "framemd5", "-"]).stdout
        let framesOut = try Subprocess.run("ffmpeg", ["-v", "error", "-i", out.path, "-f", "framemd5", "-"]).stdout
        #expect(framesIn == framesOut, "the same picture")
    }

    @Test("a Samsung motion photo, whose EXIF item starts with JPEG's Exif marker after a zero offset, is read and exported")
    func samsungExifItem() throws {
        let photo = TestPaths.media.appendingPathComponent("images/motionphoto_sample_MP.heic")
        let info = try viewfinder("info", photo.path)
        #expect(info.stdout.contains("taken       2020:10:21 12:26:18"), "\(info.stdout)")
        let (result, out) = try Self.export(photo, name: "motion-photo")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Data(contentsOf: out) == Data(contentsOf: photo), "no GPS in it: nothing changes")
    }

    // MARK: - Boxes, for planting

    struct Box { let type: String; let start: Int; let end: Int }

    static func children(_ b: [UInt8], _ start: Int, _ end: Int) -> [Box] {
        var boxes: [Box] = []
        var offset = start
        while offset + 8 <= end {
            let size = Int(b[offset]) << 24 | Int(b[offset + 1]) << 16 | Int(b[offset + 2]) << 8 | Int(b[offset + 3])
            guard size >= 8, offset + size <= end else { break }
            boxes.append(Box(type: String(decoding: b[(offset + 4)..<(offset + 8)], as: UTF8.self), start: offset, end: offset + size))
            offset += size
        }
        return boxes
    }

    static func topLevel(_ b: [UInt8]) -> [Box] { children(b, 0, b.count) }
}
