internal import CFFmpeg
import Foundation

extension MediaContainer {
    /// HDR10 metadata that only the bitstream carries (HEVC's SEI messages, which MP4 files
    /// written by FFmpeg 5 do not repeat in `mdcv`/`clli` boxes): the first frame's side data.
    /// Decodes the first picture alone, then rewinds; nil when it carries none.
    func bitstreamHDRMetadata(of stream: UnsafeMutablePointer<AVStream>) -> HDRMetadata? {
        defer { rewind() }
        guard let decoder = try? VideoDecoder(stream: stream, path: path, threads: 1) else { return nil }
        let index = stream.pointee.index
        var errors = 0
        // The metadata rides with the first picture; a few packets reach it even when the
        // first ones are damaged or not pictures.
        for _ in 0..<8 {
            guard let packet = try? readPacket(onDamage: .skip, accepting: { $0 == index }) else { break }
            if let frame = (try? decoder.decode(packet, errors: &errors))?.first {
                return HDRMetadata(frame: frame.pointer)
            }
        }
        return (try? decoder.decode(nil, errors: &errors))?.first.flatMap { HDRMetadata(frame: $0.pointer) }
    }
}
