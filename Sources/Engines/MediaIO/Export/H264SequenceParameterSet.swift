import Foundation

/// An H.264 sequence parameter set read through its VUI, and rewritten with another decoded
/// picture buffer size and reorder depth.
///
/// Why: a smart cut joins pictures of the source's encoder and of our x264 (often fewer B-frames and
/// reference frames). Each IDR of the joined track activates one encoder's SPS, and where the
/// `max_dec_frame_buffering` of the SPS changes, H.264 (Annex C.4.4) lets a decoder infer
/// `no_output_of_prior_pics_flag` = 1 and drop the pictures still waiting to be shown —
/// openh264 does. So the re-encoded stretches' SPS is given the source's buffer size and reorder
/// depth (`matchingBuffer(of:)`).
///
/// Every field up to the VUI's `bitstream_restriction_flag` is parsed (scaling lists, picture
/// order count, cropping, colour, timing and HRD parameters) to find where the restriction
/// sits; a rewrite copies those bits as they are and writes the restriction and the trailing
/// bits anew, so nothing else can change. Anything unexpected gives nil.
struct H264SequenceParameterSet: Equatable {
    /// VUI `bitstream_restriction` fields.
    struct Restriction: Equatable {
        var motionVectorsOverPictureBoundaries = true
        var maxBytesPerPictureDenominator = 0
        var maxBitsPerMacroblockDenominator = 0
        var log2MaxMotionVectorLengthHorizontal = 15
        var log2MaxMotionVectorLengthVertical = 15
        var maxNumReorderFrames: Int
        var maxDecFrameBuffering: Int
    }

    /// The NAL unit header byte.
    let header: UInt8
    let profile: Int
    /// constraint_set0..5 flags and the two reserved bits.
    let constraints: Int
    let level: Int
    let id: Int
    let chromaFormat: Int
    let maxNumReferenceFrames: Int
    let widthInMacroblocks: Int
    /// FrameHeightInMbs: map units × 2 for field or MBAFF coding.
    let heightInMacroblocks: Int
    let hasVUI: Bool
    let restriction: Restriction?
    /// What a slice header's syntax depends on (`H264SliceHeader`).
    let separateColourPlane: Bool
    let frameNumBits: Int
    let pictureOrderCountType: Int
    /// log2_max_pic_order_cnt_lsb (type 0), 0 otherwise.
    let pictureOrderCountLSBBits: Int
    let deltaPictureOrderAlwaysZero: Bool
    let gapsInFrameNumAllowed: Bool
    let framesOnly: Bool

    /// The RBSP (emulation prevention removed).
    private let rbsp: [UInt8]
    /// Bit index of `vui_parameters_present_flag`.
    private let vuiFlagBit: Int
    /// Bit index of `bitstream_restriction_flag` (when there is a VUI).
    private let restrictionFlagBit: Int
    /// Where `max_num_ref_frames` lies.
    private let referenceFramesBits: Range<Int>

