import Foundation

/// Finds a location anywhere a photo or a video can keep one, reading the bytes itself rather
/// than through the libraries that removed it, and trusting no count or size it reads:
///
/// - EXIF (TIFF) blocks — JPEG's APP1 segments (every one, not only the first), PNG's `eXIf`,
///   WebP's `EXIF`, HEIF's Exif items — with a GPS directory that holds anything;
/// - XMP (JPEG, PNG's `iTXt`, WebP's `XMP `, HEIF items, a video's `XMP_` and `uuid` boxes)
///   with GPS properties or place names;
/// - IPTC place names (JPEG's APP13);
/// - a movie's `©xyz` and `loci` boxes at any level and `keys` that name a location;
/// - an ISO 6709 coordinate string ("+37.7749-122.4194/") anywhere in the metadata.
///
/// Everything but the coded pictures and sound is read: a JPEG's segments before its image
/// data, PNG and WebP chunks but their image data, every box of an MP4 or QuickTime movie
/// but `mdat` (a HEIF photo's `mdat` too: its metadata items live there).
public enum LocationScanner {
    /// A location found: where it is and what it is.
    public struct Finding: Sendable, Equatable, CustomStringConvertible {
        /// Where in the file: "JPEG APP1 #2", "moov/udta/XMP_", "WebP XMP chunk".
        public let place: String
        /// What was found: "EXIF GPS", "XMP exif:GPSLatitude", "ISO 6709 coordinates +37.77-122.41/".
        public let what: String

        public var description: String { tr("{what} in {place}", ["what": what, "place": place]) }
    }

    /// The largest region read into memory at once (a movie box, a photo).
    public static let maxRegion = 256 << 20

    /// Every location `url` still holds; empty when none is found.
    public static func findings(inFileAt url: URL) throws -> [Finding] {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        let head = [UInt8](try handle.read(upToCount: 12) ?? Data())
        let length = try handle.seekToEnd()
        if head.count >= 8, isBoxFile(head) {
            return try scanMovieFile(handle, length: length)
        }
        guard length <= UInt64(maxRegion) else {
            return [Finding(place: "file", what: trn("a file too large to check ({count} byte)", "a file too large to check ({count} bytes)", Int(clamping: length)))]
        }
        try handle.seek(toOffset: 0)
        return findings(in: [UInt8](try handle.readToEnd() ?? Data()))
    }

