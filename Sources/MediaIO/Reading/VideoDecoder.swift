internal import CFFmpeg
import Foundation
import ViewfinderCore

/// Owns an `AVCodecContext` opened for one video stream.
final class VideoDecoder {
    let context: UnsafeMutablePointer<AVCodecContext>

    init(stream: UnsafeMutablePointer<AVStream>, path: String, threads: Int32 = 0) throws(MediaIOError) {
        let parameters = stream.pointee.codecpar
        let id = stream.parameters.codec_id
        guard let codec = avcodec_find_decoder(id) else {
            throw .unsupportedCodec(path: path, codec: codecName(id))
        }
        guard let ctx = avcodec_alloc_context3(codec) else {
            throw .unreadable(path: path, reason: "out of memory")
        }
        context = ctx
        guard avcodec_parameters_to_context(ctx, parameters) >= 0 else {
            throw .corrupt(path: path, detail: "invalid codec parameters")
        }
        ctx.pointee.pkt_timebase = stream.pointee.time_base
        ctx.pointee.thread_count = threads
        ctx.pointee.thread_type = FF_THREAD_FRAME | FF_THREAD_SLICE
        let result = avcodec_open2(ctx, codec, nil)
        guard result >= 0 else {
            throw .corrupt(path: path, detail: "cannot open the \(codecName(id)) decoder: \(ffmpegMessage(result))")
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
        guard let frame = OwnedFrame() else { throw .unreadable(path: "", reason: "out of memory") }
        let result = avcodec_receive_frame(context, frame.pointer)
        if result >= 0 { return .frame(frame) }
        if result == errorAgain { return .needsInput }
        if result == errorEOF { return .drained }
        return .failed(result)
    }

    enum ReceiveResult {
        case frame(OwnedFrame)
        case needsInput
        case drained
        case failed(Int32)
    }
}
