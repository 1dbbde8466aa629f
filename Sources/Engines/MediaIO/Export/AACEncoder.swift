internal import CFFmpeg
import Foundation
import ViewfinderCore

/// AAC encoding of decoded audio in any sample format, rate and layout: converts to the
/// encoder's planar float, re-frames into the encoder's frame size and encodes. Its time base is
/// one sample; the first sample it is given sounds at the place `place(firstSampleAt:)` names
/// (later samples follow it without gaps).
final class AACEncoder {
    let context: UnsafeMutablePointer<AVCodecContext>
    private var resampler: OpaquePointer?
    private let fifo: OpaquePointer
    private var samplesOut: Int64 = 0
    private let path: String
    private var placed = false
    /// Converted samples still to drop because they sound before the output's start.
    private var samplesToDrop: Int64 = 0

    /// An encoder for input of `layout`, `format` and `rate` (at most two channels are kept).
    init(inputLayout layout: AVChannelLayout, format: AVSampleFormat, rate inputRate: Int32,
         globalHeader: Bool, path: String) throws(MediaIOError) {
        self.path = path
        guard let codec = avcodec_find_encoder(AV_CODEC_ID_AAC), let enc = avcodec_alloc_context3(codec) else {
            throw .encodeFailed(path: path, detail: tr("no AAC encoder in this FFmpeg build"))
        }
        context = enc
        let channels = min(2, max(1, layout.nb_channels))
        av_channel_layout_default(&enc.pointee.ch_layout, channels)
        let rate = inputRate > 0 ? inputRate : 48000
        enc.pointee.sample_rate = min(96000, max(8000, rate))
        enc.pointee.sample_fmt = AV_SAMPLE_FMT_FLTP
        enc.pointee.bit_rate = channels == 1 ? 96_000 : 160_000
        enc.pointee.time_base = AVRational(num: 1, den: enc.pointee.sample_rate)
        if globalHeader { enc.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER }
        var status = avcodec_open2(enc, codec, nil)
        guard status >= 0 else { throw .encodeFailed(path: path, detail: tr("cannot open the AAC encoder: {reason}", ["reason": ffmpegMessage(status)])) }

        var inputLayout = AVChannelLayout()
        if layout.order == AV_CHANNEL_ORDER_UNSPEC || layout.nb_channels == 0 {
            av_channel_layout_default(&inputLayout, max(1, layout.nb_channels))
        } else {
            var source = layout
            av_channel_layout_copy(&inputLayout, &source)
        }
        defer { av_channel_layout_uninit(&inputLayout) }
        status = swr_alloc_set_opts2(&resampler, &enc.pointee.ch_layout, AV_SAMPLE_FMT_FLTP, enc.pointee.sample_rate,
                                     &inputLayout, format, rate, 0, nil)
        if status >= 0, let resampler { status = swr_init(resampler) }
        guard status >= 0, let made = av_audio_fifo_alloc(AV_SAMPLE_FMT_FLTP, channels, 4096) else {
            throw .encodeFailed(path: path, detail: tr("cannot convert this audio: {reason}", ["reason": ffmpegMessage(status)]))
        }
        fifo = made
    }

    deinit {
        av_audio_fifo_free(fifo)
        swr_free(&resampler)
        var enc: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&enc)
    }

    /// The encoder's sample rate (its time base is one sample).
    var sampleRate: Int32 { context.pointee.sample_rate }

    /// Whether the first sample has been placed.
    var isPlaced: Bool { placed }

    /// Places the first sample `offset` after the output's start: a positive offset is kept as a
    /// delay, samples before the start are dropped. Only the first call counts.
    func place(firstSampleAt offset: MediaTime) {
        guard !placed else { return }
        placed = true
        let rate = MediaTime(value: Int64(sampleRate), timescale: 1)
        guard let samples = offset.ticks(atRate: rate) else { return }
        if samples > 0 { samplesOut = samples } else { samplesToDrop = -samples }
    }

    /// Converts `frame` (nil: the end, which also flushes the encoder) and returns the AAC
    /// packets that became ready, timed in samples.
    func encode(_ frame: OwnedFrame?) throws(MediaIOError) -> [OwnedPacket] {
        if !placed { place(firstSampleAt: .zero) }
        try convert(frame)
        return try drain(final: frame == nil)
    }

    private func convert(_ frame: OwnedFrame?) throws(MediaIOError) {
        guard let resampler else { return }
        let inCount = frame.map { Int32($0.pointer.pointee.nb_samples) } ?? 0
        let capacity = swr_get_out_samples(resampler, inCount)
        guard capacity > 0 else { return }
        var planes: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?
        let channels = context.pointee.ch_layout.nb_channels
        guard av_samples_alloc_array_and_samples(&planes, nil, channels, capacity, AV_SAMPLE_FMT_FLTP, 0) >= 0 else {
            throw .encodeFailed(path: path, detail: tr("out of memory"))
        }
        defer {
            av_freep(planes)
            av_freep(&planes)
        }
        let converted: Int32
        if let frame, let extended = frame.pointer.pointee.extended_data {
            // extended_data lists every channel's plane (data[] holds only the first eight).
            converted = UnsafeMutableRawPointer(extended).withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) {
                swr_convert(resampler, planes, capacity, $0, inCount)
            }
        } else {
            converted = swr_convert(resampler, planes, capacity, nil, 0)
        }
        if converted > 0 {
            _ = planes.map { p in
                UnsafeMutableRawPointer(p).withMemoryRebound(to: UnsafeMutableRawPointer?.self, capacity: Int(channels)) {
                    av_audio_fifo_write(fifo, $0, converted)
                }
            }
        }
        if samplesToDrop > 0 {
            let dropped = min(Int32(clamping: samplesToDrop), av_audio_fifo_size(fifo))
            av_audio_fifo_drain(fifo, dropped)
            samplesToDrop -= Int64(dropped)
        }
    }

    private func drain(final: Bool) throws(MediaIOError) -> [OwnedPacket] {
        var packets: [OwnedPacket] = []
        let frameSize = context.pointee.frame_size > 0 ? context.pointee.frame_size : 1024
        while av_audio_fifo_size(fifo) >= frameSize || (final && av_audio_fifo_size(fifo) > 0) {
            let count = min(frameSize, av_audio_fifo_size(fifo))
            guard let frame = OwnedFrame() else { throw .encodeFailed(path: path, detail: tr("out of memory")) }
            let f = frame.pointer
            f.pointee.nb_samples = count
            f.pointee.format = AV_SAMPLE_FMT_FLTP.rawValue
            f.pointee.sample_rate = sampleRate
            av_channel_layout_copy(&f.pointee.ch_layout, &context.pointee.ch_layout)
            guard av_frame_get_buffer(f, 0) >= 0 else { throw .encodeFailed(path: path, detail: tr("out of memory")) }
            let read = withUnsafeMutablePointer(to: &f.pointee.data) { data in
                data.withMemoryRebound(to: UnsafeMutableRawPointer?.self, capacity: 8) { av_audio_fifo_read(fifo, $0, count) }
            }
            guard read == count else { throw .encodeFailed(path: path, detail: tr("audio buffer underrun")) }
            f.pointee.pts = samplesOut
            samplesOut += Int64(count)
            packets += try send(frame)
        }
        if final { packets += try send(nil) }
        return packets
    }

    private func send(_ frame: OwnedFrame?) throws(MediaIOError) -> [OwnedPacket] {
        try encodePackets(context, frame, path: path)
    }
}
