internal import CFFmpeg
import Foundation
import ViewfinderCore

/// Process-wide FFmpeg settings, applied once before the first call into the library.
enum FFmpegRuntime {
    /// Allocations larger than this fail inside FFmpeg instead of exhausting memory on a
    /// fuzzed header (an 8K RGBA frame is about 130 MB).
    static let maxAllocation = 1 << 30

    static let configure: Void = {
        let level = ProcessInfo.processInfo.environment["VIEWFINDER_FFMPEG_LOG"] == nil ? AV_LOG_QUIET : AV_LOG_INFO
        av_log_set_level(level)
        av_max_alloc(maxAllocation)
    }()
}

/// FFmpeg's text for an error code.
func ffmpegMessage(_ code: Int32) -> String {
    var buffer = [CChar](repeating: 0, count: 256)
    vf_av_strerror(code, &buffer, buffer.count)
    let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
    return String(decoding: bytes, as: UTF8.self)
}

let noPTS = vf_av_nopts_value()
let errorAgain = vf_averror_eagain()
let errorEOF = vf_averror_eof()

extension AVRational {
    /// The rational as an exact `MediaTime` (num/den seconds), nil when undefined.
    var mediaTime: MediaTime? {
        guard den > 0, num >= 0 else { return nil }
        return MediaTime(value: Int64(num), timescale: Int64(den))
    }
}

/// A decoded frame that this process owns; freed when the last reference goes.
final class OwnedFrame {
    let pointer: UnsafeMutablePointer<AVFrame>

    init?() {
        guard let frame = av_frame_alloc() else { return nil }
        pointer = frame
    }

    /// Takes ownership of a frame allocated elsewhere (e.g. by `av_frame_clone`).
    init(adopting frame: UnsafeMutablePointer<AVFrame>) {
        pointer = frame
    }

    deinit {
        var frame: UnsafeMutablePointer<AVFrame>? = pointer
        av_frame_free(&frame)
    }

    /// The presentation timestamp in the stream's time base, or nil when the decoder had none.
    var pts: Int64? {
        let p = pointer.pointee.pts
        if p != noPTS { return p }
        let guess = pointer.pointee.best_effort_timestamp
        return guess != noPTS ? guess : nil
    }

    var isKeyframe: Bool { pointer.pointee.key_frame != 0 }
}

/// Sends `frame` (nil: the end) to an open encoder and returns every packet it has ready.
func encodePackets(_ context: UnsafeMutablePointer<AVCodecContext>, _ frame: OwnedFrame?, path: String) throws(MediaIOError) -> [OwnedPacket] {
    var status = avcodec_send_frame(context, frame?.pointer)
    guard status >= 0 || status == errorEOF else { throw .encodeFailed(path: path, detail: ffmpegMessage(status)) }
    var packets: [OwnedPacket] = []
    while true {
        guard let packet = OwnedPacket() else { throw .encodeFailed(path: path, detail: tr("out of memory")) }
        status = avcodec_receive_packet(context, packet.pointer)
        if status == errorAgain || status == errorEOF { return packets }
        guard status >= 0 else { throw .encodeFailed(path: path, detail: ffmpegMessage(status)) }
        packets.append(packet)
    }
}

/// The next decoded frame of `stream` from a live capture input (a camera, a microphone),
/// waiting for it; `stopped` names the failure when the input ends or fails.
func nextCapturedFrame(from context: UnsafeMutablePointer<AVFormatContext>, stream: UnsafeMutablePointer<AVStream>,
                       decoder: VideoDecoder, device: String,
                       stopped: (String) -> MediaIOError) throws(MediaIOError) -> OwnedFrame {
    for _ in 0..<1000 {
        guard let packet = OwnedPacket() else { throw .unreadable(path: device, reason: tr("out of memory")) }
        let status = av_read_frame(context, packet.pointer)
        if status == errorAgain { usleep(2000); continue }
        guard status >= 0 else { throw stopped(ffmpegMessage(status)) }
        guard packet.streamIndex == stream.pointee.index else { continue }
        _ = decoder.send(packet)
        if case .frame(let frame) = try decoder.receive() { return frame }
    }
    throw stopped(tr("it gives nothing"))
}

/// A demuxed packet that this process owns.
package final class OwnedPacket {
    let pointer: UnsafeMutablePointer<AVPacket>

    init?() {
        guard let packet = av_packet_alloc() else { return nil }
        pointer = packet
    }

    deinit {
        var packet: UnsafeMutablePointer<AVPacket>? = pointer
        av_packet_free(&packet)
    }

    var pts: Int64? { pointer.pointee.pts != noPTS ? pointer.pointee.pts : nil }
    var dts: Int64? { pointer.pointee.dts != noPTS ? pointer.pointee.dts : nil }
    var isKeyframe: Bool { pointer.pointee.flags & AV_PKT_FLAG_KEY != 0 }
    /// Packets an edit list cuts away: decoded as references, never shown.
    var isDiscarded: Bool { pointer.pointee.flags & AV_PKT_FLAG_DISCARD != 0 }
    var streamIndex: Int32 { pointer.pointee.stream_index }
}

extension UnsafeMutablePointer where Pointee == AVStream {
    /// The stream's codec parameters (FFmpeg always sets them for a demuxed stream).
    var parameters: AVCodecParameters { pointee.codecpar?.pointee ?? AVCodecParameters() }

    var mediaType: AVMediaType { parameters.codec_type }
}
