import ViewfinderCore
import Foundation

/// Removes location atoms from an MP4/QuickTime movie box held in memory, keeping every box's
/// size: what is taken out becomes a `free` box of the same length, so the movie box keeps its
/// size and every sample offset into the media data stays right (the samples are not touched).
///
/// It knows the places phones and editors write a position: the user-data `©xyz` string
/// (Android, FFmpeg), 3GPP's user-data `loci`, the `mdta` keys of a `meta` box
/// (`com.apple.quicktime.location.ISO6709` and its siblings, iPhones), and XMP (`XMP_` and
/// XMP `uuid` boxes) holding GPS properties or place names.
struct MovieLocationEditor {
    private(set) var bytes: [UInt8]
    private let isLocationKey: (String) -> Bool
    /// How many location items were taken out.
    private(set) var removed = 0

    /// `movie` is the whole `moov` box, its header included.
    init(movie: [UInt8], isLocationKey: @escaping (String) -> Bool) {
        bytes = movie
        self.isLocationKey = isLocationKey
    }

    /// Edits the movie box; returns how many location items it removed.
    mutating func removeLocation() -> Int {
        guard let movie = MP4Box.box(in: bytes, at: 0, end: bytes.count) else { return 0 }
        container(movie.payload, parent: "moov")
        return removed
    }

    // MARK: - Editing

    private mutating func container(_ range: Range<Int>, parent: String) {
        for child in MP4Box.children(of: bytes, in: range) {
            switch child.type {
            case "trak", "udta":
                container(child.payload, parent: child.type)
            case "meta":
                meta(child)
            case "@xyz", "loci":
                if parent == "udta" { blank(child) }
            case "XMP_":
                // XMP with a position or a place goes whole (cameras and editors write it).
                if LocationScanner.holdsLocation(bytes[child.payload]) { blank(child) }
            case "uuid":
                let payload = child.payload
                if payload.count >= 16, bytes[payload.lowerBound ..< payload.lowerBound + 16].elementsEqual(LocationScanner.xmpUUID),
                   LocationScanner.holdsLocation(bytes[payload]) {
                    blank(child)
                }
            default:
                break
            }
        }
    }

    /// Turns a box into a `free` box of the same size with nothing in it.
    private mutating func blank(_ box: MP4Box) {
        let size = box.end - box.start
        bytes.replaceSubrange(box.start ..< box.end, with: MP4Box.freeBox(size: size))
        removed += 1
    }

    /// A `meta` box: QuickTime's (its children follow the header) or ISO's (a version and flags
    /// first), with `keys` and `ilst` (the `mdta` keys) or an `ilst` of four-letter items.
    private mutating func meta(_ box: MP4Box) {
        var start = box.payload.lowerBound
        if start + 12 <= box.end, String(decoding: bytes[start + 4 ..< start + 8], as: UTF8.self) != "hdlr" {
            start += 4
        }
        let children = MP4Box.children(of: bytes, in: start ..< box.end)
        guard let list = children.first(where: { $0.type == "ilst" }) else { return }
        guard let keys = children.first(where: { $0.type == "keys" }) else {
            for item in MP4Box.children(of: bytes, in: list.payload) where item.type == "@xyz" { blank(item) }
            return
        }
        guard let (keptKeys, renumber) = keptKeys(keys) else { return }
        let dropped = renumber.filter { $0 == nil }.count
        guard dropped > 0 else { return }
        var keptItems: [UInt8] = []
        for item in MP4Box.children(of: bytes, in: list.payload) {
            let index = Int(MP4Box.uint32(bytes, item.start + 4))
            if index >= 1, index <= renumber.count {
                guard let newIndex = renumber[index - 1] else { continue }
                keptItems += MP4Box.bigEndian(item.end - item.start)
                keptItems += MP4Box.bigEndian(newIndex)
                keptItems += bytes[item.start + 8 ..< item.end]
            } else {
                keptItems += bytes[item.start ..< item.end]
            }
        }
        let newKeys = MP4Box.bigEndian(8 + keptKeys.count) + Array("keys".utf8) + keptKeys
        let newList = MP4Box.bigEndian(8 + keptItems.count) + Array("ilst".utf8) + keptItems
        // Both boxes shrink; the bytes they free stay in the meta box as one free box after them.
        let first = min(keys.start, list.start), last = max(keys.end, list.end)
        var middle: [UInt8] = []
        for child in children where child.start >= first && child.end <= last {
            middle += child.type == "keys" ? newKeys : child.type == "ilst" ? newList : Array(bytes[child.start ..< child.end])
        }
        let saved = (last - first) - middle.count
        guard saved >= 8 else { return }
        middle += MP4Box.freeBox(size: saved)
        bytes.replaceSubrange(first ..< last, with: middle)
        removed += dropped
    }

    /// The `keys` payload without its location keys, and each old key's new 1-based index
    /// (nil for a removed one); nil when the box cannot be read.
    private func keptKeys(_ keys: MP4Box) -> ([UInt8], [Int?])? {
        let payload = keys.payload
        guard payload.count >= 8 else { return nil }
        let count = Int(MP4Box.uint32(bytes, payload.lowerBound + 4))
        var offset = payload.lowerBound + 8
        var kept: [UInt8] = []
        var renumber: [Int?] = []
        var next = 1
        for _ in 0..<count {
            guard offset + 8 <= payload.upperBound else { return nil }
            let size = Int(MP4Box.uint32(bytes, offset))
            guard size >= 8, size <= payload.upperBound - offset else { return nil }
            let name = String(decoding: bytes[offset + 8 ..< offset + size], as: UTF8.self)
            if isLocationKey(name) {
                renumber.append(nil)
            } else {
                renumber.append(next)
                next += 1
                kept += bytes[offset ..< offset + size]
            }
            offset += size
        }
        let header = Array(bytes[payload.lowerBound ..< payload.lowerBound + 4]) + MP4Box.bigEndian(next - 1)
        return (header + kept + bytes[offset ..< payload.upperBound], renumber)
    }
}
