internal import CFFmpeg
import Foundation
import ViewfinderCore

/// Owns an `AVCodecContext` opened for one video stream.
final class VideoDecoder {
    let context: UnsafeMutablePointer<AVCodecContext>

    /// With `strict`, any damage the decoder notices is an error (for checking what we wrote).
    init(stream: UnsafeMutablePointer<AVStream>, path: String, threads: Int32 = 0, strict: Bool = false) throws(MediaIOError) {
        let parameters = stream.pointee.codecpar
        let id = stream.parameters.codec_id
        guard let codec = avcodec_find_decoder(id) else {
            // A track whose codec the demuxer could not tell is damage, not a missing decoder.
            if id == AV_CODEC_ID_NONE {
                throw .corrupt(path: path, detail: tr("its video track does not say what codec it holds (damaged, or a format FFmpeg does not know)"))
            }
            throw .unsupportedCodec(path: path, codec: codecName(id))
        }
        guard let ctx = avcodec_alloc_context3(codec) else {
            throw .unreadable(path: path, reason: tr("out of memory"))
        }
        context = ctx
        guard avcodec_parameters_to_context(ctx, parameters) >= 0 else {
            throw .corrupt(path: path, detail: tr("invalid codec parameters"))
        }
        ctx.pointee.pkt_timebase = stream.pointee.time_base
        ctx.pointee.thread_count = threads
        ctx.pointee.thread_type = FF_THREAD_FRAME | FF_THREAD_SLICE
        if strict { ctx.pointee.err_recognition |= AV_EF_EXPLODE | AV_EF_CRCCHECK | AV_EF_BITSTREAM }
        let result = avcodec_open2(ctx, codec, nil)
        guard result >= 0 else {
            throw .corrupt(path: path, detail: tr("cannot open the {codec} decoder: {reason}", ["codec": codecName(id), "reason": ffmpegMessage(result)]))
        }
    }

    deinit {
        var ctx: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&ctx)
    }

    /// Which frames the decoder may skip for the packets sent from now on.
    var skip: AVDiscard {
        get { context.pointee.skip_frame }
        set { context.pointee.skip_frame = newValue }
    }

    /// Drops all state, as after a seek.
    func reset() {
        avcodec_flush_buffers(context)
    }

    /// Sends a packet (nil = end of stream). Returns false when the decoder is full and frames
    /// must be received first.
    func send(_ packet: OwnedPacket?) -> SendResult {
        let result = avcodec_send_packet(context, packet?.pointer)
        if result >= 0 { return .accepted }
        if result == errorAgain { return .full }
        if result == errorEOF { return .accepted }
        return .rejected(result)
    }

    enum SendResult {
        case accepted
        case full
        case rejected(Int32)
    }

    /// The next decoded frame, nil when the decoder needs more input or is drained.
    func receive() throws(MediaIOError) -> ReceiveResult {
        guard let frame = OwnedFrame() else { throw .unreadable(path: "", reason: tr("out of memory")) }
        let result = avcodec_receive_frame(context, frame.pointer)
        if result >= 0 { return .frame(frame) }
        if result == errorAgain { return .needsInput }
        if result == errorEOF { return .drained }
        return .failed(result)
    }

    /// Sends a packet (nil = end of stream) and returns every frame that became ready; counts
    /// packets and frames the decoder refused in `errors`.
    func decode(_ packet: OwnedPacket?, errors: inout Int) throws(MediaIOError) -> [OwnedFrame] {
        var frames: [OwnedFrame] = []
        func drain() throws(MediaIOError) {
            while true {
                switch try receive() {
                case .frame(let frame): frames.append(frame)
                case .failed:
                    errors += 1
                    if errors > 64 { return }
                case .needsInput, .drained: return
                }
            }
        }
        var sent = false
        while !sent {
            switch send(packet) {
            case .accepted: sent = true
            case .full: try drain()
            case .rejected:
                errors += 1
                sent = true
            }
        }
        try drain()
        return frames
    }

    enum ReceiveResult {
        case frame(OwnedFrame)
        case needsInput
        case drained
        case failed(Int32)
    }
}
