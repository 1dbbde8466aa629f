import Foundation

/// H.264's decoder configuration record (the `avcC` of MP4, MOV and Matroska) and the NAL-unit
/// reading a smart cut needs: which packets start at an IDR picture, which parameter-set ids a
/// stream uses, and how an encoder's Annex B output becomes the track's length-prefixed form.
///
/// A smart cut puts pictures of two encoders into one track. Both name their parameter sets by
/// id; the re-encoded pictures use ids the source does not (x264's `sps-id`), and the one sample
/// description lists the source's parameter sets and the encoder's side by side, so every
/// decoder that reads the sample description (all of them) knows both before the first picture.
package struct AVCConfiguration: Equatable {
    var profile: UInt8
    var compatibility: UInt8
    var level: UInt8
    /// Bytes of each NAL unit's length prefix (1, 2 or 4).
    var lengthSize: Int
    var sequenceParameterSets: [[UInt8]]
    var pictureParameterSets: [[UInt8]]
    /// What follows the lists (the High-profile chroma and bit-depth fields), kept as it is.
    var trailer: [UInt8]

    /// Parses an `avcC` record; nil when `bytes` is not one (Annex B extradata, damage).
    init?(record bytes: [UInt8]) {
        guard bytes.count >= 7, bytes[0] == 1 else { return nil }
        profile = bytes[1]
        compatibility = bytes[2]
        level = bytes[3]
        lengthSize = Int(bytes[4] & 3) + 1
        guard lengthSize != 3 else { return nil }
        var offset = 6
        guard let sps = Self.readList(bytes, &offset, count: Int(bytes[5] & 0x1F)), offset < bytes.count else { return nil }
        let ppsCount = Int(bytes[offset])
        offset += 1
        guard let pps = Self.readList(bytes, &offset, count: ppsCount) else { return nil }
        sequenceParameterSets = sps
        pictureParameterSets = pps
        trailer = Array(bytes[offset...])
    }

    private static func readList(_ bytes: [UInt8], _ offset: inout Int, count: Int) -> [[UInt8]]? {
        var found: [[UInt8]] = []
        for _ in 0..<count {
            guard offset + 2 <= bytes.count else { return nil }
            let size = Int(bytes[offset]) << 8 | Int(bytes[offset + 1])
            offset += 2
            guard size > 0, offset + size <= bytes.count else { return nil }
            found.append(Array(bytes[offset..<offset + size]))
            offset += size
        }
        return found
    }

    /// The record's bytes.
    var record: [UInt8] {
        var out: [UInt8] = [1, profile, compatibility, level, 0xFC | UInt8(lengthSize - 1)]
        out.append(0xE0 | UInt8(sequenceParameterSets.count))
        for sps in sequenceParameterSets { out += [UInt8(sps.count >> 8), UInt8(sps.count & 0xFF)] + sps }
        out.append(UInt8(pictureParameterSets.count))
        for pps in pictureParameterSets { out += [UInt8(pps.count >> 8), UInt8(pps.count & 0xFF)] + pps }
        return out + trailer
    }

    /// The ids of the sequence and picture parameter sets the record holds.
    var usedIDs: Set<Int> {
        Set(sequenceParameterSets.compactMap(Self.sequenceParameterSetID)
            + pictureParameterSets.compactMap(Self.pictureParameterSetID))
    }

    /// Adds parameter sets (from another encoder); false when the result would not fit the
    /// record (31 sequence, 255 picture parameter sets) or an id is taken by different bytes.
    mutating func add(sequence: [[UInt8]], picture: [[UInt8]]) -> Bool {
        for sps in sequence where !sequenceParameterSets.contains(sps) {
            guard let id = Self.sequenceParameterSetID(sps),
                  !sequenceParameterSets.contains(where: { Self.sequenceParameterSetID($0) == id }) else { return false }
            sequenceParameterSets.append(sps)
        }
        for pps in picture where !pictureParameterSets.contains(pps) {
            guard let id = Self.pictureParameterSetID(pps),
                  !pictureParameterSets.contains(where: { Self.pictureParameterSetID($0) == id }) else { return false }
            pictureParameterSets.append(pps)
        }
        return sequenceParameterSets.count <= 31 && pictureParameterSets.count <= 255
    }

    /// The sequence parameter set whose decoded picture buffer size and reorder depth pictures
    /// joined to this track's must claim too: the record's, when every one it lists reads and
    /// they agree; nil otherwise.
    var bufferModel: H264SequenceParameterSet? {
        let sets = sequenceParameterSets.compactMap(H264SequenceParameterSet.init(nal:))
        guard let first = sets.first, sets.count == sequenceParameterSets.count, first.decodedPictureBufferFrames != nil,
              sets.allSatisfy({ $0.decodedPictureBufferFrames == first.decodedPictureBufferFrames
                                && $0.reorderFrames == first.reorderFrames
                                && $0.widthInMacroblocks == first.widthInMacroblocks
                                && $0.heightInMacroblocks == first.heightInMacroblocks }) else { return nil }
        return first
    }

    /// An encoder's parameter sets with each SPS rewritten to claim this track's decoded picture
    /// buffer size and reorder depth (see `H264SequenceParameterSet`), so that a decoder
    /// switching between them at an IDR outputs every picture still waiting. Where that cannot
    /// be done for every SPS, the units as they are.
    func matchingBuffer(_ units: [[UInt8]]) -> [[UInt8]] {
        guard let model = bufferModel else { return units }
        var out: [[UInt8]] = []
        for unit in units {
            guard unit.first.map({ $0 & 0x1F == 7 }) == true else {
                out.append(unit)
                continue
            }
            guard let rewritten = H264SequenceParameterSet(nal: unit)?.matchingBuffer(of: model) else { return units }
            out.append(rewritten)
        }
        return out
    }

    /// The id of a sequence parameter set NAL unit (header byte included).
    static func sequenceParameterSetID(_ nal: [UInt8]) -> Int? {
        var reader = BitReader(rbsp: nal.dropFirst())
        guard reader.skip(24) else { return nil }  // profile_idc, constraint flags, level_idc
        return reader.unsignedExpGolomb()
    }

    /// The id of a picture parameter set NAL unit (header byte included).
    static func pictureParameterSetID(_ nal: [UInt8]) -> Int? {
        var reader = BitReader(rbsp: nal.dropFirst())
        return reader.unsignedExpGolomb()
    }

    // MARK: - NAL units in packets

    /// The NAL units of a length-prefixed packet; nil when the lengths do not add up.
    static func units(ofPacket bytes: UnsafeBufferPointer<UInt8>, lengthSize: Int) -> [Range<Int>]? {
        var found: [Range<Int>] = []
        var offset = 0
        while offset < bytes.count {
            guard offset + lengthSize <= bytes.count else { return nil }
            var size = 0
            for i in 0..<lengthSize { size = size << 8 | Int(bytes[offset + i]) }
            offset += lengthSize
            guard size > 0, offset + size <= bytes.count else { return nil }
            found.append(offset..<offset + size)
            offset += size
        }
        return found
    }

    /// Whether a length-prefixed packet holds an IDR slice (NAL type 5): the only pictures after
    /// which nothing refers back, and whose picture order count starts afresh, so a copy can
    /// begin there whatever was decoded before.
    static func startsAtIDR(_ bytes: UnsafeBufferPointer<UInt8>, lengthSize: Int) -> Bool {
        guard let units = units(ofPacket: bytes, lengthSize: lengthSize) else { return false }
        return units.contains { bytes[$0.lowerBound] & 0x1F == 5 }
    }

    /// Splits Annex B bytes (start codes) into NAL units.
    static func annexBUnits(_ bytes: UnsafeBufferPointer<UInt8>) -> [[UInt8]] {
        var starts: [(code: Int, payload: Int)] = []
        var i = 0
        while i + 2 < bytes.count {
            if bytes[i] == 0, bytes[i + 1] == 0, bytes[i + 2] == 1 {
                starts.append((i > 0 && bytes[i - 1] == 0 ? i - 1 : i, i + 3))
                i += 3
            } else {
                i += 1
            }
        }
        return starts.enumerated().compactMap { n, start in
            var end = n + 1 < starts.count ? starts[n + 1].code : bytes.count
            while end > start.payload, bytes[end - 1] == 0 { end -= 1 }
            return end > start.payload ? Array(bytes[start.payload..<end]) : nil
        }
    }

    /// An encoder's Annex B packet as this track's samples are written: length-prefixed, without
    /// parameter sets (the sample description holds them) or access unit delimiters. Nil when a
    /// unit is too long for the prefix.
    func sample(fromAnnexB bytes: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        Self.lengthPrefixed(Self.annexBUnits(bytes).filter { ![7, 8, 9].contains($0[0] & 0x1F) }, lengthSize: lengthSize)
    }

    /// NAL units written one after another, each behind its length in `lengthSize` bytes (the
    /// form of MP4, MOV and Matroska samples, H.264's and HEVC's alike); nil when a unit is too
    /// long for the prefix.
    static func lengthPrefixed(_ units: [[UInt8]], lengthSize: Int) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(units.reduce(0) { $0 + $1.count + lengthSize })
        for unit in units {
            guard lengthSize == 4 || unit.count < 1 << (8 * lengthSize) else { return nil }
            for shift in stride(from: 8 * (lengthSize - 1), through: 0, by: -8) {
                out.append(UInt8((unit.count >> shift) & 0xFF))
            }
            out += unit
        }
        return out
    }
}

