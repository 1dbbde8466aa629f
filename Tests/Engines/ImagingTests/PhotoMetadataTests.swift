import Foundation
import Testing
import ViewfinderCore
import ViewfinderTestSupport

@testable import Imaging

/// Photo metadata read with exiv2, checked against exiftool (an independent reader) on the
/// corpus's photos.
@Suite("Photo metadata")
struct PhotoMetadataTests {
    static let photos = (TestPaths.mediaFiles(in: "images") + TestPaths.mediaFiles(in: "exif_orientation"))
        .filter { ["jpg", "jpeg", "heic", "webp", "png"].contains($0.pathExtension.lowercased()) && !$0.lastPathComponent.hasPrefix("huge") }

    /// exiftool's values: the signed composite GPS position and the EXIF tags.
    static func exiftool(_ url: URL) throws -> [String: Any] {
        let tags = ["-Composite:GPSLatitude", "-Composite:GPSLongitude", "-Composite:GPSAltitude", "-EXIF:Make", "-EXIF:Model",
                    "-EXIF:LensModel", "-EXIF:ExposureTime", "-EXIF:FNumber", "-EXIF:ISO", "-EXIF:FocalLength", "-EXIF:Flash",
                    "-EXIF:DateTimeOriginal", "-EXIF:OffsetTimeOriginal", "-EXIF:Software"]
        let result = try Subprocess.run("exiftool", ["-n", "-j"] + tags + [url.path])
        guard result.status == 0, let array = try JSONSerialization.jsonObject(with: result.stdoutData) as? [[String: Any]],
              let first = array.first else { throw SubprocessError.failed("exiftool", result.stderr) }
        return first
    }

    static func number(_ value: Any?) -> Double? { (value as? NSNumber)?.doubleValue }

    /// A text tag: exiftool prints numeric-looking text ("6.0") as a number.
    static func same(_ ours: String?, _ theirs: Any?) -> Bool {
        switch theirs {
        case nil: return ours == nil
        case let text as String: return ours == text.trimmingCharacters(in: .whitespaces)
        case let value as NSNumber: return ours.flatMap(Double.init) == value.doubleValue
        default: return false
        }
    }

    @Test("every corpus photo: location, camera, lens, exposure, date and software as exiftool reads them", arguments: photos)
    func matchesExiftool(_ url: URL) throws {
        let ours = try PhotoMetadata.read(url), theirs = try Self.exiftool(url)
        let name = url.lastPathComponent
        if name == "motionphoto_sample_MP.heic" {
            // exiftool 12.57 walks this file's Exif item (it starts with a zero offset, then
            // "Exif\0\0") but prints none of its tags; the item holds only the two dates.
            #expect(ours.captureDate == "2020:10:21 12:26:18" && ours.make == nil && ours.location == nil)
            return
        }
        if let latitude = Self.number(theirs["GPSLatitude"]), let longitude = Self.number(theirs["GPSLongitude"]) {
            let location = try #require(ours.location, "\(name): no location, exiftool has one")
            #expect(abs(location.latitude - latitude) < 1e-6 && abs(location.longitude - longitude) < 1e-6, "\(name)")
            if let altitude = Self.number(theirs["GPSAltitude"]) {
                #expect(abs((location.altitude ?? .nan) - altitude) < 0.01, "\(name): altitude \(String(describing: location.altitude)) vs \(altitude)")
            }
        } else {
            #expect(ours.location == nil, "\(name): a location exiftool does not see")
        }
        #expect(Self.same(ours.make, theirs["Make"]), "\(name) make")
        #expect(Self.same(ours.model, theirs["Model"]), "\(name) model")
        #expect(Self.same(ours.lens, theirs["LensModel"]), "\(name) lens")
        #expect(Self.same(ours.software, theirs["Software"]), "\(name) software")
        #expect(Self.same(ours.captureDate, theirs["DateTimeOriginal"]), "\(name) date")
        #expect(Self.same(ours.captureZone, theirs["OffsetTimeOriginal"]), "\(name) zone")
        if let exposure = Self.number(theirs["ExposureTime"]) {
            #expect(abs((ours.exposureTime?.seconds ?? .nan) - exposure) < 1e-9, "\(name) exposure")
        } else {
            #expect(ours.exposureTime == nil, "\(name) exposure")
        }
        #expect(ours.fNumber.map { abs($0 - (Self.number(theirs["FNumber"]) ?? .nan)) < 1e-6 } ?? (theirs["FNumber"] == nil), "\(name) f-number")
        #expect(ours.iso.map(Double.init) == Self.number(theirs["ISO"]), "\(name) ISO")
        #expect(ours.focalLength.map { abs($0 - (Self.number(theirs["FocalLength"]) ?? .nan)) < 1e-6 } ?? (theirs["FocalLength"] == nil), "\(name) focal length")
        #expect(ours.flash.map(Double.init) == Self.number(theirs["Flash"]), "\(name) flash")
    }

    @Test("the corpus has the metadata these checks need")
    func corpusHasMetadata() throws {
        let read = try Self.photos.map(PhotoMetadata.read)
        #expect(read.filter { $0.location != nil }.count >= 4)
        #expect(read.contains { $0.lens != nil && $0.captureZone != nil })
    }

