internal import CFFmpeg
import Foundation
import ViewfinderCore

/// Re-encodes an audio stream to AAC (for MP4 outputs whose input audio MP4 cannot hold):
/// decode, then `AACEncoder`. The first sample keeps its place against the video: audio that
/// starts after the output's start keeps its delay, samples before it are dropped.
final class AudioReencoder {
    private let decoder: VideoDecoder
    private let aac: AACEncoder
    /// The input's time base and the time on its timeline where the output starts.
    private let timeBase: AVRational
    private let start: MediaTime

    init(input: UnsafeMutablePointer<AVStream>, start: MediaTime, globalHeader: Bool, path: String) throws(MediaIOError) {
        self.start = start
        timeBase = input.pointee.time_base
        decoder = try VideoDecoder(stream: input, path: path, threads: 1)
        let dec = decoder.context.pointee
        aac = try AACEncoder(inputLayout: dec.ch_layout, format: dec.sample_fmt, rate: dec.sample_rate,
                             globalHeader: globalHeader, path: path)
    }

    /// The AAC encoder, for the output stream's parameters and time base.
    var encoder: UnsafeMutablePointer<AVCodecContext> { aac.context }

    /// Decodes a packet (nil = end) and returns the AAC packets that became ready.
    func feed(_ packet: OwnedPacket?) throws(MediaIOError) -> [OwnedPacket] {
        _ = decoder.send(packet)
        var packets: [OwnedPacket] = []
        while case .frame(let frame) = try decoder.receive() {
            if !aac.isPlaced, let pts = frame.pts { place(firstSampleAt: pts) }
            packets += try aac.encode(frame)
        }
        if packet == nil { packets += try aac.encode(nil) }
        return packets
    }

    /// Places the first decoded sample at its time from the output's start.
    private func place(firstSampleAt pts: Int64) {
        guard let time = MediaTime.ticks(pts, timeBase: Int64(timeBase.num), Int64(timeBase.den)),
              let offset = time.subtracting(start) else { return }
        aac.place(firstSampleAt: offset)
    }
}
