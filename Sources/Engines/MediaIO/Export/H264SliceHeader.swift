import Foundation

/// An H.264 slice header (7.3.3) read with the SPS and PPS in force, changed, and written back
/// in front of the slice's data unchanged: the mechanism that turns an open GOP's I picture
/// into an IDR and renumbers the pictures copied after it (`H264OpenGOPRewriter`).
///
/// Only frames are read (no field pictures or MBAFF), P, B and I slices, short-term
/// references (`modification_of_pic_nums_idc` 0 and 1, memory management operation 1), one
/// slice group and no redundant pictures; anything else, or a header cut short, gives nil.
/// Written without a change, the NAL unit comes back byte for byte (the tests check every
/// slice of CABAC and CAVLC clips).
struct H264SliceHeader: Equatable {
    /// A ref_pic_list_modification command on short-term pictures (abs_diff_pic_num_minus1).
    enum ListModification: Equatable {
        case subtract(Int)
        case add(Int)
    }

    /// nal_ref_idc (0–3) and nal_unit_type (1 or 5).
    var referenceIDC: Int
    var isIDR: Bool
    /// first_mb_in_slice.
    var firstMacroblock: Int
    /// slice_type, 0–9 (P, B, I, SP, SI; plus 5 when every slice of the picture has it).
    var sliceType: Int
    /// pic_parameter_set_id: the PPS (and through it the SPS) the slice was coded with.
    var pictureParameterSetID: Int
    /// frame_num, in log2_max_frame_num bits: counts reference pictures since the last IDR.
    var frameNum: Int
    /// idr_pic_id (IDR slices only).
    var idrPictureID: Int
    /// pic_order_cnt_lsb (picture order count type 0).
    var pictureOrderCountLSB: Int
    /// delta_pic_order_cnt_bottom, when the PPS says it is present.
    var deltaPictureOrderCountBottom: Int?
    /// direct_spatial_mv_pred_flag (B slices).
    var directSpatialPrediction: Bool
    /// num_ref_idx_l0/l1_active_minus1 when overridden.
    var activeReferencesOverride: [Int]?
    /// Per list (l0, then l1 for B): nil when ref_pic_list_modification_flag is 0.
    var listModifications: [[ListModification]?]
    var noOutputOfPriorPictures = false
    var longTermReference = false
    /// difference_of_pic_nums_minus1 of each memory management operation 1; nil for the
    /// sliding window (adaptive_ref_pic_marking_mode_flag 0).
    var forgottenPictures: [Int]?
    var cabacInitIDC: Int?
    var quantizerDelta: Int
    var deblocking: [Int]

    private let sps: H264SequenceParameterSet
    private let pps: H264PictureParameterSet
    /// The RBSP, and the bits of pred_weight_table() (copied as they are) and of the slice data.
    private let rbsp: [UInt8]
    private let weightTable: Range<Int>
    private let dataStart: Int
    /// The rbsp_stop_one_bit's index; the CAVLC data are the bits from `dataStart` up to it.
    private let stopBit: Int

    var isB: Bool { sliceType % 5 == 1 }
    var isP: Bool { sliceType % 5 == 0 }
    var isI: Bool { sliceType % 5 == 2 }
    var isReference: Bool { referenceIDC != 0 }

    static func == (a: Self, b: Self) -> Bool { a.nal() == b.nal() }

    /// The id of the PPS a slice NAL unit names (to pick the parameter sets before parsing).
    static func pictureParameterSetID(_ nal: [UInt8]) -> Int? {
        var r = BitReader(rbsp: nal.dropFirst(), limit: 16)
        guard r.unsignedExpGolomb() != nil, r.unsignedExpGolomb() != nil else { return nil }
        return r.unsignedExpGolomb()
    }

