internal import CFFmpeg
import Foundation
import ViewfinderCore

extension MediaContainer {
    /// The stream that holds a cover picture embedded in the file (MP4's `covr`, an attached
    /// picture in Matroska or MP3), when it holds one (`MediaInfo.embeddedCover` names its codec).
    var coverStream: UnsafeMutablePointer<AVStream>? {
        streams.first {
            $0.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC != 0 && $0.pointee.attached_pic.size > 0
        }
    }
}

extension FrameReader {
    /// The cover picture embedded in the file, decoded and sized as asked (never enlarged past
    /// `.original`); nil when the file has none.
    public func embeddedCover(size: FrameSize = .original) throws(MediaIOError) -> PixelBuffer? {
        guard let stream = source.container.coverStream else { return nil }
        let decoder = try VideoDecoder(stream: stream, path: info.path, threads: 1)
        guard let packet = OwnedPacket() else { throw .unreadable(path: info.path, reason: tr("out of memory")) }
        guard av_packet_ref(packet.pointer, &stream.pointee.attached_pic) >= 0 else {
            throw .unreadable(path: info.path, reason: tr("out of memory"))
        }
        guard case .accepted = decoder.send(packet) else {
            throw .corrupt(path: info.path, detail: tr("the embedded cover picture does not decode"))
        }
        _ = decoder.send(OwnedPacket?.none)
        guard case .frame(let frame) = try decoder.receive() else {
            throw .corrupt(path: info.path, detail: tr("the embedded cover picture does not decode"))
        }
        let f = frame.pointer.pointee
        let natural = PixelSize(width: Int(f.width), height: Int(f.height))
        guard natural.width > 0, natural.height > 0,
              let picture = FrameScaler().convert(frame, to: size.resolve(natural)) else {
            throw .corrupt(path: info.path, detail: tr("the embedded cover picture cannot be converted"))
        }
        return picture
    }
}
