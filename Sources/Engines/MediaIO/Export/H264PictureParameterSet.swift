import Foundation

/// The fields of an H.264 picture parameter set a slice header's syntax depends on (7.3.2.2),
/// read up to `redundant_pic_cnt_present_flag`; nil when it is cut short, out of range, or
/// uses slice groups (whose map this reader does not follow).
struct H264PictureParameterSet: Equatable {
    let id: Int
    let sequenceParameterSetID: Int
    /// entropy_coding_mode_flag: CABAC (slice data byte-aligned after the header) or CAVLC.
    let cabac: Bool
    let bottomFieldPicOrderInFramePresent: Bool
    /// num_ref_idx_l0/l1_default_active_minus1 + 1.
    let defaultActiveReferences: (Int, Int)
    let weightedPrediction: Bool
    let weightedBipredictionIDC: Int
    let deblockingFilterControlPresent: Bool
    let redundantPictureCountPresent: Bool

    init?(nal: [UInt8]) {
        guard nal.count >= 2, nal[0] & 0x1F == 8 else { return nil }
        var r = BitReader(rbsp: nal.dropFirst(), limit: 256)
        guard let id = r.unsignedExpGolomb(), id < 256, let sps = r.unsignedExpGolomb(), sps < 32,
              let cabac = r.flag(), let bottom = r.flag(), let groups = r.unsignedExpGolomb(), groups == 0,
              let l0 = r.unsignedExpGolomb(), l0 < 32, let l1 = r.unsignedExpGolomb(), l1 < 32,
              let weighted = r.flag(), let bipred = r.bits(2), bipred < 3,
              r.signedExpGolomb() != nil, r.signedExpGolomb() != nil, r.signedExpGolomb() != nil,
              let deblocking = r.flag(), r.flag() != nil, let redundant = r.flag() else { return nil }
        self.id = id
        sequenceParameterSetID = sps
        self.cabac = cabac
        bottomFieldPicOrderInFramePresent = bottom
        defaultActiveReferences = (l0 + 1, l1 + 1)
        weightedPrediction = weighted
        weightedBipredictionIDC = bipred
        deblockingFilterControlPresent = deblocking
        redundantPictureCountPresent = redundant
    }

    static func == (a: Self, b: Self) -> Bool {
        a.id == b.id && a.sequenceParameterSetID == b.sequenceParameterSetID && a.cabac == b.cabac
            && a.bottomFieldPicOrderInFramePresent == b.bottomFieldPicOrderInFramePresent
            && a.defaultActiveReferences == b.defaultActiveReferences && a.weightedPrediction == b.weightedPrediction
            && a.weightedBipredictionIDC == b.weightedBipredictionIDC
            && a.deblockingFilterControlPresent == b.deblockingFilterControlPresent
            && a.redundantPictureCountPresent == b.redundantPictureCountPresent
    }
}
