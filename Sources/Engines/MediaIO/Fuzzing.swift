import Foundation
import ViewfinderCore

/// Entry points for the fuzz targets (`make fuzz`) into MediaIO's byte parsers, which are
/// internal: the movie-box editor of exports without location, and the decoder-configuration,
/// NAL-unit and slice-header readers of smart cuts. Not API (`@_spi(Fuzzing)`).
@_spi(Fuzzing) public enum FuzzEntry {
    /// Runs the location editor on `payload` wrapped as a `moov` box and returns the edited
    /// box; it must keep the box's size (sample offsets depend on it).
    public static func removeLocation(fromMoviePayload payload: [UInt8]) -> (box: [UInt8], removed: Int) {
        let size = payload.count + 8
        let box = [UInt8(size >> 24 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)]
            + Array("moov".utf8) + payload
        var editor = MovieLocationEditor(movie: box, isLocationKey: VideoMetadata.isLocationKey)
        let removed = editor.removeLocation()
        return (editor.bytes, removed)
    }

    /// Parses `bytes` as an `avcC` and as an `hvcC` record, and as packets of NAL units (length
    /// prefixed with each allowed size, and Annex B), as a smart cut reads them; returns how
    /// many units were found, to keep the work observable.
    public static func readParameterSets(_ bytes: [UInt8]) -> Int {
        var found = 0
        if var avc = AVCConfiguration(record: bytes) {
            found += avc.sequenceParameterSets.count + avc.pictureParameterSets.count
            for unit in avc.sequenceParameterSets { _ = AVCConfiguration.sequenceParameterSetID(unit) }
            for unit in avc.pictureParameterSets { _ = AVCConfiguration.pictureParameterSetID(unit) }
            _ = avc.add(sequence: avc.sequenceParameterSets, picture: avc.pictureParameterSets)
        }
        if let hevc = HEVCConfiguration(record: bytes) {
            found += hevc.parameterSets.count
            _ = hevc.prefixed(hevc.parameterSets)
        }
        bytes.withUnsafeBufferPointer { buffer in
            for lengthSize in [1, 2, 4] {
                found += AVCConfiguration.units(ofPacket: buffer, lengthSize: lengthSize)?.count ?? 0
                _ = AVCConfiguration.startsAtIDR(buffer, lengthSize: lengthSize)
                _ = HEVCConfiguration.pictureKind(buffer, lengthSize: lengthSize)
            }
            let units = AVCConfiguration.annexBUnits(buffer)
            found += units.count
            _ = AVCConfiguration.lengthPrefixed(units, lengthSize: 4)
            for unit in units { found += rewriteSequenceParameterSet(Array(unit)) }
            found += renumberOpenGOP(units.map(Array.init))
        }
        found += rewriteSequenceParameterSet(bytes)
        return found
    }

    /// Reads Annex B `units` as a smart cut reads an open-GOP source: each slice's header with
    /// the SPS and PPS among the units (and written back, and read again), and every unit that is
    /// not a parameter set fed, as a packet of its own, to the renumbering a copy from a non-IDR
    /// I goes through. Returns how many headers were read.
    static func renumberOpenGOP(_ units: [[UInt8]]) -> Int {
        let sequences = units.filter { ($0.first ?? 0) & 0x1F == 7 }
        let pictures = units.filter { ($0.first ?? 0) & 0x1F == 8 }
        let sps = sequences.compactMap(H264SequenceParameterSet.init(nal:)).first
        let pps = pictures.compactMap(H264PictureParameterSet.init(nal:)).first
        var read = 0
        var rewriter = H264OpenGOPRewriter(sequenceParameterSets: sequences, pictureParameterSets: pictures, lengthSize: 4)
        for unit in units where !unit.isEmpty && unit[0] & 0x1F != 7 && unit[0] & 0x1F != 8 {
            if let sps, let pps, let header = H264SliceHeader(nal: unit, sps: sps, pps: pps) {
                read += 1
                _ = H264SliceHeader(nal: header.nal(), sps: sps, pps: pps)
            }
            if let packet = AVCConfiguration.lengthPrefixed([unit], lengthSize: 4) { _ = rewriter.rewrite(packet) }
        }
        return read
    }

    /// Reads `nal` as an H.264 SPS and, when it is one, rewrites it as a smart cut does and
    /// checks that each rewrite reads back with what was asked and nothing else changed; a
    /// mismatch traps (a rewrite the parser cannot read would reach a decoder). 1 when parsed.
    static func rewriteSequenceParameterSet(_ nal: [UInt8]) -> Int {
        guard let sps = H264SequenceParameterSet(nal: nal) else { return 0 }
        func sameExceptBuffer(_ other: H264SequenceParameterSet?) -> H264SequenceParameterSet {
            guard let other else { preconditionFailure("a rewritten SPS does not read back") }
            precondition(other.profile == sps.profile && other.constraints == sps.constraints && other.id == sps.id
                && other.chromaFormat == sps.chromaFormat && other.widthInMacroblocks == sps.widthInMacroblocks
                && other.heightInMacroblocks == sps.heightInMacroblocks, "a rewrite changed the picture's description")
            return other
        }
        let same = sameExceptBuffer(H264SequenceParameterSet(nal: sps.nal(restriction: sps.restriction)))
        // Field by field: the source may end in trailing zero bytes, which a rewrite drops.
        precondition(same.restriction == sps.restriction && same.level == sps.level && same.hasVUI == sps.hasVUI
            && same.maxNumReferenceFrames == sps.maxNumReferenceFrames, "rewriting an SPS with its own restriction changed it")
        let reorder = min(sps.restriction?.maxNumReorderFrames ?? 1, 16)
        let asked = H264SequenceParameterSet.Restriction(maxNumReorderFrames: reorder, maxDecFrameBuffering: max(reorder, 4))
        let restricted = sameExceptBuffer(H264SequenceParameterSet(nal: sps.nal(restriction: asked, referenceFrames: 4)))
        precondition(restricted.restriction == asked && restricted.maxNumReferenceFrames == 4 && restricted.level == sps.level,
                     "a rewritten restriction or reference count did not read back")
        if let matched = sps.matchingBuffer(of: same) {
            let read = sameExceptBuffer(H264SequenceParameterSet(nal: matched))
            precondition(read.decodedPictureBufferFrames == sps.decodedPictureBufferFrames
                && read.reorderFrames == sps.reorderFrames, "an SPS matched to itself changed its buffer")
        }
        return 1
    }
}
