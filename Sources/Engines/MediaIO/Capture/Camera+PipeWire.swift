internal import CFFmpeg
internal import CPipeWireShim
import Foundation
import ViewfinderCore

/// A PipeWire camera, read through libpipewire: each picture is copied once, out of PipeWire's
/// buffer into a frame of the matching FFmpeg pixel format (an MJPEG picture is decoded by
/// FFmpeg's JPEG decoder), and stamped on the capture clock.
final class PipeWireCameraInput: CameraInput {
    let device: CaptureDevice
    let size: PixelSize
    let frameRate: Int
    private let stream: OpaquePointer
    /// The raw layout's FFmpeg pixel format, or nil for MJPEG (then `jpeg` decodes).
    private let pixelFormat: AVPixelFormat?
    private let jpeg: JPEGDecoder?
    /// The first picture's stamp (CLOCK_MONOTONIC nanoseconds): times are counted from it.
    private var firstTaken: Int64?

    /// How long a camera may go without sending a picture before it counts as stopped.
    static let pictureTimeout: TimeInterval = 5

    init(device: CaptureDevice, size chosen: PixelSize, frameRate rate: Int) throws(MediaIOError) {
        self.device = device
        let fd = try PipeWireCameras.descriptor(for: device.viaPortal ? .cameraPortal : .session)
        let target = String(device.id.dropFirst("pipewire:".count))
        var code: Int32 = 0
        var message = [CChar](repeating: 0, count: 256)
        guard let opened = vf_pw_stream_open(fd, target, Int32(chosen.width), Int32(chosen.height), Int32(rate),
                                             Int32(PipeWireCameras.answerTimeout * 1000), &code, &message, message.count) else {
            if [ENOENT, ECONNREFUSED, EHOSTDOWN].contains(-code) { throw PipeWireCameras.failure(-code, remote: device.viaPortal ? .cameraPortal : .session) }
            throw .unreadable(path: device.id, reason: tr("cannot open the camera: {reason}", ["reason": Self.text(message)]))
        }
        var format = VF_PW_FORMAT_UNKNOWN
        var width: Int32 = 0, height: Int32 = 0, num: Int32 = 0, den: Int32 = 0
        vf_pw_stream_format(opened, &format, &width, &height, &num, &den)
        let pixels = Self.pixelFormat(of: format)
        var decoder: JPEGDecoder?
        if format == VF_PW_FORMAT_MJPG {
            do {
                decoder = try JPEGDecoder(path: device.id)
            } catch {
                vf_pw_stream_close(opened)
                throw error
            }
        } else if pixels == nil {
            vf_pw_stream_close(opened)
            throw .unreadable(path: device.id, reason: tr("it offers no picture format Viewfinder reads (raw YUV or RGB, or MJPEG)"))
        }
        stream = opened
        pixelFormat = pixels
        jpeg = decoder
        size = PixelSize(width: Int(width), height: Int(height))
        // A variable rate (0/1) records at the rate asked for.
        frameRate = num > 0 && den > 0 ? max(1, Int((Double(num) / Double(den)).rounded())) : rate
    }

    deinit {
        vf_pw_stream_close(stream)
    }

    private static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func pixelFormat(of format: vf_pw_format) -> AVPixelFormat? {
        switch format {
        case VF_PW_FORMAT_YUY2: return AV_PIX_FMT_YUYV422
        case VF_PW_FORMAT_UYVY: return AV_PIX_FMT_UYVY422
        case VF_PW_FORMAT_I420: return AV_PIX_FMT_YUV420P
        case VF_PW_FORMAT_NV12: return AV_PIX_FMT_NV12
        case VF_PW_FORMAT_RGBX: return AV_PIX_FMT_RGB0
        case VF_PW_FORMAT_BGRX: return AV_PIX_FMT_BGR0
        case VF_PW_FORMAT_RGBA: return AV_PIX_FMT_RGBA
        case VF_PW_FORMAT_BGRA: return AV_PIX_FMT_BGRA
        case VF_PW_FORMAT_RGB: return AV_PIX_FMT_RGB24
        case VF_PW_FORMAT_BGR: return AV_PIX_FMT_BGR24
        case VF_PW_FORMAT_GRAY8: return AV_PIX_FMT_GRAY8
        default: return nil
        }
    }