    /// The bytes from the image's first start-of-scan marker on (the coded pixels), found by
    /// walking the top-level segments (an EXIF thumbnail inside APP1 has a scan of its own).
    static func scanData(_ url: URL) throws -> Data {
        let data = [UInt8](try Data(contentsOf: url))
        var at = 2
        while at + 4 <= data.count, data[at] == 0xFF {
            if data[at + 1] == 0xDA { return Data(data[at...]) }
            at += 2 + Int(data[at + 2]) << 8 + Int(data[at + 3])
        }
        Issue.record("no scan in \(url.lastPathComponent)")
        return Data()
    }

    @Test("removing the location leaves no GPS or place tag, every other tag as it was, the JPEG's pixels byte for byte")
    func removeLocation() throws {
        let original = TestPaths.media.appendingPathComponent("images/exif_orient3_iphone5.jpg")
        let copy = TestPaths.scratchFolder("strip").appendingPathComponent("copy.jpg")
        try FileManager.default.copyItem(at: original, to: copy)
        try PhotoMetadata.removeLocation(from: copy)
        func tags(_ url: URL) throws -> [String: String] {
            let result = try Subprocess.run("exiftool", ["-a", "-G1", "-s", "-j", "--System:all", "--File:all", "--Composite:all", url.path])
            let object = try #require((try JSONSerialization.jsonObject(with: result.stdoutData) as? [[String: Any]])?.first)
            return object.filter { $0.key != "SourceFile" }.mapValues { "\($0)" }
        }
        let before = try tags(original), after = try tags(copy)
        #expect(before.keys.contains { $0.hasPrefix("GPS:") })
        #expect(!after.keys.contains { $0.hasPrefix("GPS:") || $0.lowercased().contains("gps") }, "\(after.keys.filter { $0.lowercased().contains("gps") })")
        // Everything but the location stays; the EXIF thumbnail only moves (its offset).
        for (key, value) in before where !key.hasPrefix("GPS:") && key != "IFD0:GPSInfo" && key != "IFD1:ThumbnailOffset" {
            #expect(after[key] == value, "\(key): \(value) → \(after[key] ?? "gone")")
        }
        #expect(try Self.scanData(copy) == Self.scanData(original))
        #expect(try PhotoMetadata.read(copy).location == nil)
        #expect(try PhotoMetadata.read(copy).model == "iPhone 5")
    }

    @Test("a file exiv2 cannot read is a one-line error, not a crash")
    func unreadable() throws {
        let text = TestPaths.scratchFolder("meta-bad").appendingPathComponent("x.jpg")
        try Data("not a photo".utf8).write(to: text)
        #expect(throws: ImagingError.self) { try PhotoMetadata.read(text) }
    }

    /// The read runs on a thread of its own and is waited for a minute from when it starts: a
    /// `.timeLimit` also counted the time the test waited for one of the pool's two threads in a
    /// full parallel run (it once waited 14 minutes there and failed, though the read takes ms).
    @Test("a HEIF whose first box size is damaged: an answer at once (exiv2's QuickTime reader spun on it forever)",
          arguments: ["iphoneXR_orient6.heic", "samsung_s10_orient6.heic"])
    func damagedHEIF(_ name: String) throws {
        var bytes = [UInt8](try Data(contentsOf: TestPaths.media.appendingPathComponent("images/" + name)))
        bytes[0] = 0x45
        let url = TestPaths.scratchFolder("meta-heif").appendingPathComponent(name)
        try Data(bytes).write(to: url)
        let answered = DispatchSemaphore(value: 0)
        let metadata = Locked<CaptureMetadata??>(nil)
        Thread {
            metadata.withLock { $0 = .some(try? PhotoMetadata.read(url)) }
            answered.signal()
        }.start()
        try #require(answered.wait(timeout: .now() + 60) == .success, "no answer within a minute")
        let read = metadata.withLock { $0 } ?? nil
        #expect(read?.location == nil && read?.make == nil)
    }

    @Test("a JPEG's EXIF after 550 KB of ICC segments, with the scan cut short, is read from the header alone")
    func exifAfterICC() throws {
        // The CMYK file's nine ICC segments, put before the iPhone photo's EXIF; its scan cut to 16 bytes.
        let cmyk = [UInt8](try Data(contentsOf: TestPaths.media.appendingPathComponent("images/cmyk_multiple_icc_segments.jpg")))
        var icc: [UInt8] = []
        var at = 2
        while at + 4 <= cmyk.count, cmyk[at] == 0xFF, cmyk[at + 1] != 0xDA {
            let end = at + 2 + Int(cmyk[at + 2]) << 8 + Int(cmyk[at + 3])
            if cmyk[at + 1] == 0xE2 { icc += cmyk[at ..< end] }
            at = end
        }
        #expect(icc.count > 550_000)
        let source = TestPaths.media.appendingPathComponent("images/exif_orient3_iphone5.jpg")
        let whole = [UInt8](try Data(contentsOf: source)), scan = [UInt8](try Self.scanData(source))
        let photo = TestPaths.scratchFolder("meta-icc").appendingPathComponent("icc.jpg")
        try Data([0xFF, 0xD8] + icc + whole[2 ..< whole.count - scan.count] + scan.prefix(16)).write(to: photo)
        let ours = try PhotoMetadata.read(photo), theirs = try Self.exiftool(source)
        #expect(ours == (try PhotoMetadata.read(source)))
        #expect(Self.same(ours.model, theirs["Model"]) && ours.model == "iPhone 5")
        #expect(abs((ours.location?.latitude ?? 0) - (Self.number(theirs["GPSLatitude"]) ?? .nan)) < 1e-6)
    }
}
