internal import CFFmpeg
import Foundation
import ViewfinderCore

/// Writes an animated GIF (looping forever) from pictures mapped onto one palette (each pixel
/// to its nearest palette colour, by libimagequant). The file appears at its destination only
/// when `finish()` succeeds.
public final class GIFWriter {
    private let destination: URL
    private let temporary: URL
    private let output: UnsafeMutablePointer<AVFormatContext>
    private let encoder: UnsafeMutablePointer<AVCodecContext>
    private let stream: UnsafeMutablePointer<AVStream>
    private let size: PixelSize
    private let mapper: PaletteMapper
    private let framesPerSecond: Int64
    private var nextPTS: Int64 = 0
    private var finished = false

    /// A GIF of `size` at `framesPerSecond` (GIF keeps delays in hundredths of a second).
    public init(url: URL, size: PixelSize, framesPerSecond: Int32, palette: ColorPalette) throws(MediaIOError) {
        _ = FFmpegRuntime.configure
        destination = url
        temporary = AtomicFile.temporaryURL(beside: url)
        self.size = size
        guard let mapper = PaletteMapper(palette: palette) else { throw .encodeFailed(path: url.path, detail: tr("out of memory")) }
        self.mapper = mapper
        self.framesPerSecond = Int64(framesPerSecond)
        var ctx: UnsafeMutablePointer<AVFormatContext>?
        guard avformat_alloc_output_context2(&ctx, nil, "gif", temporary.path) >= 0, let ctx,
              let codec = avcodec_find_encoder(AV_CODEC_ID_GIF), let enc = avcodec_alloc_context3(codec),
              let st = avformat_new_stream(ctx, nil) else {
            throw .encodeFailed(path: url.path, detail: tr("no GIF encoder in this FFmpeg build"))
        }
        output = ctx
        encoder = enc
        stream = st
        enc.pointee.width = Int32(size.width)
        enc.pointee.height = Int32(size.height)
        enc.pointee.pix_fmt = AV_PIX_FMT_PAL8
        enc.pointee.time_base = AVRational(num: 1, den: framesPerSecond)
        var status = avcodec_open2(enc, codec, nil)
        if status >= 0 { status = avcodec_parameters_from_context(st.pointee.codecpar, enc) }
        st.pointee.time_base = enc.pointee.time_base
        if status >= 0 { status = avio_open(&ctx.pointee.pb, temporary.path, AVIO_FLAG_WRITE) }
        if status >= 0 {
            var options: OpaquePointer?
            av_dict_set(&options, "loop", "0", 0)
            status = avformat_write_header(ctx, &options)
            av_dict_free(&options)
        }
        if status < 0 { throw .encodeFailed(path: url.path, detail: ffmpegMessage(status)) }
    }

    deinit {
        var enc: UnsafeMutablePointer<AVCodecContext>? = encoder
        avcodec_free_context(&enc)
        if output.pointee.pb != nil { avio_closep(&output.pointee.pb) }
        avformat_free_context(output)
        if !finished { try? FileManager.default.removeItem(at: temporary) }
    }

    /// Adds the next picture (it must have the writer's size).
    public func append(_ picture: PixelBuffer) throws(MediaIOError) {
        guard picture.size == size else { throw .encodeFailed(path: destination.path, detail: tr("picture is {size}, expected {expected}", ["size": picture.size, "expected": size])) }
        guard let frame = OwnedFrame() else { throw .encodeFailed(path: destination.path, detail: tr("out of memory")) }
        let f = frame.pointer
        f.pointee.format = AV_PIX_FMT_PAL8.rawValue
        f.pointee.width = Int32(size.width)
        f.pointee.height = Int32(size.height)
        guard av_frame_get_buffer(f, 0) >= 0, let plane = f.pointee.data.0, let table = f.pointee.data.1 else {
            throw .encodeFailed(path: destination.path, detail: tr("out of memory"))
        }
        guard let indices = mapper.indices(for: picture) else { throw .encodeFailed(path: destination.path, detail: tr("out of memory")) }
        let stride = Int(f.pointee.linesize.0)
        indices.withUnsafeBufferPointer { src in
            guard let base = src.baseAddress else { return }
            for y in 0..<size.height { (plane + y * stride).update(from: base + y * size.width, count: size.width) }
        }
        table.withMemoryRebound(to: UInt32.self, capacity: 256) { entries in
            for i in 0..<256 {
                let c = i < mapper.colors.count ? mapper.colors[i] : RGB(0, 0, 0)
                entries[i] = 0xFF00_0000 | UInt32(c.r) << 16 | UInt32(c.g) << 8 | UInt32(c.b)
            }
        }
        f.pointee.pts = nextPTS
        nextPTS += 1
        try send(frame)
    }

    /// Flushes, writes the trailer and moves the file into place.
    public func finish() throws(MediaIOError) {
        guard !finished else { return }
        // The muxer gives the last frame the delay of the one before it; give it its own, so
        // that the animation lasts frames / fps to the hundredth (30 frames at 30 fps: 100, not 101).
        if nextPTS > 0, framesPerSecond > 0 {
            let finalDelay = centiseconds(atFrame: nextPTS) - centiseconds(atFrame: nextPTS - 1)
            av_opt_set_int(output.pointee.priv_data, "final_delay", finalDelay, 0)
        }
        try send(nil)
        let status = av_write_trailer(output)
        avio_closep(&output.pointee.pb)
        guard status >= 0 else { throw .encodeFailed(path: destination.path, detail: ffmpegMessage(status)) }
        do {
            try AtomicFile.commit(temporary, to: destination)
        } catch {
            throw .writeFailed(path: destination.path, reason: error.reason)
        }
        finished = true
    }

    /// When frame `k` starts, in the hundredths of a second GIF counts in (rounded to the nearest,
    /// as FFmpeg rescales the timestamps).
    private func centiseconds(atFrame k: Int64) -> Int64 {
        (k * 200 + framesPerSecond) / (2 * framesPerSecond)
    }

    private func send(_ frame: OwnedFrame?) throws(MediaIOError) {
        var status = avcodec_send_frame(encoder, frame?.pointer)
        guard status >= 0 || status == errorEOF else { throw .encodeFailed(path: destination.path, detail: ffmpegMessage(status)) }
        while true {
            guard let packet = OwnedPacket() else { throw .encodeFailed(path: destination.path, detail: tr("out of memory")) }
            status = avcodec_receive_packet(encoder, packet.pointer)
            if status == errorAgain || status == errorEOF { return }
            guard status >= 0 else { throw .encodeFailed(path: destination.path, detail: ffmpegMessage(status)) }
            av_packet_rescale_ts(packet.pointer, encoder.pointee.time_base, stream.pointee.time_base)
            packet.pointer.pointee.stream_index = stream.pointee.index
            status = av_interleaved_write_frame(output, packet.pointer)
            guard status >= 0 else { throw .writeFailed(path: destination.path, reason: ffmpegMessage(status)) }
        }
    }
}
