internal import CFFmpeg
import Foundation
import ViewfinderCore

/// How a smart cut keeps the pictures of two encoders in one track, by the source's codec.
package enum SmartTrack {
    /// H.264: the re-encoded parameter sets get ids of their own, listed beside the source's in
    /// the one avcC (see `AVCConfiguration`).
    case avc(AVCConfiguration)
    /// HEVC: a sample description per family of parameter sets, the track tagged `hvc1` (see
    /// `HEVCConfiguration`).
    case hevc(HEVCConfiguration)

    /// The track format of `stream`, or why a smart cut cannot be made on it.
    static func of(_ stream: UnsafeMutablePointer<AVStream>) -> Result<SmartTrack, SmartCutUnavailable> {
        let codec = stream.pointee.codecpar.pointee.codec_id
        let bytes = stream.extradataBytes
        switch codec {
        case AV_CODEC_ID_H264:
            guard let config = bytes.flatMap(AVCConfiguration.init(record:)) else {
                return .failure(SmartCutUnavailable(reason: tr("its H.264 track has no avcC configuration")))
            }
            return .success(.avc(config))
        case AV_CODEC_ID_HEVC:
            guard let config = bytes.flatMap(HEVCConfiguration.init(record:)) else {
                return .failure(SmartCutUnavailable(reason: tr("its HEVC track has no hvcC configuration with its parameter sets")))
            }
            return .success(.hevc(config))
        default:
            return .failure(SmartCutUnavailable(reason: tr("smart cuts are made on H.264 and HEVC")))
        }
    }

    var lengthSize: Int {
        switch self {
        case .avc(let config): return config.lengthSize
        case .hevc(let config): return config.lengthSize
        }
    }

    /// What a packet's picture is to a smart cut: the plan's word for it, read here from the bitstream.
    typealias PictureKind = PacketIndex.PictureKind

    /// The kind of the picture a packet of the track holds.
    func kind(of bytes: UnsafeBufferPointer<UInt8>) -> PictureKind {
        switch self {
        case .avc(let config):
            return AVCConfiguration.startsAtIDR(bytes, lengthSize: config.lengthSize) ? .idr : .other
        case .hevc(let config):
            return HEVCConfiguration.pictureKind(bytes, lengthSize: config.lengthSize)
        }
    }

    /// An encoder's Annex B packet as the track stores it, and the parameter sets it carried
    /// for its sample description (HEVC; H.264's are in the one avcC already).
    func sample(fromAnnexB bytes: UnsafeBufferPointer<UInt8>) -> (sample: [UInt8], parameterSets: [[UInt8]])? {
        switch self {
        case .avc(let config): return config.sample(fromAnnexB: bytes).map { ($0, []) }
        case .hevc(let config): return config.sample(fromAnnexB: bytes)
        }
    }

    /// A copied packet's bytes when they must change (HEVC's parameter sets the sample
    /// description holds go, the CRA a stretch starts at becomes a BLA); nil when the packet
    /// is written as it is.
    func copiedSample(_ bytes: UnsafeBufferPointer<UInt8>, startsStretch: Bool) -> [UInt8]? {
        switch self {
        case .avc: return nil
        case .hevc(let config): return config.copiedSample(bytes, startsStretch: startsStretch)
        }
    }

    /// Whether a copied packet carries parameter sets of its own (HEVC in band, unlike its
    /// `hvcC`): the track must then allow them (`hev1`).
    func carriesOwnParameterSets(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if case .hevc(let config) = self { return config.carriesOwnParameterSets(bytes) }
        return false
    }

    /// The sample descriptions of a smart cut's video track (stream `track`) whose samples
    /// point at `entries` (0 the source's, n the n-th family of `families`), ordered by first
    /// use: nil for H.264,
    /// whose one avcC holds every parameter set. `inBand`: copied samples kept sets of their own.
    package func sampleDescriptions(track: Int, source record: [UInt8], families: [[[UInt8]]], entries: [UInt32],
                            inBand: Bool) -> SampleDescriptions? {
        guard case .hevc(let config) = self else { return nil }
        let complete = !inBand
        guard let source = HEVCConfiguration.marking(record, complete: complete) else { return nil }
        var made = [source]
        for family in families {
            guard let record = HEVCConfiguration.record(family, lengthSize: config.lengthSize, complete: complete) else { return nil }
            made.append(record)
        }
        // The entries in the order their samples come: the first sample's description is the
        // first, the one FFmpeg's demuxer gives a decoder that starts at the top (it hands over
        // another only where a packet's description differs from the last packet's).
        var order: [UInt32] = []
        for entry in entries where !order.contains(entry) { order.append(entry) }
        guard order.allSatisfy({ Int($0) < made.count }) else { return nil }
        let position = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, UInt32($0 + 1)) })
        return SampleDescriptions(track: track, format: inBand ? "hev1" : "hvc1", configurationType: "hvcC",
                                  configurations: order.map { made[Int($0)] },
                                  entryOfSample: entries.map { position[$0] ?? 1 })
    }
}

extension OwnedPacket {
    /// A new packet holding `bytes` with this one's times and flags; nil when out of memory.
    func replacingData(with bytes: [UInt8]) -> OwnedPacket? {
        guard let made = OwnedPacket(), av_new_packet(made.pointer, Int32(bytes.count)) >= 0 else { return nil }
        bytes.withUnsafeBufferPointer { source in
            if let start = source.baseAddress { made.pointer.pointee.data.update(from: start, count: bytes.count) }
        }
        let p = pointer.pointee
        made.pointer.pointee.pts = p.pts
        made.pointer.pointee.dts = p.dts
        made.pointer.pointee.flags = p.flags
        made.pointer.pointee.duration = p.duration
        return made
    }
}
