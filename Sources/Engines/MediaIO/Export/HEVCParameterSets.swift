import Foundation

/// HEVC's decoder configuration record (the `hvcC` of MP4, MOV and Matroska) and the NAL-unit
/// reading a smart cut of HEVC needs.
///
/// x265 cannot give its parameter sets ids of their own (H.264's way, see `AVCConfiguration`),
/// so a smart cut of HEVC keeps both encoders' parameter sets in the pictures themselves: the
/// track is tagged `hev1` (parameter sets may come in band), every IDR of a re-encoded stretch
/// carries x265's VPS, SPS and PPS, and every IDR of a copied stretch is given the source's
/// again in front of its unchanged slices. An IDR starts a new coded video sequence, the one
/// place where a parameter set of the same id may change, so every decoder — and every seek,
/// which lands on an IDR — finds the sets its pictures were coded with.
struct HEVCConfiguration: Equatable {
    /// Bytes of each NAL unit's length prefix (1, 2 or 4).
    var lengthSize: Int
    /// general_profile_idc (1 Main, 2 Main 10).
    var profile: Int
    /// general_level_idc (30 × the level).
    var level: Int
    /// The record's VPS, SPS and PPS NAL units, in that order.
    var parameterSets: [[UInt8]]

    static let vps: UInt8 = 32, sps: UInt8 = 33, pps: UInt8 = 34, delimiter: UInt8 = 35

    /// Parses an `hvcC` record; nil when `bytes` is not one.
    init?(record bytes: [UInt8]) {
        guard bytes.count >= 23, bytes[0] == 1 else { return nil }
        profile = Int(bytes[1] & 0x1F)
        level = Int(bytes[12])
        lengthSize = Int(bytes[21] & 3) + 1
        guard lengthSize != 3 else { return nil }
        var offset = 23
        var found: [UInt8: [[UInt8]]] = [:]
        for _ in 0..<Int(bytes[22]) {
            guard offset + 3 <= bytes.count else { return nil }
            let type = bytes[offset] & 0x3F
            let count = Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2])
            offset += 3
            for _ in 0..<count {
                guard offset + 2 <= bytes.count else { return nil }
                let size = Int(bytes[offset]) << 8 | Int(bytes[offset + 1])
                offset += 2
                guard size > 0, offset + size <= bytes.count else { return nil }
                found[type, default: []].append(Array(bytes[offset..<offset + size]))
                offset += size
            }
        }
        parameterSets = [Self.vps, Self.sps, Self.pps].flatMap { found[$0] ?? [] }
        guard [Self.vps, Self.sps, Self.pps].allSatisfy({ found[$0]?.isEmpty == false }) else { return nil }
    }

    /// A NAL unit's type (the header's six bits after the forbidden bit).
    static func type(_ firstByte: UInt8) -> UInt8 { (firstByte >> 1) & 0x3F }

    /// The picture kind of a length-prefixed packet, by its first slice's NAL unit type. (A
    /// CRA's leading pictures refer back, so a copy starts at a CRA only as described at
    /// `copiedSample`.)
    static func pictureKind(_ bytes: UnsafeBufferPointer<UInt8>, lengthSize: Int) -> SmartTrack.PictureKind {
        AVCConfiguration.units(ofPacket: bytes, lengthSize: lengthSize).map { pictureKind(of: $0, in: bytes) } ?? .other
    }

    /// The picture kind of the NAL units `units` of `bytes`.
    private static func pictureKind(of units: [Range<Int>], in bytes: UnsafeBufferPointer<UInt8>) -> SmartTrack.PictureKind {
        guard let slice = units.map({ type(bytes[$0.lowerBound]) }).first(where: { $0 < 32 }) else { return .other }
        switch slice {
        case 19, 20: return .idr
        case 16...18, 21: return .cleanRandomAccess
        case 6...9: return .leading
        default: return .other
        }
    }

    /// `units` length-prefixed for this track; nil when a unit is too long for the prefix.
    func prefixed(_ units: [[UInt8]]) -> [UInt8]? {
        AVCConfiguration.lengthPrefixed(units, lengthSize: lengthSize)
    }

    /// An encoder's Annex B packet as this track's samples are written: length-prefixed, its
    /// parameter sets kept in band, access unit delimiters dropped.
    func sample(fromAnnexB bytes: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        prefixed(AVCConfiguration.annexBUnits(bytes).filter { Self.type($0[0]) != Self.delimiter })
    }

    /// A copied packet as it is written: unchanged, except that a random access point (IDR or
    /// CRA) gets the source's parameter sets in front of it, and a CRA that starts a copied
    /// stretch becomes a BLA_W_LP (nil when the packet needs no change).
    ///
    /// A CRA after other pictures does not start a coded video sequence: its leading pictures
    /// would be decoded against the re-encoded head, and its parameter sets may not change
    /// there. A BLA does start one (its RASL pictures are skipped, and the copy leaves them out
    /// anyway); its slice header is the CRA's, bit for bit, so only the NAL unit type changes.
    /// (An end-of-sequence unit before the CRA would do as much, but a CRA after one discards
    /// the pictures still waiting to be shown, NoOutputOfPriorPicsFlag, and decoders that show
    /// pictures late would lose the head's last frame.)
    func copiedSample(_ bytes: UnsafeBufferPointer<UInt8>, startsStretch: Bool) -> [UInt8]? {
        guard let units = AVCConfiguration.units(ofPacket: bytes, lengthSize: lengthSize) else { return nil }
        let kind = Self.pictureKind(of: units, in: bytes)
        guard kind == .idr || kind == .cleanRandomAccess, let sets = prefixed(parameterSets) else { return nil }
        var packet = Array(bytes)
        if kind == .cleanRandomAccess && startsStretch {
            for unit in units where Self.type(packet[unit.lowerBound]) == 21 {
                packet[unit.lowerBound] = (packet[unit.lowerBound] & 0x81) | (16 << 1)
            }
        }
        return sets + packet
    }
}
