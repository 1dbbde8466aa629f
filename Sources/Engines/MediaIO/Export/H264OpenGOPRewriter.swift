import Foundation

/// Makes a copy of H.264 packets start at an open GOP's I picture: the I becomes an IDR, and
/// every picture copied after it, up to the next real IDR, is renumbered as if the stream had
/// started there — `frame_num` counted afresh from 0, `pic_order_cnt_lsb` taken relative to
/// the I's (so the IDR's picture order count is 0), and the reference list and memory
/// management commands pointed at the same pictures under their new numbers. Commands about
/// pictures the copy does not hold (decoded before the I, or the I's leading pictures, which
/// the head re-encodes) are dropped: the copy never had them.
///
/// Feed it the copied packets in decode order, the I first (its leading pictures left out).
/// It answers nil — the I is then not a place to start a copy — for anything it does not
/// follow: an I without a recovery point SEI saying decoding may start there, picture order
/// count type other than 0, fields, long-term references, data partitioning, slice groups,
/// redundant pictures, a parameter set that does not parse, and while a left-out leading
/// reference picture is still held by the source, a slice whose reference lists are not all
/// set by explicit commands (its default lists would differ from the source's).
struct H264OpenGOPRewriter {
    private let sequenceSets: [Int: H264SequenceParameterSet]
    private let pictureSets: [Int: H264PictureParameterSet]
    private let lengthSize: Int
    private var started = false
    /// A real IDR came: from there packets are copied as they are.
    private var passingThrough = false
    private var startLSB = 0
    private var sequenceID = 0
    /// The copy's short-term reference frames in decode order: frame_num in the source and now.
    private var references: [(original: Int, new: Int)] = []
    private var lastReference = (original: 0, new: 0)
    /// Source frame_num of left-out reference pictures the source has not yet forgotten.
    private var leftOut: Set<Int> = []

    init(sequenceParameterSets: [[UInt8]], pictureParameterSets: [[UInt8]], lengthSize: Int) {
        var sequences: [Int: H264SequenceParameterSet] = [:]
        for unit in sequenceParameterSets { if let set = H264SequenceParameterSet(nal: unit) { sequences[set.id] = set } }
        var pictures: [Int: H264PictureParameterSet] = [:]
        for unit in pictureParameterSets { if let set = H264PictureParameterSet(nal: unit) { pictures[set.id] = set } }
        sequenceSets = sequences
        pictureSets = pictures
        self.lengthSize = lengthSize
    }

    /// The next copied packet (length-prefixed) as it is to be written; nil when it cannot be.
    mutating func rewrite(_ packet: [UInt8]) -> [UInt8]? {
        guard let ranges = packet.withUnsafeBufferPointer({ AVCConfiguration.units(ofPacket: $0, lengthSize: lengthSize) })
        else { return nil }
        let units = ranges.map { Array(packet[$0]) }
        let types = units.map { $0[0] & 0x1F }
        if passingThrough { return packet }
        guard !types.contains(where: { (2...4).contains($0) }), !types.contains(7), !types.contains(8) else { return nil }
        if types.contains(5) {
            guard started, types.allSatisfy({ $0 != 1 }) else { return nil }
            passingThrough = true
            return packet
        }
        var headers: [H264SliceHeader] = []
        for unit in units where unit[0] & 0x1F == 1 {
            guard let ppsID = H264SliceHeader.pictureParameterSetID(unit), let pps = pictureSets[ppsID],
                  let sps = sequenceSets[pps.sequenceParameterSetID],
                  let header = H264SliceHeader(nal: unit, sps: sps, pps: pps) else { return nil }
            headers.append(header)
        }
        guard let first = headers.first, let sps = sequenceSets[pictureSets[first.pictureParameterSetID]?.sequenceParameterSetID ?? -1],
              headers.allSatisfy({ $0.frameNum == first.frameNum && $0.referenceIDC == first.referenceIDC
                  && $0.pictureOrderCountLSB == first.pictureOrderCountLSB }) else { return nil }
        let rewritten: [H264SliceHeader]?
        if !started {
            rewritten = start(headers, sps: sps, sei: units.filter { $0[0] & 0x1F == 6 })
        } else {
            guard sps.id == sequenceID else { return nil }
            rewritten = follow(headers, sps: sps)
        }
        guard let rewritten else { return nil }
        var slices = rewritten.makeIterator()
        var out: [[UInt8]] = []
        for unit in units {
            if unit[0] & 0x1F == 1 {
                guard let slice = slices.next() else { return nil }
                out.append(slice.nal())
            } else {
                out.append(unit)
            }
        }
        return AVCConfiguration.lengthPrefixed(out, lengthSize: lengthSize)
    }

    /// The I picture as an IDR.
    private mutating func start(_ headers: [H264SliceHeader], sps: H264SequenceParameterSet, sei: [[UInt8]]) -> [H264SliceHeader]? {
        guard headers.allSatisfy({ $0.isI && $0.isReference }), sps.pictureOrderCountType == 0,
              !sps.gapsInFrameNumAllowed, sei.contains(where: Self.saysRecoveryPoint), let first = headers.first else { return nil }
        started = true
        sequenceID = sps.id
        startLSB = first.pictureOrderCountLSB
        references = [(first.frameNum, 0)]
        lastReference = (first.frameNum, 0)
        return headers.map { header in
            var idr = header
            idr.isIDR = true
            idr.frameNum = 0
            idr.idrPictureID = 0
            idr.pictureOrderCountLSB = 0
            idr.noOutputOfPriorPictures = false
            idr.longTermReference = false
            idr.forgottenPictures = nil
            return idr
        }
    }

