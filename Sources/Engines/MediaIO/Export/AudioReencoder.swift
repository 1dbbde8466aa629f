internal import CFFmpeg
import Foundation
import ViewfinderCore

/// Re-encodes an audio stream to AAC (for MP4 outputs whose input audio MP4 cannot hold, and
/// for the joins of a smart cut): decode, then `AACEncoder`.
///
/// Either the whole stream from `start` (the first sample keeps its place against the video:
/// audio that starts after the output's start keeps its delay, samples before it are dropped),
/// or kept windows of samples laid end to end (`keep(from:count:)`), each exactly as long as
/// it says, silence filling what the input lacks.
final class AudioReencoder {
    private let decoder: VideoDecoder
    private let aac: AACEncoder
    /// The input's time base and the time on its timeline where the output starts.
    private let timeBase: AVRational
    private let start: MediaTime
    private let path: String
    /// The window of input samples (at the decoder's rate) being kept, and the next sample
    /// of it still to come.
    private var window: (first: Int64, end: Int64)?
    private var next: Int64 = 0

    init(input: UnsafeMutablePointer<AVStream>, start: MediaTime, globalHeader: Bool, path: String) throws(MediaIOError) {
        self.start = start
        self.path = path
        timeBase = input.pointee.time_base
        decoder = try VideoDecoder(stream: input, path: path, threads: 1)
        let dec = decoder.context.pointee
        aac = try AACEncoder(inputLayout: dec.ch_layout, format: dec.sample_fmt, rate: dec.sample_rate,
                             globalHeader: globalHeader, path: path)
    }

    /// The AAC encoder, for the output stream's parameters and time base.
    var encoder: UnsafeMutablePointer<AVCodecContext> { aac.context }

    /// Keeps `count` input samples from sample `first` next (the decoder's rate), after the
    /// window before, which is first filled with silence to its length; the packets that fill
    /// made ready. The decoder starts afresh: the packets fed next begin before `first`.
    func keep(from first: Int64, count: Int64) throws(MediaIOError) -> [OwnedPacket] {
        let filled = try fill()
        avcodec_flush_buffers(decoder.context)
        aac.place(firstSampleAt: .zero)
        window = (first, first + count)
        next = first
        return filled
    }

    /// Decodes a packet (nil = end) and returns the AAC packets that became ready.
    func feed(_ packet: OwnedPacket?) throws(MediaIOError) -> [OwnedPacket] {
        _ = decoder.send(packet)
        var packets: [OwnedPacket] = []
        while case .frame(let frame) = try decoder.receive() {
            if window != nil {
                packets += try keep(frame)
                continue
            }
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

    // MARK: - Windows

    /// The part of a decoded frame inside the window, after silence for any samples the input
    /// skipped; a frame without a time follows the one before.
    private func keep(_ frame: OwnedFrame) throws(MediaIOError) -> [OwnedPacket] {
        guard let window else { return [] }
        let count = Int64(frame.pointer.pointee.nb_samples)
        let rate = Int64(max(1, decoder.context.pointee.sample_rate))
        let first = frame.pts.map { av_rescale_q($0, timeBase, AVRational(num: 1, den: Int32(clamping: rate))) } ?? next
        let from = max(first, next)
        let to = min(first + count, window.end)
        guard to > from else { return [] }
        var packets = try silence(from > next ? from - next : 0)
        let kept = from == first && to == first + count ? frame : try slice(frame, from: Int(from - first), count: Int(to - from))
        packets += try aac.encode(kept)
        next = to
        return packets
    }

    /// Silence to the end of the current window.
    private func fill() throws(MediaIOError) -> [OwnedPacket] {
        guard let window, next < window.end else { return [] }
        defer { next = window.end }
        return try silence(window.end - next)
    }

    /// `count` samples of silence in the decoder's format, encoded.
    private func silence(_ count: Int64) throws(MediaIOError) -> [OwnedPacket] {
        guard count > 0 else { return [] }
        let dec = decoder.context.pointee
        guard let frame = OwnedFrame() else { throw .encodeFailed(path: path, detail: tr("out of memory")) }
        let f = frame.pointer
        f.pointee.format = dec.sample_fmt.rawValue
        f.pointee.sample_rate = dec.sample_rate
        f.pointee.nb_samples = Int32(clamping: count)
        var layout = dec.ch_layout
        guard av_channel_layout_copy(&f.pointee.ch_layout, &layout) >= 0, av_frame_get_buffer(f, 0) >= 0 else {
            throw .encodeFailed(path: path, detail: tr("out of memory"))
        }
        av_samples_set_silence(f.pointee.extended_data, 0, f.pointee.nb_samples, f.pointee.ch_layout.nb_channels, dec.sample_fmt)
        next += count
        return try aac.encode(frame)
    }

    /// `count` samples of `frame` from sample `offset`, as a frame of their own.
    private func slice(_ frame: OwnedFrame, from offset: Int, count: Int) throws(MediaIOError) -> OwnedFrame {
        guard let made = OwnedFrame() else { throw .encodeFailed(path: path, detail: tr("out of memory")) }
        let (src, dst) = (frame.pointer, made.pointer)
        dst.pointee.format = src.pointee.format
        dst.pointee.sample_rate = src.pointee.sample_rate
        dst.pointee.nb_samples = Int32(count)
        guard av_channel_layout_copy(&dst.pointee.ch_layout, &src.pointee.ch_layout) >= 0, av_frame_get_buffer(dst, 0) >= 0 else {
            throw .encodeFailed(path: path, detail: tr("out of memory"))
        }
        av_samples_copy(dst.pointee.extended_data, src.pointee.extended_data, 0, Int32(offset), Int32(count),
                        src.pointee.ch_layout.nb_channels, AVSampleFormat(rawValue: src.pointee.format))
        return made
    }
}
