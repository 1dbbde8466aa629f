import Foundation

/// A box of an MP4 or QuickTime file held in memory: its type and where its payload lies in
/// the bytes it was read from. The reading and writing of boxes the movie editors share
/// (`MovieLocationEditor`, `SampleDescriptionEditor`).
struct MP4Box {
    /// The four-letter type (`©` read as `@`).
    let type: String
    /// Where the box's header starts.
    let start: Int
    /// Where its payload lies.
    let payload: Range<Int>
    var end: Int { payload.upperBound }

    /// The declared size of the box whose header starts at `offset` in `bytes`, and the
    /// header's length, when that size fits in the `remaining` bytes from there (a size of 0
    /// means all of them).
    static func header(_ bytes: [UInt8], at offset: Int, remaining: UInt64) -> (size: UInt64, length: Int)? {
        guard offset + 8 <= bytes.count else { return nil }
        var size = UInt64(uint32(bytes, offset))
        var length = 8
        if size == 1 {
            guard offset + 16 <= bytes.count else { return nil }
            size = UInt64(uint32(bytes, offset + 8)) << 32 | UInt64(uint32(bytes, offset + 12))
            length = 16
        } else if size == 0 {
            size = remaining
        }
        guard size >= UInt64(length), size <= remaining else { return nil }
        return (size, length)
    }

    /// The box at `offset` when its declared size fits before `end`.
    static func box(in bytes: [UInt8], at offset: Int, end: Int) -> MP4Box? {
        guard offset + 8 <= end, let (size, header) = header(bytes, at: offset, remaining: UInt64(end - offset)) else { return nil }
        let type = String(decoding: bytes[offset + 4 ..< offset + 8].map { $0 == 0xA9 ? UInt8(ascii: "@") : $0 }, as: UTF8.self)
        return MP4Box(type: type, start: offset, payload: offset + header ..< offset + Int(size))
    }

    /// The boxes one after another in `range` (stopping at the first that does not fit).
    static func children(of bytes: [UInt8], in range: Range<Int>) -> [MP4Box] {
        var result: [MP4Box] = []
        var offset = range.lowerBound
        while let child = box(in: bytes, at: offset, end: range.upperBound) {
            result.append(child)
            offset = child.end
        }
        return result
    }

    static func uint32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        bytes[offset ..< offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }

    static func uint64(_ bytes: [UInt8], _ offset: Int) -> UInt64 {
        bytes[offset ..< offset + 8].reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// `value` as four big-endian bytes.
    static func bigEndian(_ value: Int) -> [UInt8] {
        [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    /// `value` as eight big-endian bytes.
    static func bigEndian64(_ value: UInt64) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * UInt64($0))) }
    }

    /// A box of `type` around `payload` (a 32-bit size: movie boxes are far smaller).
    static func make(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        bigEndian(8 + payload.count) + Array(type.utf8.prefix(4)) + payload
    }

    /// A `free` box of exactly `size` bytes (at least 8), its payload zero.
    static func freeBox(size: Int) -> [UInt8] {
        bigEndian(size) + Array("free".utf8) + [UInt8](repeating: 0, count: size - 8)
    }
}

/// A top-level box of a file on disk: where it starts, its declared size, its header's length
/// and the file's first 24 bytes from there.
struct MP4TopLevelBox {
    let offset: UInt64
    let size: UInt64
    let headerLength: Int
    let head: [UInt8]

    func isType(_ type: String) -> Bool { head[4 ..< 8].elementsEqual(type.utf8) }

    /// Walks the file's top-level boxes, stopping at the end, at a size that does not fit, or
    /// when `body` says so (returns true).
    static func walk(_ handle: FileHandle, _ body: (MP4TopLevelBox) throws -> Bool) throws {
        let length = try handle.seekToEnd()
        var offset: UInt64 = 0
        while offset + 8 <= length {
            try handle.seek(toOffset: offset)
            let head = [UInt8](try handle.read(upToCount: 24) ?? Data())
            guard let (size, headerLength) = MP4Box.header(head, at: 0, remaining: length - offset) else { return }
            if try body(MP4TopLevelBox(offset: offset, size: size, headerLength: headerLength, head: head)) { return }
            offset += size
        }
    }
}