    init?(nal: [UInt8], sps: H264SequenceParameterSet, pps: H264PictureParameterSet) {
        guard nal.count >= 2, [1, 5].contains(nal[0] & 0x1F), nal[0] & 0x80 == 0, sps.framesOnly,
              !pps.redundantPictureCountPresent, sps.pictureOrderCountType != 1 || sps.deltaPictureOrderAlwaysZero
        else { return nil }
        self.sps = sps
        self.pps = pps
        referenceIDC = Int(nal[0] >> 5)
        isIDR = nal[0] & 0x1F == 5
        var r = BitReader(rbsp: nal.dropFirst(), limit: nal.count)
        rbsp = r.bytes
        guard let first = r.unsignedExpGolomb(), let type = r.unsignedExpGolomb(), type <= 9, [0, 1, 2].contains(type % 5),
              let ppsID = r.unsignedExpGolomb(), ppsID == pps.id, !sps.separateColourPlane,
              let frameNum = r.bits(sps.frameNumBits) else { return nil }
        firstMacroblock = first
        sliceType = type
        pictureParameterSetID = ppsID
        self.frameNum = frameNum
        idrPictureID = 0
        if isIDR {
            guard let id = r.unsignedExpGolomb(), id <= 65535 else { return nil }
            idrPictureID = id
        }
        pictureOrderCountLSB = 0
        if sps.pictureOrderCountType == 0 {
            guard let lsb = r.bits(sps.pictureOrderCountLSBBits) else { return nil }
            pictureOrderCountLSB = lsb
            if pps.bottomFieldPicOrderInFramePresent {
                guard let delta = r.signedExpGolomb() else { return nil }
                deltaPictureOrderCountBottom = delta
            }
        }
        let isB = type % 5 == 1, isI = type % 5 == 2
        directSpatialPrediction = false
        if isB {
            guard let direct = r.flag() else { return nil }
            directSpatialPrediction = direct
        }
        var active = [pps.defaultActiveReferences.0, pps.defaultActiveReferences.1]
        if !isI {
            guard let override = r.flag() else { return nil }
            if override {
                guard let l0 = r.unsignedExpGolomb(), l0 < 32 else { return nil }
                var values = [l0]
                if isB {
                    guard let l1 = r.unsignedExpGolomb(), l1 < 32 else { return nil }
                    values.append(l1)
                }
                activeReferencesOverride = values
                active = [l0 + 1, (values.count > 1 ? values[1] : active[1] - 1) + 1]
            }
        }
        listModifications = []
        for _ in 0..<(isI ? 0 : isB ? 2 : 1) {
            guard let present = r.flag() else { return nil }
            guard present else { listModifications.append(nil); continue }
            var commands: [ListModification] = []
            while true {
                guard let idc = r.unsignedExpGolomb(), commands.count <= 32 else { return nil }
                if idc == 3 { break }
                guard idc <= 1, let difference = r.unsignedExpGolomb() else { return nil }
                commands.append(idc == 0 ? .subtract(difference) : .add(difference))
            }
            listModifications.append(commands)
        }
        let weightStart = r.position
        if (pps.weightedPrediction && !isB && !isI) || (pps.weightedBipredictionIDC == 1 && isB) {
            guard Self.skipWeightTable(&r, active: active, lists: isB ? 2 : 1, chroma: sps.chromaFormat != 0) else { return nil }
        }
        weightTable = weightStart..<r.position
        if referenceIDC != 0 {
            if isIDR {
                guard let noOutput = r.flag(), let longTerm = r.flag() else { return nil }
                noOutputOfPriorPictures = noOutput
                longTermReference = longTerm
            } else {
                guard let adaptive = r.flag() else { return nil }
                if adaptive {
                    var forgotten: [Int] = []
                    while true {
                        guard let operation = r.unsignedExpGolomb(), forgotten.count <= 64 else { return nil }
                        if operation == 0 { break }
                        guard operation == 1, let difference = r.unsignedExpGolomb() else { return nil }
                        forgotten.append(difference)
                    }
                    forgottenPictures = forgotten
                }
            }
        }
        if pps.cabac && !isI {
            guard let idc = r.unsignedExpGolomb(), idc <= 2 else { return nil }
            cabacInitIDC = idc
        }
        guard let qp = r.signedExpGolomb() else { return nil }
        quantizerDelta = qp
        deblocking = []
        if pps.deblockingFilterControlPresent {
            guard let idc = r.unsignedExpGolomb(), idc <= 6 else { return nil }
            deblocking = [idc]
            if idc != 1 {
                guard let alpha = r.signedExpGolomb(), let beta = r.signedExpGolomb() else { return nil }
                deblocking += [alpha, beta]
            }
        }
        if pps.cabac {
            // cabac_alignment_one_bit up to the byte boundary.
            while r.position % 8 != 0 { guard r.bit() == 1 else { return nil } }
        }
        dataStart = r.position
        // The stop bit is the last 1 of the RBSP; a header that reads past it has no data.
        guard let last = rbsp.lastIndex(where: { $0 != 0 }) else { return nil }
        stopBit = last * 8 + 7 - rbsp[last].trailingZeroBitCount
        guard dataStart <= stopBit else { return nil }
    }

