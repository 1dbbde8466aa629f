import Foundation
import Testing
@testable import ViewfinderCore

/// The read-back check of exports without location, on hand-built bytes.
@Suite("Location scanner")
struct LocationScannerTests {
    /// A little-endian TIFF block whose IFD0 points at a GPS IFD with `gpsEntries` entries
    /// (tag 1, latitude ref, onwards), IFD0 declaring `declaredCount` entries.
    static func tiff(gpsEntries: Int, declaredCount: Int = 1) -> [UInt8] {
        func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func le32(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24 & 0xFF)] }
        var b: [UInt8] = Array("II".utf8) + [0x2A, 0] + le32(8)
        // IFD0 at 8: one entry, GPSInfo (0x8825, LONG) pointing at 26; next IFD 0.
        b += le16(declaredCount) + le16(0x8825) + le16(4) + le32(1) + le32(26) + le32(0)
        b += le16(gpsEntries)
        for i in 0..<gpsEntries { b += le16(i + 1) + le16(2) + le32(2) + [0x4E, 0, 0, 0] }
        return b + le32(0)
    }

    /// A JPEG holding `segment` as an APP1 EXIF segment.
    static func jpeg(exif tiff: [UInt8]) -> [UInt8] {
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        let length = payload.count + 2
        return [0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload + [0xFF, 0xDA, 0, 2, 0xFF, 0xD9]
    }

    @Test("EXIF GPS is found; an emptied GPS directory (what HEIF stripping leaves) is not a location")
    func exifGPS() {
        #expect(LocationScanner.findings(in: Self.jpeg(exif: Self.tiff(gpsEntries: 2))).map(\.what) == ["EXIF GPS"])
        #expect(LocationScanner.findings(in: Self.jpeg(exif: Self.tiff(gpsEntries: 0))).isEmpty)
    }

    @Test("counts are not trusted: an IFD claiming 60000 entries is read as far as its bytes go")
    func lyingCount() {
        let found = LocationScanner.findings(in: Self.jpeg(exif: Self.tiff(gpsEntries: 1, declaredCount: 60000)))
        #expect(found.map(\.what) == ["EXIF GPS"])
    }

    @Test("a second EXIF segment is read as well as the first")
    func secondSegment() {
        var bytes = Self.jpeg(exif: Self.tiff(gpsEntries: 0))
        let second = Self.jpeg(exif: Self.tiff(gpsEntries: 3))
        bytes.insert(contentsOf: second[2..<(second.count - 6)], at: bytes.count - 6)
        #expect(LocationScanner.findings(in: bytes).map(\.place) == ["JPEG APP1 #2"])
    }

    @Test("ISO 6709 strings are found; dates, times and stray signed numbers are not taken for them",
          arguments: [("+37.7749-122.4194+010.000/", true), ("-33.8688+151.2093/", true), ("+3746-12225/", true),
                      ("2024-03-12T10:00:00+01:00", false), ("+12-345", false), ("version -2.1+3", false),
                      ("+48.8584+002.2945", true)])
    func iso6709(_ text: String, _ isPosition: Bool) {
        #expect((LocationScanner.iso6709(in: Array(("xx" + text + "yy").utf8)[...]) != nil) == isPosition, "\(text)")
    }

    @Test("XMP GPS and place names are found in a movie's user data; the movie's other boxes are not read as places")
    func movieXMP() {
        func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
            let size = 8 + payload.count
            return [UInt8(size >> 24 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)]
                + Array(type.utf8) + payload
        }
        let xmp = Array("<x:xmpmeta><photoshop:City>Paris</photoshop:City></x:xmpmeta>".utf8)
        let clean = box("ftyp", Array("isom".utf8)) + box("moov", box("mvhd", [UInt8](repeating: 0, count: 100)))
        #expect(LocationScanner.findings(in: clean).isEmpty)
        let tagged = box("ftyp", Array("isom".utf8)) + box("moov", box("udta", box("XMP_", xmp)))
        #expect(LocationScanner.findings(in: tagged).map(\.description) == ["XMP photoshop:City in moov/udta/XMP_"])
        // The media data of a movie is pictures and sound, never read.
        let inSamples = box("ftyp", Array("isom".utf8)) + box("mdat", Array("+37.7749-122.4194/".utf8))
        #expect(LocationScanner.findings(in: inSamples).isEmpty)
    }
}
