import Foundation

/// The blocks of a GIF file, read straight from its bytes: an oracle for what decoders are
/// free to interpret (delays, loop count, transparency), independent of FFmpeg.
struct GIFFileStructure {
    /// One image block with the graphic control extension before it.
    struct Frame {
        /// Delay after this frame, in hundredths of a second.
        var delay: Int
        /// The transparent palette index, nil when the frame has none.
        var transparentIndex: Int?
        /// The rectangle the frame covers (left, top, width, height).
        var rect: (x: Int, y: Int, width: Int, height: Int)
    }

    let width: Int
    let height: Int
    /// Entries in the global colour table, nil when there is none.
    let globalPaletteSize: Int?
    /// The NETSCAPE2.0 loop count (0 = forever), nil when the file does not loop.
    private(set) var loopCount: Int?
    private(set) var frames: [Frame] = []

    /// Reads `data`; nil when it is not a well-formed GIF up to its trailer.
    init?(_ data: Data) {
        let b = [UInt8](data)
        func u16(_ i: Int) -> Int { Int(b[i]) | Int(b[i + 1]) << 8 }
        guard b.count >= 14, b[0..<6].elementsEqual(Array("GIF89a".utf8)) || b[0..<6].elementsEqual(Array("GIF87a".utf8)) else { return nil }
        width = u16(6)
        height = u16(8)
        var pos = 13
        if b[10] & 0x80 != 0 {
            globalPaletteSize = 1 << (Int(b[10] & 7) + 1)
            pos += 3 * (globalPaletteSize ?? 0)
        } else {
            globalPaletteSize = nil
        }
        /// The sub-blocks starting at `pos`, which ends after the terminator; nil past the end.
        func subBlocks() -> [[UInt8]]? {
            var blocks: [[UInt8]] = []
            while pos < b.count {
                let size = Int(b[pos])
                pos += 1
                if size == 0 { return blocks }
                guard pos + size <= b.count else { return nil }
                blocks.append(Array(b[pos..<(pos + size)]))
                pos += size
            }
            return nil
        }
        var pending: (delay: Int, transparent: Int?) = (0, nil)
        while pos < b.count {
            switch b[pos] {
            case 0x21:
                guard pos + 1 < b.count else { return nil }
                let label = b[pos + 1]
                pos += 2
                guard let blocks = subBlocks() else { return nil }
                if label == 0xF9, let gce = blocks.first, gce.count == 4 {
                    pending = (Int(gce[1]) | Int(gce[2]) << 8, gce[0] & 1 != 0 ? Int(gce[3]) : nil)
                } else if label == 0xFF, blocks.count >= 2, blocks[0] == Array("NETSCAPE2.0".utf8), blocks[1].count == 3, blocks[1][0] == 1 {
                    loopCount = Int(blocks[1][1]) | Int(blocks[1][2]) << 8
                }
            case 0x2C:
                guard pos + 10 < b.count else { return nil }
                let rect = (u16(pos + 1), u16(pos + 3), u16(pos + 5), u16(pos + 7))
                let packed = b[pos + 9]
                pos += 10 + (packed & 0x80 != 0 ? 3 * (1 << (Int(packed & 7) + 1)) : 0)
                pos += 1  // LZW minimum code size
                guard subBlocks() != nil else { return nil }
                frames.append(Frame(delay: pending.delay, transparentIndex: pending.transparent, rect: rect))
                pending = (0, nil)
            case 0x3B:
                return
            default:
                return nil
            }
        }
        return nil
    }
}