    /// Parses a sequence parameter set NAL unit (header byte included); nil when it is not one,
    /// is cut short, or holds more than the syntax says.
    init?(nal: [UInt8]) {
        guard (4...4096).contains(nal.count), nal[0] & 0x1F == 7, nal[0] & 0x80 == 0 else { return nil }
        var r = BitReader(rbsp: nal.dropFirst(), limit: 4096)
        header = nal[0]
        rbsp = r.bytes
        guard let profile = r.bits(8), let constraints = r.bits(8), let level = r.bits(8),
              let id = r.unsignedExpGolomb(), id < 32 else { return nil }
        self.profile = profile
        self.constraints = constraints
        self.level = level
        self.id = id
        var chromaFormat = 1
        var separatePlane = false
        if [100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135].contains(profile) {
            guard let format = r.unsignedExpGolomb(), format <= 3 else { return nil }
            chromaFormat = format
            if format == 3 {
                guard let separate = r.flag() else { return nil }
                separatePlane = separate
            }
            guard let luma = r.unsignedExpGolomb(), luma <= 6, let chroma = r.unsignedExpGolomb(), chroma <= 6,
                  r.flag() != nil, let matrices = r.flag() else { return nil }
            if matrices {
                for list in 0..<(format == 3 ? 12 : 8) {
                    guard let present = r.flag() else { return nil }
                    if present, !Self.skipScalingList(&r, size: list < 6 ? 16 : 64) { return nil }
                }
            }
        }
        self.chromaFormat = chromaFormat
        separateColourPlane = separatePlane
        guard let frameNumBits = r.unsignedExpGolomb(), frameNumBits <= 12,
              let pocType = r.unsignedExpGolomb(), pocType <= 2 else { return nil }
        self.frameNumBits = frameNumBits + 4
        pictureOrderCountType = pocType
        var lsbBits = 0, alwaysZero = false
        if pocType == 0 {
            guard let lsb = r.unsignedExpGolomb(), lsb <= 12 else { return nil }
            lsbBits = lsb + 4
        } else if pocType == 1 {
            guard let zero = r.flag(), r.signedExpGolomb() != nil, r.signedExpGolomb() != nil,
                  let cycle = r.unsignedExpGolomb(), cycle <= 255 else { return nil }
            alwaysZero = zero
            for _ in 0..<cycle { guard r.signedExpGolomb() != nil else { return nil } }
        }
        pictureOrderCountLSBBits = lsbBits
        deltaPictureOrderAlwaysZero = alwaysZero
        let referencesStart = r.position
        guard let references = r.unsignedExpGolomb(), references <= 16 else { return nil }
        referenceFramesBits = referencesStart..<r.position
        guard let gaps = r.flag(),
              let width = r.unsignedExpGolomb(), width < 1024, let height = r.unsignedExpGolomb(), height < 1024,
              let framesOnly = r.flag() else { return nil }
        maxNumReferenceFrames = references
        gapsInFrameNumAllowed = gaps
        self.framesOnly = framesOnly
        widthInMacroblocks = width + 1
        heightInMacroblocks = (height + 1) * (framesOnly ? 1 : 2)
        if !framesOnly { guard r.flag() != nil else { return nil } }  // mb_adaptive_frame_field_flag
        guard r.flag() != nil, let cropping = r.flag() else { return nil }  // direct_8x8_inference_flag
        if cropping {
            for _ in 0..<4 { guard r.unsignedExpGolomb() != nil else { return nil } }
        }
        vuiFlagBit = r.position
        guard let vui = r.flag() else { return nil }
        hasVUI = vui
        var restriction: Restriction?
        var restrictionBit = 0
        if vui {
            guard let flag = Self.skipVUIUpToRestriction(&r) else { return nil }
            restrictionBit = r.position
            _ = r.bit()
            if flag {
                guard let overBoundaries = r.flag(), let bytes = r.unsignedExpGolomb(), bytes <= 16,
                      let bits = r.unsignedExpGolomb(), bits <= 16,
                      let horizontal = r.unsignedExpGolomb(), horizontal <= 16,
                      let vertical = r.unsignedExpGolomb(), vertical <= 16,
                      let reorder = r.unsignedExpGolomb(), reorder <= 16,
                      let buffering = r.unsignedExpGolomb(), buffering <= 16, reorder <= buffering else { return nil }
                restriction = Restriction(motionVectorsOverPictureBoundaries: overBoundaries,
                                          maxBytesPerPictureDenominator: bytes, maxBitsPerMacroblockDenominator: bits,
                                          log2MaxMotionVectorLengthHorizontal: horizontal,
                                          log2MaxMotionVectorLengthVertical: vertical,
                                          maxNumReorderFrames: reorder, maxDecFrameBuffering: buffering)
            }
        }
        restrictionFlagBit = restrictionBit
        self.restriction = restriction
        // rbsp_trailing_bits: a one, then zeros to the end (trailing zero bytes allowed).
        guard r.bit() == 1 else { return nil }
        while let b = r.bit() { guard b == 0 else { return nil } }
    }

    /// Skips a scaling_list(); false when cut short or out of range.
    private static func skipScalingList(_ r: inout BitReader, size: Int) -> Bool {
        var last = 8, next = 8
        for _ in 0..<size where next != 0 {
            guard let delta = r.signedExpGolomb(), (-128...127).contains(delta) else { return false }
            next = (last + delta + 256) % 256
            if next != 0 { last = next }
        }
        return true
    }

