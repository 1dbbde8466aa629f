import Foundation
import ViewfinderCore

/// Tells a Live Photo's still or a Motion Photo from an ordinary photo, from the file's
/// metadata only (no pixels decoded).
public enum LivePhotoProbe {
    /// What the photo at `url` is in a Live Photo or Motion Photo; nil for an ordinary photo.
    /// A still's content identifier lives in Apple's MakerNote (tag 0x0011) of its EXIF.
    public static func role(ofPhoto url: URL) -> LivePhotoRole? {
        if let layout = motionPhotoLayout(url) { return .motionPhoto(layout) }
        if let exif = try? PhotoMetadata.exifBlock(url), let id = appleContentIdentifier(exif: [UInt8](exif)) {
            return .appleStill(contentIdentifier: id)
        }
        return nil
    }

    /// The Motion Photo layout the file's XMP declares, checked against the bytes: the video
    /// must start with an MP4 `ftyp` box where the XMP says.
    static func motionPhotoLayout(_ url: URL) -> MotionPhotoLayout? {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
        defer { try? handle.close() }
        guard let size = try? handle.seekToEnd(), size > 16 else { return nil }
        try? handle.seek(toOffset: 0)
        // The XMP lies in the first APP1 segments of a JPEG and early in a HEIF's meta box.
        guard let head = try? handle.read(upToCount: 256 * 1024),
              let start = head.range(of: Data("<x:xmpmeta".utf8)),
              let end = head.range(of: Data("</x:xmpmeta>".utf8), in: start.upperBound..<head.endIndex) else { return nil }
        let xmp = String(decoding: head[start.lowerBound..<end.upperBound], as: UTF8.self)
        guard let layout = MotionPhotoLayout(xmp: xmp, fileSize: Int64(size)) else { return nil }
        guard (try? handle.seek(toOffset: UInt64(layout.offset))) != nil,
              let box = try? handle.read(upToCount: 8), box.count == 8, box.suffix(4) == Data("ftyp".utf8) else { return nil }
        return layout
    }

    /// Apple's MakerNote ("Apple iOS") tag 0x0011, the content identifier a Live Photo's still
    /// shares with its movie; nil when the EXIF holds no such note.
    static func appleContentIdentifier(exif: [UInt8]) -> String? {
        let tiff = exif.starts(with: Array("Exif\0\0".utf8)) ? 6 : 0
        var reader = TIFFReader(bytes: exif)
        guard reader.readByteOrder(at: tiff), let ifd0 = reader.u32(tiff + 4),
              let exifIFD = reader.entry(0x8769, inIFDAt: tiff + Int(ifd0)).flatMap({ reader.u32($0.valueAt) }),
              let note = reader.entry(0x927C, inIFDAt: tiff + Int(exifIFD)) else { return nil }
        let start = tiff + Int(reader.u32(note.valueAt) ?? 0)
        let header = Array("Apple iOS\0".utf8)
        guard start >= 0, start + 16 <= exif.count, Array(exif[start..<start + header.count]) == header else { return nil }
        // The note's own IFD: after the header, a version and its byte order; its offsets count
        // from the start of the note.
        var apple = TIFFReader(bytes: exif)
        guard apple.readByteOrder(at: start + 12), let id = apple.entry(0x0011, inIFDAt: start + 14), id.type == 2 else { return nil }
        let count = Int(id.count)
        let at = count <= 4 ? id.valueAt : start + Int(apple.u32(id.valueAt) ?? 0)
        guard count > 1, at >= 0, at + count <= exif.count else { return nil }
        let text = String(decoding: exif[at..<at + count].prefix { $0 != 0 }, as: UTF8.self)
        return text.isEmpty ? nil : text
    }
}

/// Reads TIFF structures (IFD entries) in either byte order, at absolute offsets, with
/// bounds checked.
private struct TIFFReader {
    let bytes: [UInt8]
    var bigEndian = true

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    mutating func readByteOrder(at offset: Int) -> Bool {
        guard offset >= 0, offset + 2 <= bytes.count else { return false }
        switch (bytes[offset], bytes[offset + 1]) {
        case (0x4D, 0x4D): bigEndian = true
        case (0x49, 0x49): bigEndian = false
        default: return false
        }
        return true
    }

    func u16(_ offset: Int) -> UInt16? {
        guard offset >= 0, offset + 2 <= bytes.count else { return nil }
        let (a, b) = (UInt16(bytes[offset]), UInt16(bytes[offset + 1]))
        return bigEndian ? a << 8 | b : b << 8 | a
    }

    func u32(_ offset: Int) -> UInt32? {
        guard let high = u16(bigEndian ? offset : offset + 2), let low = u16(bigEndian ? offset + 2 : offset) else { return nil }
        return UInt32(high) << 16 | UInt32(low)
    }

    /// The entry for `tag` in the IFD at `offset` (absolute): its type, count and where its
    /// value (or the offset to it) lies.
    func entry(_ tag: UInt16, inIFDAt offset: Int) -> (type: UInt16, count: UInt32, valueAt: Int)? {
        guard let count = u16(offset), count < 1000 else { return nil }
        for i in 0..<Int(count) {
            let at = offset + 2 + i * 12
            guard let found = u16(at), let type = u16(at + 2), let n = u32(at + 4) else { return nil }
            if found == tag { return (type, n, at + 8) }
        }
        return nil
    }
}
