import Foundation

/// HEVC's decoder configuration record (the `hvcC` of MP4, MOV and Matroska) and the NAL-unit
/// reading a smart cut of HEVC needs.
///
/// x265 cannot give its parameter sets ids of their own (H.264's way, see `AVCConfiguration`),
/// so a smart cut of HEVC gives each family of parameter sets a sample description of its own:
/// the source's `hvcC` for the copied samples, one built from x265's sets for the re-encoded
/// ones, every sample pointing at its family's (`SampleDescriptionEditor`). The samples carry
/// no parameter sets, so the track is `hvc1` — the form Apple's players accept — with every
/// array complete. Each switch comes at an IDR or a BLA, which start a coded video sequence:
/// the one place where a parameter set of the same id may change. (A source whose samples
/// carry sets of their own, unlike its `hvcC`'s, keeps them: the track is then `hev1` with
/// its arrays marked incomplete.)
package struct HEVCConfiguration: Equatable {
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

    /// An encoder's Annex B packet as this track's samples are written: length-prefixed,
    /// without access unit delimiters or parameter sets, which are handed back beside it
    /// (an IDR's VPS, SPS and PPS, for the stretch's sample description).
    func sample(fromAnnexB bytes: UnsafeBufferPointer<UInt8>) -> (sample: [UInt8], parameterSets: [[UInt8]])? {
        let units = AVCConfiguration.annexBUnits(bytes).filter { Self.type($0[0]) != Self.delimiter }
        guard let sample = prefixed(units.filter { !Self.isParameterSet($0) }) else { return nil }
        return (sample, units.filter(Self.isParameterSet))
    }

    /// A copied packet as it is written: without the parameter sets the source's `hvcC` holds
    /// too (the sample description gives them), and a CRA that starts a copied stretch made a
    /// BLA_W_LP; nil when the packet needs no change.
    ///
    /// A CRA after other pictures does not start a coded video sequence: its leading pictures
    /// would be decoded against the re-encoded head, and its parameter sets may not change
    /// there. A BLA does start one (its RASL pictures are skipped, and the copy leaves them out
    /// anyway); its slice header is the CRA's, bit for bit, so only the NAL unit type changes.
    /// (An end-of-sequence unit before the CRA would do as much, but a CRA after one discards
    /// the pictures still waiting to be shown, NoOutputOfPriorPicsFlag, and decoders that show
    /// pictures late would lose the head's last frame.)
    func copiedSample(_ bytes: UnsafeBufferPointer<UInt8>, startsStretch: Bool) -> [UInt8]? {
        guard let ranges = AVCConfiguration.units(ofPacket: bytes, lengthSize: lengthSize) else { return nil }
        let kind = Self.pictureKind(of: ranges, in: bytes)
        var units = ranges.map { Array(bytes[$0]) }
        let kept = units.filter { !(Self.isParameterSet($0) && parameterSets.contains($0)) }
        let rewrites = kind == .cleanRandomAccess && startsStretch
        guard kept.count != units.count || rewrites else { return nil }
        units = kept
        if rewrites {
            for i in units.indices where Self.type(units[i][0]) == 21 { units[i][0] = (units[i][0] & 0x81) | (16 << 1) }
        }
        return prefixed(units)
    }

    /// Whether a copied packet carries parameter sets the source's `hvcC` does not hold (a
    /// `hev1` source whose sets change in band): they then stay in the samples.
    func carriesOwnParameterSets(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let ranges = AVCConfiguration.units(ofPacket: bytes, lengthSize: lengthSize) else { return false }
        return ranges.contains { range in
            let unit = Array(bytes[range])
            return Self.isParameterSet(unit) && !parameterSets.contains(unit)
        }
    }
}

// MARK: - Sample descriptions of their own

extension HEVCConfiguration {
    /// Whether a NAL unit is a parameter set (VPS, SPS, PPS).
    static func isParameterSet(_ unit: [UInt8]) -> Bool {
        unit.first.map { [vps, sps, pps].contains(type($0)) } ?? false
    }