    /// A picture after the I, renumbered.
    private mutating func follow(_ headers: [H264SliceHeader], sps: H264SequenceParameterSet) -> [H264SliceHeader]? {
        guard let first = headers.first else { return nil }
        let maxFrameNum = 1 << sps.frameNumBits
        func wrapped(_ value: Int) -> Int { ((value % maxFrameNum) + maxFrameNum) % maxFrameNum }
        let original = first.frameNum
        // Reference pictures left out (leading ones) show as a jump in frame_num.
        let gap = wrapped(original - lastReference.original - 1)
        guard gap <= max(sps.maxNumReferenceFrames, 1) else { return nil }
        for n in 0..<gap { leftOut.insert(wrapped(lastReference.original + 1 + n)) }
        let new = wrapped(lastReference.new + 1)
        func current(_ frameNum: Int) -> Int? { references.last { $0.original == frameNum }?.new }

        var forgotten: [Int] = []
        var forgottenLeftOut: Set<Int> = []
        var out: [H264SliceHeader] = []
        for header in headers {
            var made = header
            made.frameNum = new
            let maxLSB = 1 << sps.pictureOrderCountLSBBits
            made.pictureOrderCountLSB = ((header.pictureOrderCountLSB - startLSB) % maxLSB + maxLSB) % maxLSB
            made.listModifications = []
            for commands in header.listModifications {
                guard let commands else { made.listModifications.append(nil); continue }
                var (predOriginal, predNew) = (original, new)
                var translated: [H264SliceHeader.ListModification] = []
                for command in commands {
                    let target: Int
                    switch command {
                    case .subtract(let d): target = wrapped(predOriginal - d - 1)
                    case .add(let d): target = wrapped(predOriginal + d + 1)
                    }
                    guard let newTarget = current(target) else { return nil }
                    // A whole turn (abs_diff_pic_num MaxPicNum) names the predictor's picture
                    // again: x264's weighted prediction lists one picture twice that way.
                    func distance(_ value: Int) -> Int { value == 0 ? maxFrameNum : value }
                    let difference: Int
                    switch command {
                    case .subtract:
                        difference = distance(wrapped(predNew - newTarget)) - 1
                        translated.append(.subtract(difference))
                    case .add:
                        difference = distance(wrapped(newTarget - predNew)) - 1
                        translated.append(.add(difference))
                    }
                    guard difference >= 0 else { return nil }
                    (predOriginal, predNew) = (target, newTarget)
                }
                made.listModifications.append(translated)
            }
            if !leftOut.isEmpty && !header.isI && !listsAreExplicit(header) { return nil }
            if let operations = header.forgottenPictures {
                var kept: [Int] = []
                forgotten = []
                for d in operations {
                    let target = wrapped(original - d - 1)
                    if let newTarget = current(target) {
                        kept.append(wrapped(new - newTarget) - 1)
                        forgotten.append(target)
                    } else {
                        // A picture before the I, or a left-out leading one: the copy never had it.
                        forgottenLeftOut.insert(target)
                    }
                }
                made.forgottenPictures = kept
            } else if header.isReference, !leftOut.isEmpty,
                      references.count + leftOut.count >= max(sps.maxNumReferenceFrames, 1) {
                // The source's sliding window could drop one of the copy's pictures here.
                return nil
            }
            out.append(made)
        }
        leftOut.subtract(forgottenLeftOut)
        if first.isReference {
            references.removeAll { forgotten.contains($0.original) }
            if first.forgottenPictures == nil, references.count >= max(sps.maxNumReferenceFrames, 1) {
                references.removeFirst()
            }
            references.removeAll { $0.original == original }
            references.append((original, new))
            lastReference = (original, new)
        }
        return out
    }

    /// Whether every reference list entry a slice uses is set by a command (not by the
    /// default order, which would count pictures the copy does not hold).
    private func listsAreExplicit(_ header: H264SliceHeader) -> Bool {
        guard let pps = pictureSets[header.pictureParameterSetID] else { return false }
        let defaults = [pps.defaultActiveReferences.0, pps.defaultActiveReferences.1]
        for (list, commands) in header.listModifications.enumerated() {
            let active = header.activeReferencesOverride.map { list < $0.count ? $0[list] + 1 : defaults[list] } ?? defaults[list]
            if (commands?.count ?? 0) < active { return false }
        }
        return true
    }

    /// Whether an SEI NAL unit holds a recovery point with recovery_frame_cnt 0: decoding may
    /// start at this picture, and every picture shown from it on comes out right.
    static func saysRecoveryPoint(_ nal: [UInt8]) -> Bool {
        let reader = BitReader(rbsp: nal.dropFirst(), limit: nal.count)
        let bytes = reader.bytes
        var offset = 0
        while offset + 2 <= bytes.count, bytes[offset] != 0x80 {
            var type = 0, size = 0
            while offset < bytes.count, bytes[offset] == 0xFF { type += 255; offset += 1 }
            guard offset < bytes.count else { return false }
            type += Int(bytes[offset]); offset += 1
            while offset < bytes.count, bytes[offset] == 0xFF { size += 255; offset += 1 }
            guard offset < bytes.count else { return false }
            size += Int(bytes[offset]); offset += 1
            guard offset + size <= bytes.count else { return false }
            if type == 6 {
                var payload = reader
                return payload.skip(offset * 8) && payload.unsignedExpGolomb() == 0
            }
            offset += size
        }
        return false
    }
}