    /// Reads the VUI up to (not including) `bitstream_restriction_flag`, and peeks that flag.
    private static func skipVUIUpToRestriction(_ r: inout BitReader) -> Bool? {
        guard let aspect = r.flag() else { return nil }
        if aspect {
            guard let idc = r.bits(8) else { return nil }
            if idc == 255 { guard r.bits(32) != nil else { return nil } }
        }
        guard let overscan = r.flag() else { return nil }
        if overscan { guard r.flag() != nil else { return nil } }
        guard let signal = r.flag() else { return nil }
        if signal {
            guard r.bits(4) != nil, let colour = r.flag() else { return nil }
            if colour { guard r.bits(24) != nil else { return nil } }
        }
        guard let chromaLocation = r.flag() else { return nil }
        if chromaLocation {
            guard let top = r.unsignedExpGolomb(), top <= 5, let bottom = r.unsignedExpGolomb(), bottom <= 5 else { return nil }
        }
        guard let timing = r.flag() else { return nil }
        if timing { guard r.bits(32) != nil, r.bits(32) != nil, r.flag() != nil else { return nil } }
        guard let nal = r.flag() else { return nil }
        if nal, !skipHRD(&r) { return nil }
        guard let vcl = r.flag() else { return nil }
        if vcl, !skipHRD(&r) { return nil }
        if nal || vcl { guard r.flag() != nil else { return nil } }  // low_delay_hrd_flag
        guard r.flag() != nil else { return nil }  // pic_struct_present_flag
        var peek = r
        return peek.flag()
    }

    private static func skipHRD(_ r: inout BitReader) -> Bool {
        guard let count = r.unsignedExpGolomb(), count <= 31, r.bits(8) != nil else { return false }
        for _ in 0...count {
            guard r.unsignedExpGolomb() != nil, r.unsignedExpGolomb() != nil, r.flag() != nil else { return false }
        }
        return r.bits(20) != nil
    }

    /// MaxDpbMbs of Table A-1 by level_idc (9 is level 1b).
    private static let maxDPBMacroblocks: [Int: Int] = [
        9: 396, 10: 396, 11: 900, 12: 2376, 13: 2376, 20: 2376, 21: 4752, 22: 8100, 30: 8100, 31: 18000, 32: 20480,
        40: 32768, 41: 32768, 42: 34816, 50: 110400, 51: 184320, 52: 184320, 60: 696320, 61: 696320, 62: 696320]

    /// Level 1b, which Baseline, Main and Extended say as level_idc 11 with constraint_set3.
    private var isLevel1b: Bool {
        level == 9 || (level == 11 && [66, 77, 88].contains(profile) && constraints & 0x10 != 0)
    }

    /// The max_dec_frame_buffering in force: the VUI's, else what Annex E infers (MaxDpbFrames
    /// of the level; 0 for the intra profiles). Nil for an unknown level.
    var decodedPictureBufferFrames: Int? {
        if let restriction { return restriction.maxDecFrameBuffering }
        if [44, 86, 100, 110, 122, 244].contains(profile), constraints & 0x10 != 0 { return 0 }
        guard let mbs = Self.maxDPBMacroblocks[isLevel1b ? 9 : level] else { return nil }
        return min(mbs / (widthInMacroblocks * heightInMacroblocks), 16)
    }

    /// The max_num_reorder_frames in force (inferred as the buffer size when absent).
    var reorderFrames: Int? {
        restriction?.maxNumReorderFrames ?? decodedPictureBufferFrames
    }

    /// The NAL unit with `restriction` (nil: none), `level` and `referenceFrames`
    /// (max_num_ref_frames), every other bit as it is.
    func nal(restriction: Restriction?, level: Int? = nil, referenceFrames: Int? = nil) -> [UInt8] {
        var w = BitWriter()
        w.copy(rbsp, bits: 0..<16)
        w.write(level ?? self.level, bits: 8)
        w.copy(rbsp, bits: 24..<referenceFramesBits.lowerBound)
        if let referenceFrames {
            w.writeExpGolomb(referenceFrames)
        } else {
            w.copy(rbsp, bits: referenceFramesBits)
        }
        if hasVUI {
            w.copy(rbsp, bits: referenceFramesBits.upperBound..<restrictionFlagBit)
        } else {
            w.copy(rbsp, bits: referenceFramesBits.upperBound..<vuiFlagBit)
            // A VUI that says nothing but the restriction: no aspect ratio, overscan, signal
            // type, chroma location, timing, NAL or VCL HRD, or pic_struct.
            w.write(restriction == nil ? 0 : 1, bits: 1)
            if restriction != nil { w.write(0, bits: 8) }
        }
        if !hasVUI && restriction == nil {
            // No VUI, as before.
        } else if let restriction {
            w.write(1, bits: 1)
            w.write(restriction.motionVectorsOverPictureBoundaries ? 1 : 0, bits: 1)
            for value in [restriction.maxBytesPerPictureDenominator, restriction.maxBitsPerMacroblockDenominator,
                          restriction.log2MaxMotionVectorLengthHorizontal, restriction.log2MaxMotionVectorLengthVertical,
                          restriction.maxNumReorderFrames, restriction.maxDecFrameBuffering] {
                w.writeExpGolomb(value)
            }
        } else {
            w.write(0, bits: 1)
        }
        w.write(1, bits: 1)
        return [header] + Self.escaped(w.finish())
    }