    /// Skips pred_weight_table(); false when cut short.
    private static func skipWeightTable(_ r: inout BitReader, active: [Int], lists: Int, chroma: Bool) -> Bool {
        guard r.unsignedExpGolomb() != nil else { return false }
        if chroma { guard r.unsignedExpGolomb() != nil else { return false } }
        for list in 0..<lists {
            for _ in 0..<active[list] {
                guard let luma = r.flag() else { return false }
                if luma { guard r.signedExpGolomb() != nil, r.signedExpGolomb() != nil else { return false } }
                guard chroma else { continue }
                guard let hasChroma = r.flag() else { return false }
                if hasChroma {
                    for _ in 0..<4 { guard r.signedExpGolomb() != nil else { return false } }
                }
            }
        }
        return true
    }

    /// The NAL unit: this header, then the slice's data as it was.
    func nal() -> [UInt8] {
        var w = BitWriter()
        w.writeExpGolomb(firstMacroblock)
        w.writeExpGolomb(sliceType)
        w.writeExpGolomb(pictureParameterSetID)
        w.write(frameNum, bits: sps.frameNumBits)
        if isIDR { w.writeExpGolomb(idrPictureID) }
        if sps.pictureOrderCountType == 0 {
            w.write(pictureOrderCountLSB, bits: sps.pictureOrderCountLSBBits)
            if let deltaPictureOrderCountBottom { w.writeSignedExpGolomb(deltaPictureOrderCountBottom) }
        }
        if isB { w.write(directSpatialPrediction ? 1 : 0, bits: 1) }
        if !isI {
            w.write(activeReferencesOverride == nil ? 0 : 1, bits: 1)
            for value in activeReferencesOverride ?? [] { w.writeExpGolomb(value) }
        }
        for list in listModifications {
            w.write(list == nil ? 0 : 1, bits: 1)
            guard let list else { continue }
            for command in list {
                switch command {
                case .subtract(let difference): w.writeExpGolomb(0); w.writeExpGolomb(difference)
                case .add(let difference): w.writeExpGolomb(1); w.writeExpGolomb(difference)
                }
            }
            w.writeExpGolomb(3)
        }
        w.copy(rbsp, bits: weightTable)
        if isReference {
            if isIDR {
                w.write(noOutputOfPriorPictures ? 1 : 0, bits: 1)
                w.write(longTermReference ? 1 : 0, bits: 1)
            } else {
                w.write(forgottenPictures == nil ? 0 : 1, bits: 1)
                for difference in forgottenPictures ?? [] {
                    w.writeExpGolomb(1)
                    w.writeExpGolomb(difference)
                }
                if forgottenPictures != nil { w.writeExpGolomb(0) }
            }
        }
        if let cabacInitIDC { w.writeExpGolomb(cabacInitIDC) }
        w.writeSignedExpGolomb(quantizerDelta)
        for (n, value) in deblocking.enumerated() {
            if n == 0 { w.writeExpGolomb(value) } else { w.writeSignedExpGolomb(value) }
        }
        var out: [UInt8]
        if pps.cabac {
            while !w.isAligned { w.write(1, bits: 1) }
            out = w.finish() + rbsp[(dataStart / 8)...]
        } else {
            // CAVLC data follows the header unaligned: copied bit by bit up to its stop bit,
            // then aligned anew; zero bytes after the stop bit's byte stay.
            w.copy(rbsp, bits: dataStart..<(stopBit + 1))
            out = w.finish() + [UInt8](repeating: 0, count: rbsp.count - 1 - stopBit / 8)
        }
        var escaped = H264SequenceParameterSet.escaped(out)
        if escaped.last == 0 { escaped.append(3) }
        let header = UInt8(referenceIDC << 5) | (isIDR ? 5 : 1)
        return [header] + escaped
    }
}

extension BitWriter {
    /// se(v).
    mutating func writeSignedExpGolomb(_ value: Int) {
        writeExpGolomb(value > 0 ? 2 * value - 1 : -2 * value)
    }
}