/// Reads bits from a NAL unit's payload, dropping emulation-prevention bytes.
struct BitReader {
    /// The payload without its emulation-prevention bytes (the RBSP).
    private(set) var bytes: [UInt8] = []
    /// The next bit's index into `bytes`.
    private(set) var position = 0

    /// Reads the first `limit` bytes of `source` (the ids a header starts with need no more).
    init<S: Sequence>(rbsp source: S, limit: Int = 64) where S.Element == UInt8 {
        var zeros = 0
        for byte in source.prefix(limit) {
            if zeros >= 2 && byte == 3 { zeros = 0; continue }
            bytes.append(byte)
            zeros = byte == 0 ? zeros + 1 : 0
        }
    }

    mutating func bit() -> Int? {
        guard position < bytes.count * 8 else { return nil }
        defer { position += 1 }
        return Int(bytes[position >> 3] >> (7 - UInt8(position & 7))) & 1
    }

    mutating func skip(_ count: Int) -> Bool {
        position += count
        return position <= bytes.count * 8
    }

    /// `count` bits (at most 32) as an unsigned number.
    mutating func bits(_ count: Int) -> Int? {
        var value = 0
        for _ in 0..<count {
            guard let b = bit() else { return nil }
            value = value << 1 | b
        }
        return value
    }

    mutating func flag() -> Bool? {
        bit().map { $0 == 1 }
    }

    /// se(v): 0, 1, -1, 2, -2, ...
    mutating func signedExpGolomb() -> Int? {
        guard let code = unsignedExpGolomb() else { return nil }
        return code % 2 == 1 ? (code + 1) / 2 : -(code / 2)
    }

    mutating func unsignedExpGolomb() -> Int? {
        var zeros = 0
        while true {
            guard let b = bit() else { return nil }
            if b == 1 { break }
            zeros += 1
            if zeros > 31 { return nil }
        }
        var value = 0
        for _ in 0..<zeros {
            guard let b = bit() else { return nil }
            value = value << 1 | b
        }
        return (1 << zeros) - 1 + value
    }
}
