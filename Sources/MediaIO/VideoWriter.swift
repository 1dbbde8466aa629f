import CFFmpeg
import Foundation
import ViewfinderCore

/// Encodes pictures into an MP4 file (H.264 when this FFmpeg has libx264, else MPEG-4 Part 2),
/// index at the front. The file appears at its destination only when `finish()` succeeds.
public final class VideoWriter {
    /// The encoder in use ("libx264" or "mpeg4").
    public let encoderName: String
    private let destination: URL
    private let temporary: URL
    private let output: UnsafeMutablePointer<AVFormatContext>
    private let encoder: UnsafeMutablePointer<AVCodecContext>
    private let stream: UnsafeMutablePointer<AVStream>
    private let size: PixelSize
    private var scaler: OpaquePointer?
    private var nextPTS: Int64 = 0
    private var finished = false

    /// Starts a file of `size` pictures at `framesPerSecond`, a keyframe every
    /// `keyframeInterval` frames and up to `bFrames` B-frames between references.
    public init(url: URL, size: PixelSize, framesPerSecond: Int32, keyframeInterval: Int32 = 60,
                bFrames: Int32 = 2) throws(MediaIOError) {
        _ = FFmpegRuntime.configure
        guard size.width >= 2, size.height >= 2, size.width % 2 == 0, size.height % 2 == 0, framesPerSecond > 0 else {
            throw .encodeFailed(path: url.path, detail: "the size must be even and at least 2×2, the rate positive")
        }
        destination = url
        temporary = AtomicFile.temporaryURL(beside: url)
        self.size = size
        var ctx: UnsafeMutablePointer<AVFormatContext>?
        guard avformat_alloc_output_context2(&ctx, nil, "mp4", temporary.path) >= 0, let ctx else {
            throw .encodeFailed(path: url.path, detail: "no MP4 muxer")
        }
        output = ctx
        let codec = avcodec_find_encoder_by_name("libx264") ?? avcodec_find_encoder(AV_CODEC_ID_MPEG4)
        guard let codec, let enc = avcodec_alloc_context3(codec), let st = avformat_new_stream(ctx, nil) else {
            avformat_free_context(ctx)
            throw .encodeFailed(path: url.path, detail: "no H.264 or MPEG-4 encoder")
        }
        encoder = enc
        stream = st
        encoderName = codec.pointee.name.map { String(cString: $0) } ?? "unknown"
        enc.pointee.width = Int32(size.width)
        enc.pointee.height = Int32(size.height)
        enc.pointee.pix_fmt = AV_PIX_FMT_YUV420P
        enc.pointee.time_base = AVRational(num: 1, den: framesPerSecond)
        enc.pointee.framerate = AVRational(num: framesPerSecond, den: 1)
        enc.pointee.gop_size = keyframeInterval
        enc.pointee.max_b_frames = bFrames
        enc.pointee.color_range = AVCOL_RANGE_MPEG
        enc.pointee.colorspace = AVCOL_SPC_BT709
        enc.pointee.color_primaries = AVCOL_PRI_BT709
        enc.pointee.color_trc = AVCOL_TRC_BT709
        if encoderName == "libx264" {
            av_opt_set(enc.pointee.priv_data, "preset", "medium", 0)
            av_opt_set(enc.pointee.priv_data, "crf", "18", 0)
            // Keyframes exactly every `keyframeInterval` frames, not at x264's scene cuts.
            av_opt_set(enc.pointee.priv_data, "x264-params", "scenecut=0", 0)
        } else {
            enc.pointee.bit_rate = Int64(size.width * size.height * 4)
        }
        if ctx.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0 {
            enc.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER
        }
        var status = avcodec_open2(enc, codec, nil)
        if status >= 0 { status = avcodec_parameters_from_context(st.pointee.codecpar, enc) }
        st.pointee.time_base = enc.pointee.time_base
        st.pointee.avg_frame_rate = enc.pointee.framerate
        if status >= 0 { status = avio_open(&ctx.pointee.pb, temporary.path, AVIO_FLAG_WRITE) }
        if status >= 0 {
            var options: OpaquePointer?
            av_dict_set(&options, "movflags", "+faststart", 0)
            status = avformat_write_header(ctx, &options)
            av_dict_free(&options)
        }
        if status < 0 {
            let detail = ffmpegMessage(status)
            release()
            throw .encodeFailed(path: url.path, detail: detail)
        }
    }

    deinit {
        release()
    }

    private func release() {
        sws_freeContext(scaler)
        scaler = nil
        var enc: UnsafeMutablePointer<AVCodecContext>? = encoder
        avcodec_free_context(&enc)
        if output.pointee.pb != nil { avio_closep(&output.pointee.pb) }
        avformat_free_context(output)
        if !finished { try? FileManager.default.removeItem(at: temporary) }
    }

    /// Encodes the next picture; it must have the writer's size.
    public func append(_ picture: PixelBuffer) throws(MediaIOError) {
        guard picture.size == size else {
            throw .encodeFailed(path: destination.path, detail: "picture is \(picture.size), expected \(size)")
        }
        guard let frame = OwnedFrame() else { throw .encodeFailed(path: destination.path, detail: "out of memory") }
        let f = frame.pointer
        f.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        f.pointee.width = Int32(size.width)
        f.pointee.height = Int32(size.height)
        guard av_frame_get_buffer(f, 0) >= 0 else { throw .encodeFailed(path: destination.path, detail: "out of memory") }
        scaler = sws_getCachedContext(scaler, Int32(size.width), Int32(size.height), AV_PIX_FMT_RGB24,
                                      Int32(size.width), Int32(size.height), AV_PIX_FMT_YUV420P,
                                      SWS_BICUBIC | SWS_ACCURATE_RND, nil, nil, nil)
        guard let scaler else { throw .encodeFailed(path: destination.path, detail: "no colour converter") }
        if let table = sws_getCoefficients(SWS_CS_ITU709) {
            sws_setColorspaceDetails(scaler, table, 1, table, 0, 0, 1 << 16, 1 << 16)
        }
        picture.bytes.withUnsafeBufferPointer { src in
            var sources: [UnsafePointer<UInt8>?] = [src.baseAddress, nil, nil, nil]
            var strides: [Int32] = [Int32(size.width * 3), 0, 0, 0]
            withUnsafeMutablePointer(to: &f.pointee.data) { data in
                data.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: 8) { planes in
                    withUnsafeMutablePointer(to: &f.pointee.linesize) { lines in
                        lines.withMemoryRebound(to: Int32.self, capacity: 8) { lineSizes in
                            _ = sws_scale(scaler, &sources, &strides, 0, Int32(size.height), planes, lineSizes)
                        }
                    }
                }
            }
        }
        f.pointee.pts = nextPTS
        nextPTS += 1
        try send(frame)
    }

    /// Flushes the encoder, writes the index and moves the file into place.
    public func finish() throws(MediaIOError) {
        guard !finished else { return }
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

    private func send(_ frame: OwnedFrame?) throws(MediaIOError) {
        var status = avcodec_send_frame(encoder, frame?.pointer)
        guard status >= 0 else { throw .encodeFailed(path: destination.path, detail: ffmpegMessage(status)) }
        while true {
            guard let packet = OwnedPacket() else { throw .encodeFailed(path: destination.path, detail: "out of memory") }
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