    /// An `hvcC` record (ISO/IEC 14496-15, 8.3.3) holding `units` — a VPS, an SPS and a PPS as
    /// an encoder wrote them — its header read from the SPS as FFmpeg's writer reads it:
    /// profile, tier, compatibility and constraint flags and level; chroma format and bit
    /// depths; the temporal layers. The spatial segmentation and parallelism are left unknown
    /// (0), the frame rate unspecified. `complete` sets `array_completeness`: true for `hvc1`,
    /// whose samples carry no parameter sets. Nil when the SPS cannot be read.
    static func record(_ units: [[UInt8]], lengthSize: Int, complete: Bool) -> [UInt8]? {
        guard let sps = units.first(where: { $0.first.map(type) == Self.sps }), sps.count > 3,
              [1, 2, 4].contains(lengthSize) else { return nil }
        var r = BitReader(rbsp: sps.dropFirst(2), limit: sps.count)
        guard r.bits(4) != nil, let subLayersMinus1 = r.bits(3), let nesting = r.bits(1) else { return nil }
        // The general profile, tier and level: 12 bytes of the RBSP, byte-aligned after the first.
        let general = r.position / 8 ..< r.position / 8 + 12
        guard r.bytes.count >= general.upperBound, r.skip(96) else { return nil }
        var present: [(profile: Bool, level: Bool)] = []
        for _ in 0..<subLayersMinus1 {
            guard let profile = r.flag(), let level = r.flag() else { return nil }
            present.append((profile, level))
        }
        if subLayersMinus1 > 0 { guard r.skip(2 * (8 - subLayersMinus1)) else { return nil } }
        for layer in present {
            guard r.skip((layer.profile ? 88 : 0) + (layer.level ? 8 : 0)) else { return nil }
        }
        guard r.unsignedExpGolomb() != nil, let chroma = r.unsignedExpGolomb(), chroma <= 3 else { return nil }
        if chroma == 3 { guard r.skip(1) else { return nil } }
        guard r.unsignedExpGolomb() != nil, r.unsignedExpGolomb() != nil, let window = r.flag() else { return nil }
        if window { for _ in 0..<4 { guard r.unsignedExpGolomb() != nil else { return nil } } }
        guard let lumaMinus8 = r.unsignedExpGolomb(), let chromaMinus8 = r.unsignedExpGolomb(),
              lumaMinus8 <= 7, chromaMinus8 <= 7 else { return nil }

        var record: [UInt8] = [1]
        record += r.bytes[general]
        record += [0xF0, 0x00,                                    // reserved, min_spatial_segmentation_idc 0
                   0xFC,                                          // reserved, parallelismType 0 (unknown)
                   0xFC | UInt8(chroma),
                   0xF8 | UInt8(lumaMinus8),
                   0xF8 | UInt8(chromaMinus8),
                   0x00, 0x00,                                    // avgFrameRate unspecified
                   // constantFrameRate 0, numTemporalLayers, temporalIdNested, lengthSizeMinusOne
                   UInt8(((subLayersMinus1 + 1) & 7) << 3 | (nesting & 1) << 2 | (lengthSize - 1))]
        let arrays = [Self.vps, Self.sps, Self.pps].map { kind in units.filter { $0.first.map(type) == kind } }.filter { !$0.isEmpty }
        record.append(UInt8(arrays.count))
        for array in arrays {
            guard let kind = array.first?.first.map(type), array.allSatisfy({ $0.count <= 0xFFFF }) else { return nil }
            record += [(complete ? 0x80 : 0) | kind, UInt8(array.count >> 8), UInt8(array.count & 0xFF)]
            for unit in array { record += [UInt8(unit.count >> 8), UInt8(unit.count & 0xFF)] + unit }
        }
        return record
    }

    /// `record` (an `hvcC`) with every array's `array_completeness` set to `complete`; nil when
    /// it is not one.
    static func marking(_ record: [UInt8], complete: Bool) -> [UInt8]? {
        guard record.count >= 23, record[0] == 1 else { return nil }
        var out = record
        var offset = 23
        for _ in 0..<Int(record[22]) {
            guard offset + 3 <= out.count else { return nil }
            out[offset] = (out[offset] & 0x7F) | (complete ? 0x80 : 0)
            let count = Int(out[offset + 1]) << 8 | Int(out[offset + 2])
            offset += 3
            for _ in 0..<count {
                guard offset + 2 <= out.count else { return nil }
                offset += 2 + (Int(out[offset]) << 8 | Int(out[offset + 1]))
            }
        }
        return offset <= out.count ? out : nil
    }
}