    func next() throws(MediaIOError) -> (OwnedFrame, MediaTime, TimeInterval) {
        var picture = vf_pw_frame()
        var message = [CChar](repeating: 0, count: 256)
        let status = vf_pw_stream_read(stream, Int32(Self.pictureTimeout * 1000), &picture, &message, message.count)
        if status == -ETIMEDOUT {
            throw .unreadable(path: device.id, reason: tr("the camera sent no picture in {seconds} s", ["seconds": Int(Self.pictureTimeout)]))
        }
        guard status == 0 else {
            throw .unreadable(path: device.id, reason: tr("the camera stopped: {reason}", ["reason": Self.text(message)]))
        }
        let frame = try copy(picture)
        // On the capture clock however its epoch relates to CLOCK_MONOTONIC: how long ago.
        let takenAt = CaptureClock.now - Double(vf_pw_monotonic_ns() - picture.taken_ns) / 1e9
        let first = firstTaken ?? picture.taken_ns
        firstTaken = first
        return (frame, MediaTime(value: picture.taken_ns - first, timescale: 1_000_000_000), takenAt)
    }

    /// The picture in a frame of its own (PipeWire's buffer goes back to the camera at once).
    private func copy(_ picture: vf_pw_frame) throws(MediaIOError) -> OwnedFrame {
        if let jpeg {
            guard let bytes = picture.planes.0 else { throw .unreadable(path: device.id, reason: tr("out of memory")) }
            return try jpeg.decode(UnsafeRawBufferPointer(start: bytes, count: Int(picture.strides.0)))
        }
        guard let pixelFormat, let frame = OwnedFrame() else { throw .unreadable(path: device.id, reason: tr("out of memory")) }
        let f = frame.pointer
        f.pointee.format = pixelFormat.rawValue
        f.pointee.width = picture.width
        f.pointee.height = picture.height
        guard av_frame_get_buffer(f, 0) >= 0 else { throw .unreadable(path: device.id, reason: tr("out of memory")) }
        var source = picture
        let planes = Int(picture.plane_count)
        withUnsafeBytes(of: &source.planes) { sources in
            withUnsafeBytes(of: &source.strides) { strides in
                withUnsafeBytes(of: &source.rows) { rows in
                    withUnsafeMutableBytes(of: &f.pointee.data) { targets in
                        withUnsafeBytes(of: &f.pointee.linesize) { lines in
                            let from = sources.bindMemory(to: UnsafePointer<UInt8>?.self)
                            let to = targets.bindMemory(to: UnsafeMutablePointer<UInt8>?.self)
                            let stride = strides.bindMemory(to: Int32.self), count = rows.bindMemory(to: Int32.self)
                            let line = lines.bindMemory(to: Int32.self)
                            for p in 0..<min(planes, 4) {
                                guard let target = to[p], let origin = from[p] else { continue }
                                av_image_copy_plane(target, line[p], origin, stride[p], stride[p], count[p])
                            }
                        }
                    }
                }
            }
        }
        return frame
    }
}

/// FFmpeg's JPEG decoder, for the pictures of an MJPEG camera: one JPEG in, one frame out.
final class JPEGDecoder {
    private let context: UnsafeMutablePointer<AVCodecContext>
    private let path: String

    init(path: String) throws(MediaIOError) {
        self.path = path
        guard let codec = avcodec_find_decoder(AV_CODEC_ID_MJPEG) else {
            throw .unsupportedCodec(path: path, codec: "mjpeg")
        }
        guard let ctx = avcodec_alloc_context3(codec) else { throw .unreadable(path: path, reason: tr("out of memory")) }
        context = ctx
        ctx.pointee.thread_count = 1
        let result = avcodec_open2(ctx, codec, nil)
        guard result >= 0 else {
            throw .corrupt(path: path, detail: tr("cannot open the {codec} decoder: {reason}", ["codec": "mjpeg", "reason": ffmpegMessage(result)]))
        }
    }

    deinit {
        var ctx: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&ctx)
    }

    /// The picture in `bytes`; a JPEG the decoder refuses is an error (the camera sent damage).
    func decode(_ bytes: UnsafeRawBufferPointer) throws(MediaIOError) -> OwnedFrame {
        guard let packet = OwnedPacket(), let frame = OwnedFrame(),
              av_new_packet(packet.pointer, Int32(bytes.count)) >= 0, let data = packet.pointer.pointee.data,
              let source = bytes.baseAddress else {
            throw .unreadable(path: path, reason: tr("out of memory"))
        }
        data.update(from: source.assumingMemoryBound(to: UInt8.self), count: bytes.count)
        var status = avcodec_send_packet(context, packet.pointer)
        if status >= 0 { status = avcodec_receive_frame(context, frame.pointer) }
        guard status >= 0 else {
            throw .corrupt(path: path, detail: tr("the camera sent a picture that cannot be decoded: {reason}", ["reason": ffmpegMessage(status)]))
        }
        return frame
    }
}
