internal import CFFmpeg
import Foundation
import ViewfinderCore

/// How a smart cut keeps the pictures of two encoders in one track, by the source's codec.
enum SmartTrack {
    /// H.264: the re-encoded parameter sets get ids of their own, listed beside the source's in
    /// the one avcC (see `AVCConfiguration`).
    case avc(AVCConfiguration)
    /// HEVC: parameter sets in band at every IDR, the track tagged `hev1` (see `HEVCConfiguration`).
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

    /// An encoder's Annex B packet as the track stores it.
    func sample(fromAnnexB bytes: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        switch self {
        case .avc(let config): return config.sample(fromAnnexB: bytes)
        case .hevc(let config): return config.sample(fromAnnexB: bytes)
        }
    }

    /// A copied packet's bytes when they must change (HEVC's random access points get the
    /// source's parameter sets back, the CRA a stretch starts at becomes a BLA); nil when the
    /// packet is written as it is.
    func copiedSample(_ bytes: UnsafeBufferPointer<UInt8>, startsStretch: Bool) -> [UInt8]? {
        switch self {
        case .avc: return nil
        case .hevc(let config): return config.copiedSample(bytes, startsStretch: startsStretch)
        }
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
