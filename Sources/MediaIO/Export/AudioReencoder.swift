internal import CFFmpeg
import Foundation
import ViewfinderCore

/// Re-encodes an audio stream to AAC (for MP4 outputs whose input audio MP4 cannot hold):
/// decode, convert to the encoder's sample format, re-frame into 1024-sample frames, encode.
/// The first sample keeps its place against the video: audio that starts after the output's
/// start keeps its delay, samples before it are dropped.
final class AudioReencoder {
    let encoder: UnsafeMutablePointer<AVCodecContext>
    private let decoder: VideoDecoder
    private var resampler: OpaquePointer?
    private let fifo: OpaquePointer
    private var samplesOut: Int64 = 0
    private let path: String
    /// The input's time base and the time on its timeline where the output starts.
    private let timeBase: AVRational
    private let start: MediaTime
    private var positioned = false
    /// Converted samples still to drop because they sound before `start`.
    private var samplesToDrop: Int64 = 0

    init(input: UnsafeMutablePointer<AVStream>, start: MediaTime, globalHeader: Bool, path: String) throws(MediaIOError) {
        self.path = path
        self.start = start
        timeBase = input.pointee.time_base
        decoder = try VideoDecoder(stream: input, path: path, threads: 1)
        let dec = decoder.context
        guard let codec = avcodec_find_encoder(AV_CODEC_ID_AAC), let enc = avcodec_alloc_context3(codec) else {
            throw .encodeFailed(path: path, detail: "no AAC encoder in this FFmpeg build")
        }
        encoder = enc
        let channels = min(2, max(1, Int32(dec.pointee.ch_layout.nb_channels)))
        av_channel_layout_default(&enc.pointee.ch_layout, channels)
        let rate = dec.pointee.sample_rate > 0 ? dec.pointee.sample_rate : 48000
        enc.pointee.sample_rate = min(96000, max(8000, rate))
        enc.pointee.sample_fmt = AV_SAMPLE_FMT_FLTP
        enc.pointee.bit_rate = channels == 1 ? 96_000 : 160_000
        enc.pointee.time_base = AVRational(num: 1, den: enc.pointee.sample_rate)
        if globalHeader { enc.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER }
        var status = avcodec_open2(enc, codec, nil)
        guard status >= 0 else { throw .encodeFailed(path: path, detail: "cannot open the AAC encoder: \(ffmpegMessage(status))") }

        var inputLayout = AVChannelLayout()
        if dec.pointee.ch_layout.order == AV_CHANNEL_ORDER_UNSPEC || dec.pointee.ch_layout.nb_channels == 0 {
            av_channel_layout_default(&inputLayout, max(1, dec.pointee.ch_layout.nb_channels))
        } else {
            av_channel_layout_copy(&inputLayout, &dec.pointee.ch_layout)
        }
        defer { av_channel_layout_uninit(&inputLayout) }
        status = swr_alloc_set_opts2(&resampler, &enc.pointee.ch_layout, AV_SAMPLE_FMT_FLTP, enc.pointee.sample_rate,
                                     &inputLayout, dec.pointee.sample_fmt, rate, 0, nil)
        if status >= 0, let resampler { status = swr_init(resampler) }
        guard status >= 0, let made = av_audio_fifo_alloc(AV_SAMPLE_FMT_FLTP, channels, 4096) else {
            throw .encodeFailed(path: path, detail: "cannot convert this audio: \(ffmpegMessage(status))")
        }
        fifo = made
    }

    deinit {
        av_audio_fifo_free(fifo)
        swr_free(&resampler)
        var enc: UnsafeMutablePointer<AVCodecContext>? = encoder
        avcodec_free_context(&enc)
    }

    /// Decodes a packet (nil = end) and returns the AAC packets that became ready.
    func feed(_ packet: OwnedPacket?) throws(MediaIOError) -> [OwnedPacket] {
        _ = decoder.send(packet)
        while case .frame(let frame) = try decoder.receive() {
            try convert(frame)
        }
        if packet == nil {
            try convert(nil)
            return try drain(final: true)
        }
        return try drain(final: false)
    }

    /// Places the first decoded sample at its time from the output's start (in encoder samples).
    private func position(firstSampleAt pts: Int64) {
        positioned = true
        let rate = MediaTime(value: Int64(encoder.pointee.sample_rate), timescale: 1)
        guard let time = MediaTime.ticks(pts, timeBase: Int64(timeBase.num), Int64(timeBase.den)),
              let offset = time.subtracting(start), let samples = offset.ticks(atRate: rate) else { return }
        if samples > 0 { samplesOut = samples } else { samplesToDrop = -samples }
    }

    private func convert(_ frame: OwnedFrame?) throws(MediaIOError) {
        guard let resampler else { return }
        if !positioned, let pts = frame?.pts { position(firstSampleAt: pts) }
        let inCount = frame.map { Int32($0.pointer.pointee.nb_samples) } ?? 0
        let capacity = swr_get_out_samples(resampler, inCount)
        guard capacity > 0 else { return }
        var planes: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?
        let channels = encoder.pointee.ch_layout.nb_channels
        guard av_samples_alloc_array_and_samples(&planes, nil, channels, capacity, AV_SAMPLE_FMT_FLTP, 0) >= 0 else {
            throw .encodeFailed(path: path, detail: "out of memory")
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
        let frameSize = encoder.pointee.frame_size > 0 ? encoder.pointee.frame_size : 1024
        while av_audio_fifo_size(fifo) >= frameSize || (final && av_audio_fifo_size(fifo) > 0) {
            let count = min(frameSize, av_audio_fifo_size(fifo))
            guard let frame = OwnedFrame() else { throw .encodeFailed(path: path, detail: "out of memory") }
            let f = frame.pointer
            f.pointee.nb_samples = count
            f.pointee.format = AV_SAMPLE_FMT_FLTP.rawValue
            f.pointee.sample_rate = encoder.pointee.sample_rate
            av_channel_layout_copy(&f.pointee.ch_layout, &encoder.pointee.ch_layout)
            guard av_frame_get_buffer(f, 0) >= 0 else { throw .encodeFailed(path: path, detail: "out of memory") }
            let read = withUnsafeMutablePointer(to: &f.pointee.data) { data in
                data.withMemoryRebound(to: UnsafeMutableRawPointer?.self, capacity: 8) { av_audio_fifo_read(fifo, $0, count) }
            }
            guard read == count else { throw .encodeFailed(path: path, detail: "audio buffer underrun") }
            f.pointee.pts = samplesOut
            samplesOut += Int64(count)
            packets += try encode(frame)
        }
        if final { packets += try encode(nil) }
        return packets
    }

    private func encode(_ frame: OwnedFrame?) throws(MediaIOError) -> [OwnedPacket] {
        var status = avcodec_send_frame(encoder, frame?.pointer)
        guard status >= 0 || status == errorEOF else { throw .encodeFailed(path: path, detail: ffmpegMessage(status)) }
        var packets: [OwnedPacket] = []
        while true {
            guard let packet = OwnedPacket() else { throw .encodeFailed(path: path, detail: "out of memory") }
            status = avcodec_receive_packet(encoder, packet.pointer)
            if status == errorAgain || status == errorEOF { return packets }
            guard status >= 0 else { throw .encodeFailed(path: path, detail: ffmpegMessage(status)) }
            packets.append(packet)
        }
    }
}