    /// Every location the bytes of a whole file hold.
    public static func findings(in bytes: [UInt8]) -> [Finding] {
        if bytes.starts(with: [0xFF, 0xD8]) { return scanJPEG(bytes) }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return scanPNG(bytes) }
        if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) {
            return scanWebP(bytes)
        }
        if bytes.count >= 8, isBoxFile(bytes) {
            let photo = bytes.count >= 16 && String(decoding: bytes[4..<8], as: UTF8.self) == "ftyp"
                && isPhotoBrand(bytes[8..<min(bytes.count, Int(be32(bytes, 0)))])
            return scanBoxes(bytes, in: 0..<bytes.count, path: "", photo: photo)
        }
        return metadata(bytes[...], place: "file")
    }

    // MARK: - Formats

    private static func scanJPEG(_ b: [UInt8]) -> [Finding] {
        var found: [Finding] = []
        var offset = 2
        var counts: [UInt8: Int] = [:]
        while offset + 4 <= b.count, b[offset] == 0xFF {
            let marker = b[offset + 1]
            if marker == 0xFF { offset += 1; continue }
            if marker == 0xD9 || marker == 0xDA { break }  // end, or the image data starts
            if (0xD0...0xD7).contains(marker) || marker == 0x01 { offset += 2; continue }
            let length = Int(b[offset + 2]) << 8 | Int(b[offset + 3])
            guard length >= 2 else { break }
            let end = min(b.count, offset + 2 + length)
            counts[marker, default: 0] += 1
            let place = "JPEG \(marker >= 0xE0 && marker <= 0xEF ? "APP\(marker - 0xE0)" : String(format: "marker %02X", marker)) #\(counts[marker] ?? 1)"
            found += metadata(b[(offset + 4)..<end], place: place)
            offset = end
        }
        return found
    }

    private static func scanPNG(_ b: [UInt8]) -> [Finding] {
        var found: [Finding] = []
        var offset = 8
        while offset + 8 <= b.count {
            let length = Int(be32(b, offset))
            let type = String(decoding: b[(offset + 4)..<(offset + 8)], as: UTF8.self)
            let end = min(b.count, offset + 8 + max(0, length))
            if type != "IDAT" && type != "fdAT" {
                if type == "zTXt" || (type == "iTXt" && isCompressedITXt(b[(offset + 8)..<end])) {
                    found.append(Finding(place: "PNG \(type)", what: tr("compressed text this check cannot read")))
                } else {
                    found += metadata(b[(offset + 8)..<end], place: "PNG \(type)")
                }
            }
            if type == "IEND" { break }
            offset = end + 4
        }
        return found
    }

    /// Whether an `iTXt` chunk's text is compressed (keyword, NUL, then the flag).
    private static func isCompressedITXt(_ chunk: ArraySlice<UInt8>) -> Bool {
        guard let nul = chunk.firstIndex(of: 0), nul + 1 < chunk.endIndex else { return false }
        return chunk[nul + 1] != 0
    }

    private static func scanWebP(_ b: [UInt8]) -> [Finding] {
        var found: [Finding] = []
        var offset = 12
        while offset + 8 <= b.count {
            let type = String(decoding: b[offset..<(offset + 4)], as: UTF8.self)
            let length = Int(le32(b, offset + 4))
            let end = min(b.count, offset + 8 + max(0, length))
            if !["VP8 ", "VP8L", "ALPH", "ANMF"].contains(type) {
                found += metadata(b[(offset + 8)..<end], place: "WebP \(type.trimmingCharacters(in: .whitespaces)) chunk")
            }
            offset = end + (length & 1)
        }
        return found
    }

    /// ISO base media files (MP4, QuickTime, HEIF) start with one of these boxes.
    private static func isBoxFile(_ head: [UInt8]) -> Bool {
        let type = String(decoding: head[4..<8], as: UTF8.self)
        return ["ftyp", "moov", "mdat", "free", "wide", "skip", "uuid", "pnot", "meta"].contains(type)
    }

    /// Whether an `ftyp` payload names a HEIF (or AVIF) still-image brand.
    private static func isPhotoBrand(_ payload: ArraySlice<UInt8>) -> Bool {
        let text = String(decoding: payload, as: UTF8.self)
        return ["mif1", "heic", "heix", "avif", "msf1", "heim", "heis"].contains { text.contains($0) }
    }

    /// A movie, read box by box from the file: `mdat` is skipped unless the file is a HEIF
    /// photo (its metadata items live there), so a video's pictures are never read.
    private static func scanMovieFile(_ handle: FileHandle, length: UInt64) throws -> [Finding] {
        var found: [Finding] = []
        var offset: UInt64 = 0
        var photo = false
        while offset + 8 <= length {
            try handle.seek(toOffset: offset)
            let header = [UInt8](try handle.read(upToCount: 16) ?? Data())
            guard header.count >= 8 else { break }
            var size = UInt64(be32(header, 0))
            var headerLength: UInt64 = 8
            if size == 1, header.count >= 16 {
                size = UInt64(be32(header, 8)) << 32 | UInt64(be32(header, 12))
                headerLength = 16
            } else if size == 0 {
                size = length - offset
            }
            let type = String(decoding: header[4..<8], as: UTF8.self)
            let end = size < headerLength ? length : min(length, offset + size)
            if type == "ftyp" {
                let brands = [UInt8](try handle.read(upToCount: Int(min(256, end - offset - 8))) ?? Data())
                photo = isPhotoBrand((header[8...] + brands)[...])
            }
            if type != "mdat" || photo {
                guard end - offset <= UInt64(maxRegion) else {
                    found.append(Finding(place: type, what: trn("a box too large to check ({count} byte)", "a box too large to check ({count} bytes)", Int(clamping: end - offset))))
                    break
                }
                try handle.seek(toOffset: offset)
                let bytes = [UInt8](try handle.read(upToCount: Int(end - offset)) ?? Data())
                found += scanBoxes(bytes, in: 0..<bytes.count, path: "", photo: photo)
            }
            guard end > offset else { break }
            offset = end
        }
        return found
    }

    /// Boxes that hold boxes (after `containerSkip` bytes of their own).
    private static let containers: Set<String> = [
        "moov", "trak", "mdia", "minf", "stbl", "udta", "edts", "dinf", "mvex", "moof", "traf", "ilst", "iprp",
        "ipco", "sinf", "schi", "tref", "meco", "mere", "----", "gmhd", "tapt",
    ]

    /// The boxes in `range` of `b` (a path such as "moov/udta/"), recursively, reading each
    /// leaf's payload as metadata.
    private static func scanBoxes(_ b: [UInt8], in range: Range<Int>, path: String, photo: Bool, depth: Int = 0) -> [Finding] {
        var found: [Finding] = []
        var offset = range.lowerBound
        while offset + 8 <= range.upperBound {
            var size = Int(be32(b, offset))
            var header = 8
            if size == 1, offset + 16 <= range.upperBound {
                let large = UInt64(be32(b, offset + 8)) << 32 | UInt64(be32(b, offset + 12))
                size = large > UInt64(range.upperBound - offset) ? range.upperBound - offset : Int(large)
                header = 16
            } else if size == 0 {
                size = range.upperBound - offset
            }
            // A size that does not fit (or is too small) is not trusted: the rest is read as one region.
            let fits = size >= header && offset + size <= range.upperBound
            let end = fits ? offset + size : range.upperBound
            let type = String(decoding: b[(offset + 4)..<(offset + 8)], as: Unicode.ASCII.self)
            let printable = b[(offset + 4)..<(offset + 8)].allSatisfy { (0x20...0x7E).contains($0) }
            // mdta items are numbered by their key; other unprintable types are shown as "?".
            let place = path + (printable ? type : path.hasSuffix("ilst/") ? "item \(be32(b, offset + 4))" : "?")
            let payload = min(end, offset + header)..<end
            if !fits {
                found += metadata(b[offset..<end], place: place + " (damaged)")
                break
            }
            if type == "\u{A9}xyz" || b[(offset + 4)..<(offset + 8)].elementsEqual([0xA9, 0x78, 0x79, 0x7A]) {
                if payload.count > 4 { found.append(Finding(place: place, what: tr("a ©xyz location"))) }
            } else if type == "loci" {
                found.append(Finding(place: place, what: tr("a 3GPP loci location")))
            } else if type == "keys" {
                let text = String(decoding: b[payload], as: UTF8.self).lowercased()
                if text.contains("location") || text.contains("iso6709") {
                    found.append(Finding(place: place, what: tr("a location key")))
                }
                found += metadata(b[payload], place: place)
            } else if type == "mdat" && !photo {
                // A movie's samples: not metadata.
            } else if depth < 16, containers.contains(type) {
                found += scanBoxes(b, in: payload, path: place + "/", photo: photo, depth: depth + 1)
            } else if depth < 16, type == "meta" {
                // ISO's meta has a version and flags before its boxes; QuickTime's does not.
                let iso = payload.count >= 12 && !isPlausibleBox(b, at: payload.lowerBound, end: payload.upperBound)
                let children = (iso ? payload.lowerBound + 4 : payload.lowerBound)..<payload.upperBound
                found += scanBoxes(b, in: children, path: place + "/", photo: photo, depth: depth + 1)
            } else {
                found += metadata(b[payload], place: place)
            }
            offset = end
        }
        return found
    }

    /// Whether a box header at `offset` looks real: a printable type and a size that fits.
    private static func isPlausibleBox(_ b: [UInt8], at offset: Int, end: Int) -> Bool {
        guard offset + 8 <= end else { return false }
        let size = Int(be32(b, offset))
        let printable = b[(offset + 4)..<(offset + 8)].allSatisfy { (0x20...0x7E).contains($0) || $0 == 0xA9 }
        return printable && size >= 8 && offset + size <= end
    }

    // MARK: - What a location looks like

    /// Locations in a region of metadata: EXIF blocks (found by their signature anywhere in it),
    /// XMP properties, IPTC place names and ISO 6709 strings.
    static func metadata(_ region: ArraySlice<UInt8>, place: String) -> [Finding] {
        var found: [Finding] = []
        for start in exifStarts(in: region) where exifHasGPS(region, tiff: start) {
            found.append(Finding(place: place, what: "EXIF GPS"))
        }
        let text = String(decoding: region, as: UTF8.self)
        for property in xmpLocationProperties where text.contains(property) {
            found.append(Finding(place: place, what: "XMP \(property)"))
        }
        found += iptcPlaces(region).map { Finding(place: place, what: "IPTC \($0)") }
        if let coordinates = iso6709(in: region) {
            found.append(Finding(place: place, what: tr("ISO 6709 coordinates {coordinates}", ["coordinates": coordinates])))
        }
        return found
    }

    /// Whether a piece of metadata (an XMP packet, a `uuid` box's payload) holds a location.
    public static func holdsLocation(_ bytes: ArraySlice<UInt8>) -> Bool {
        !metadata(bytes, place: "").isEmpty
    }

    /// The `uuid` box type of XMP in ISO files (Adobe's BE7ACFCB-97A9-42E8-9C71-999491E3AFAC).
    public static let xmpUUID: [UInt8] = [0xBE, 0x7A, 0xCF, 0xCB, 0x97, 0xA9, 0x42, 0xE8,
                                          0x9C, 0x71, 0x99, 0x94, 0x91, 0xE3, 0xAF, 0xAC]

    /// XMP properties that hold a position or a place.
    static let xmpLocationProperties = [
        "GPSLatitude", "GPSLongitude", "GPSDestLatitude", "GPSDestLongitude", "GPSCoordinates",
        "LocationShown", "LocationCreated", "photoshop:City", "photoshop:State", "photoshop:Country",
        "Iptc4xmpCore:Location", "Iptc4xmpCore:CountryCode",
    ]

    /// Where TIFF headers ("II*\0" or "MM\0*") begin in the region.
    private static func exifStarts(in region: ArraySlice<UInt8>) -> [Int] {
        var starts: [Int] = []
        var i = region.startIndex
        while i + 8 <= region.endIndex, starts.count < 64 {
            if (region[i] == 0x49 && region[i + 1] == 0x49 && region[i + 2] == 0x2A && region[i + 3] == 0)
                || (region[i] == 0x4D && region[i + 1] == 0x4D && region[i + 2] == 0 && region[i + 3] == 0x2A) {
                starts.append(i)
            }
            i += 1
        }
        return starts
    }

    /// Whether the TIFF block at `tiff` has a GPS directory with an entry other than its
    /// version: IFD0's GPS pointer (tag 0x8825) followed within the region's bounds.
    private static func exifHasGPS(_ r: ArraySlice<UInt8>, tiff: Int) -> Bool {
        let little = r[tiff] == 0x49
        func u16(_ at: Int) -> Int? { at + 2 <= r.endIndex && at >= tiff ? Int(little ? UInt16(r[at]) | UInt16(r[at + 1]) << 8 : UInt16(r[at]) << 8 | UInt16(r[at + 1])) : nil }
        func u32(_ at: Int) -> Int? {
            guard at + 4 <= r.endIndex, at >= tiff else { return nil }
            let bytes = (UInt32(r[at]), UInt32(r[at + 1]), UInt32(r[at + 2]), UInt32(r[at + 3]))
            return Int(little ? bytes.0 | bytes.1 << 8 | bytes.2 << 16 | bytes.3 << 24 : bytes.0 << 24 | bytes.1 << 16 | bytes.2 << 8 | bytes.3)
        }
        func entries(_ ifd: Int) -> [(tag: Int, at: Int)] {
            guard let count = u16(ifd) else { return [] }
            // The count is not trusted: only entries that lie inside the region are read.
            return (0..<min(count, 4096)).compactMap { i in
                let at = ifd + 2 + i * 12
                return at + 12 <= r.endIndex ? u16(at).map { ($0, at) } : nil
            }
        }
        guard let first = u32(tiff + 4) else { return false }
        var visited = Set<Int>()
        var ifd: Int? = tiff + first
        // IFD0 and the ones chained after it (a thumbnail's), at most a few.
        while let current = ifd, visited.count < 8, !visited.contains(current) {
            visited.insert(current)
            let list = entries(current)
            for (tag, at) in list where tag == 0x8825 {
                guard let pointer = u32(at + 8) else { continue }
                if entries(tiff + pointer).contains(where: { $0.tag != 0 }) { return true }
            }
            ifd = u32(current + 2 + list.count * 12).flatMap { $0 == 0 ? nil : tiff + $0 }
        }
        return false
    }

    /// IPTC-IIM place datasets (record 2: sub-location, city, province, country code and name)
    /// with a value.
    private static func iptcPlaces(_ r: ArraySlice<UInt8>) -> [String] {
        let names: [UInt8: String] = [90: "city", 92: "sub-location", 95: "province or state", 100: "country code", 101: "country"]
        var found: [String] = []
        var i = r.startIndex
        while i + 5 <= r.endIndex {
            if r[i] == 0x1C, r[i + 1] == 0x02, let name = names[r[i + 2]] {
                let length = Int(r[i + 3]) << 8 | Int(r[i + 4])
                if length > 0, length < 0x8000, i + 5 + length <= r.endIndex, !found.contains(name) { found.append(name) }
            }
            i += 1
        }
        return found
    }

    /// The first ISO 6709 position in the region: a signed latitude (2, 4 or 6 digits, optional
    /// decimals) directly followed by a signed longitude (3, 5 or 7 digits), with decimals or
    /// a closing "/" so that stray digits are not taken for one.
    static func iso6709(in r: ArraySlice<UInt8>) -> String? {
        func isSign(_ c: UInt8) -> Bool { c == 0x2B || c == 0x2D }
        func isDigit(_ c: UInt8) -> Bool { (0x30...0x39).contains(c) }
        /// A signed number at `i` with `integer` allowed digit counts: its end and whether it had decimals.
        func number(_ i: Int, integer: Set<Int>) -> (end: Int, decimals: Bool)? {
            guard i < r.endIndex, isSign(r[i]) else { return nil }
            var j = i + 1
            while j < r.endIndex, isDigit(r[j]) { j += 1 }
            guard integer.contains(j - i - 1) else { return nil }
            var decimals = false
            if j + 1 < r.endIndex, r[j] == 0x2E, isDigit(r[j + 1]) {
                j += 1
                while j < r.endIndex, isDigit(r[j]) { j += 1 }
                decimals = true
            }
            return (j, decimals)
        }
        var i = r.startIndex
        while i < r.endIndex {
            if isSign(r[i]), let latitude = number(i, integer: [2, 4, 6]),
               let longitude = number(latitude.end, integer: [3, 5, 7]) {
                let closed = longitude.end < r.endIndex && (r[longitude.end] == 0x2F || isSign(r[longitude.end]))
                if (latitude.decimals && longitude.decimals) || closed {
                    // With its altitude and closing "/" when it has them.
                    var end = longitude.end
                    if end < r.endIndex, isSign(r[end]) {
                        end += 1
                        while end < r.endIndex, isDigit(r[end]) || r[end] == 0x2E { end += 1 }
                    }
                    if end < r.endIndex, r[end] == 0x2F { end += 1 }
                    return String(decoding: r[i..<end], as: UTF8.self)
                }
            }
            i += 1
        }
        return nil
    }

    private static func be32(_ b: [UInt8], _ at: Int) -> UInt32 {
        guard at + 4 <= b.count else { return 0 }
        return UInt32(b[at]) << 24 | UInt32(b[at + 1]) << 16 | UInt32(b[at + 2]) << 8 | UInt32(b[at + 3])
    }

    private static func le32(_ b: [UInt8], _ at: Int) -> UInt32 {
        guard at + 4 <= b.count else { return 0 }
        return UInt32(b[at]) | UInt32(b[at + 1]) << 8 | UInt32(b[at + 2]) << 16 | UInt32(b[at + 3]) << 24
    }
}