    /// This (an encoder's) SPS rewritten to keep `source`'s decoded picture buffer size, reorder
    /// depth and number of reference frames, so that a decoder switching between them at an IDR
    /// keeps every picture (openh264 sizes its buffer by `max_num_ref_frames`: it drops pictures
    /// where that changes, even when `max_dec_frame_buffering` does not); nil when that cannot
    /// be said truthfully (other picture size, more reference frames than the source's, a level
    /// that cannot be told).
    ///
    /// Claiming more reference frames than the encoder used changes no picture: the sliding
    /// window then keeps older pictures longer, but a P slice's list still starts with the
    /// most recent ones, in the same order, and x264's slices (without B-frames, no memory
    /// management commands) refer to no others; the tests decode both forms to the same pictures.
    func matchingBuffer(of source: H264SequenceParameterSet) -> [UInt8]? {
        guard source.widthInMacroblocks == widthInMacroblocks, source.heightInMacroblocks == heightInMacroblocks,
              let buffering = source.decodedPictureBufferFrames, let reorder = source.reorderFrames,
              maxNumReferenceFrames <= source.maxNumReferenceFrames, source.maxNumReferenceFrames <= buffering,
              (restriction?.maxNumReorderFrames ?? 0) <= reorder else { return nil }
        // The buffer must fit this SPS's level: claim the source's when ours is lower.
        var newLevel: Int?
        if level != source.level || isLevel1b != source.isLevel1b {
            guard !isLevel1b, !source.isLevel1b, Self.maxDPBMacroblocks[source.level] != nil else { return nil }
            if level < source.level { newLevel = source.level }
        }
        var restriction = self.restriction ?? Restriction(maxNumReorderFrames: reorder, maxDecFrameBuffering: buffering)
        restriction.maxNumReorderFrames = reorder
        restriction.maxDecFrameBuffering = buffering
        return nal(restriction: restriction, level: newLevel,
                   referenceFrames: source.maxNumReferenceFrames == maxNumReferenceFrames ? nil : source.maxNumReferenceFrames)
    }

    /// RBSP bytes with emulation-prevention bytes inserted (no 00 00 0x with x ≤ 3).
    static func escaped(_ rbsp: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(rbsp.count + rbsp.count / 64 + 1)
        var zeros = 0
        for byte in rbsp {
            if zeros >= 2 && byte <= 3 {
                out.append(3)
                zeros = 0
            }
            out.append(byte)
            zeros = byte == 0 ? zeros + 1 : 0
        }
        return out
    }
}

/// Writes bits most significant first (the counterpart of `BitReader`).
struct BitWriter {
    private var bytes: [UInt8] = []
    private var count = 0

    mutating func write(_ value: Int, bits: Int) {
        for shift in stride(from: bits - 1, through: 0, by: -1) {
            if count % 8 == 0 { bytes.append(0) }
            if (value >> shift) & 1 == 1 { bytes[bytes.count - 1] |= 0x80 >> UInt8(count % 8) }
            count += 1
        }
    }

    /// ue(v).
    mutating func writeExpGolomb(_ value: Int) {
        let code = value + 1
        let length = Int.bitWidth - code.leadingZeroBitCount
        write(0, bits: length - 1)
        write(code, bits: length)
    }

    /// Copies bits `range` of `source`.
    mutating func copy(_ source: [UInt8], bits range: Range<Int>) {
        for index in range {
            write(Int(source[index >> 3] >> (7 - UInt8(index & 7))) & 1, bits: 1)
        }
    }

    /// Whether the next bit starts a byte.
    var isAligned: Bool { count % 8 == 0 }

    /// The bytes written, the last one padded with zeros.
    func finish() -> [UInt8] { bytes }
}
