import Foundation
import ViewfinderCore

extension PhotoMetadata {
    /// What exiv2 does not reach, taken out whole: a JPEG's further APP1 segments (a second
    /// EXIF block, XMP) that still hold a position or a place after the main ones were cleaned,
    /// and a WebP's XMP chunk that does (this exiv2 leaves WebP XMP as it was). Other bytes stay.
    static func dropLeftoverLocation(in url: URL) throws(ImagingError) {
        let original: [UInt8]
        do { original = [UInt8](try Data(contentsOf: url)) } catch {
            throw .decodeFailed(path: url.path, detail: tr("cannot read it back: {reason}", ["reason": error.localizedDescription]))
        }
        var bytes = original
        if bytes.starts(with: [0xFF, 0xD8]) {
            dropJPEGSegments(&bytes)
        } else if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), bytes[8..<12].elementsEqual("WEBP".utf8) {
            dropWebPXMP(&bytes)
        }
        guard bytes != original else { return }
        do { try Data(bytes).write(to: url) } catch {
            throw .decodeFailed(path: url.path, detail: tr("cannot rewrite it: {reason}", ["reason": error.localizedDescription]))
        }
    }

    /// Removes APP1 segments after the first EXIF one that hold a location.
    private static func dropJPEGSegments(_ b: inout [UInt8]) {
        var offset = 2
        var seenExif = false
        while offset + 4 <= b.count, b[offset] == 0xFF {
            let marker = b[offset + 1]
            if marker == 0xDA || marker == 0xD9 { return }
            let length = Int(b[offset + 2]) << 8 | Int(b[offset + 3])
            guard length >= 2, offset + 2 + length <= b.count else { return }
            let end = offset + 2 + length
            if marker == 0xE1 {
                let exif = b[(offset + 4)..<end].starts(with: Array("Exif".utf8) + [0, 0])
                if (!exif || seenExif), LocationScanner.holdsLocation(b[(offset + 4)..<end]) {
                    b.removeSubrange(offset..<end)
                    continue
                }
                seenExif = seenExif || exif
            }
            offset = end
        }
    }

    /// Removes an XMP chunk that holds a location, and says so in the VP8X header.
    private static func dropWebPXMP(_ b: inout [UInt8]) {
        func le32(_ at: Int) -> Int { Int(b[at]) | Int(b[at + 1]) << 8 | Int(b[at + 2]) << 16 | Int(b[at + 3]) << 24 }
        var offset = 12
        var removed = false
        while offset + 8 <= b.count {
            let type = String(decoding: b[offset..<(offset + 4)], as: UTF8.self)
            let length = le32(offset + 4)
            let end = min(b.count, offset + 8 + length + (length & 1))
            if type == "XMP ", LocationScanner.holdsLocation(b[(offset + 8)..<min(b.count, offset + 8 + length)]) {
                b.removeSubrange(offset..<end)
                removed = true
                continue
            }
            offset = end
        }
        guard removed else { return }
        // VP8X's flags: bit 2 says there is XMP.
        if b.count >= 21, b[12..<16].elementsEqual("VP8X".utf8) { b[20] &= ~0x04 }
        let size = b.count - 8
        b.replaceSubrange(4..<8, with: [UInt8(size & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 24 & 0xFF)])
    }
}
