import CFFmpeg
import Foundation
import ViewfinderCore

/// An open camera: reads frames from a V4L2 device or the virtual camera through libavdevice.
public final class Camera {
    public let device: CaptureDevice
    /// The size frames arrive at.
    public let size: PixelSize
    public let frameRate: Int
    private let context: UnsafeMutablePointer<AVFormatContext>
    private let stream: UnsafeMutablePointer<AVStream>
    private let decoder: VideoDecoder
    private let scaler = FrameScaler()

    /// Opens `device` at `size` (default: its first size) and `frameRate` (default: its first).
    public init(device: CaptureDevice, size: PixelSize? = nil, frameRate: Int? = nil) throws(MediaIOError) {
        _ = FFmpegRuntime.configure
        guard vf_load_capture_devices() == 0 else {
            throw .unreadable(path: device.id, reason: "libavdevice is not installed (Debian: libavdevice59)")
        }
        self.device = device
        let chosen = size ?? device.sizes.first ?? PixelSize(width: 640, height: 480)
        let rate = frameRate ?? device.frameRates.first ?? 30
        self.size = chosen
        self.frameRate = rate
        var options: OpaquePointer?
        defer { av_dict_free(&options) }
        let url: String
        let format: UnsafePointer<AVInputFormat>?
        if device.isVirtual {
            format = av_find_input_format("lavfi")
            url = "testsrc2=size=\(chosen.width)x\(chosen.height):rate=\(rate)"
        } else {
            format = av_find_input_format("video4linux2")
            url = device.id
            av_dict_set(&options, "video_size", "\(chosen.width)x\(chosen.height)", 0)
            av_dict_set(&options, "framerate", String(rate), 0)
        }
        guard let format else { throw .unreadable(path: device.id, reason: "this FFmpeg has no capture input for it") }
        var ctx: UnsafeMutablePointer<AVFormatContext>?
        let status = avformat_open_input(&ctx, url, format, &options)
        guard status >= 0, let ctx else {
            throw .unreadable(path: device.id, reason: "cannot open the camera: \(ffmpegMessage(status))")
        }
        context = ctx
        guard let video = (0..<Int(ctx.pointee.nb_streams)).compactMap({ ctx.pointee.streams[$0] }).first(where: {
            $0.mediaType == AVMEDIA_TYPE_VIDEO
        }) else {
            var owned: UnsafeMutablePointer<AVFormatContext>? = ctx
            avformat_close_input(&owned)
            throw .noVideoStream(path: device.id, audioCodec: nil)
        }
        stream = video
        do {
            decoder = try VideoDecoder(stream: video, path: device.id, threads: 1)
        } catch {
            var owned: UnsafeMutablePointer<AVFormatContext>? = ctx
            avformat_close_input(&owned)
            throw error
        }
    }

    deinit {
        var ctx: UnsafeMutablePointer<AVFormatContext>? = context
        avformat_close_input(&ctx)
    }

    /// The next decoded frame and its time since the camera started.
    func nextFrame() throws(MediaIOError) -> (OwnedFrame, MediaTime) {
        for _ in 0..<1000 {
            guard let packet = OwnedPacket() else { throw .unreadable(path: device.id, reason: "out of memory") }
            let status = av_read_frame(context, packet.pointer)
            if status == errorAgain { usleep(2000); continue }
            guard status >= 0 else { throw .unreadable(path: device.id, reason: "the camera stopped: \(ffmpegMessage(status))") }
            guard packet.streamIndex == stream.pointee.index else { continue }
            _ = decoder.send(packet)
            if case .frame(let frame) = try decoder.receive() {
                let tb = stream.pointee.time_base
                let start = stream.pointee.start_time == noPTS ? 0 : stream.pointee.start_time
                let time = MediaTime.ticks((frame.pts ?? start) - start, timeBase: Int64(tb.num), Int64(tb.den)) ?? .zero
                return (frame, time)
            }
        }
        throw .unreadable(path: device.id, reason: "the camera gives no pictures")
    }

    /// Takes a photo: a frame after the first few (real cameras settle their exposure first).
    public func takePhoto() throws(MediaIOError) -> PixelBuffer {
        var frame = try nextFrame().0
        if !device.isVirtual {
            for _ in 0..<5 { frame = try nextFrame().0 }
        }
        guard let picture = scaler.convert(frame, to: size) else {
            throw .noFrameDecoded(path: device.id, detail: "cannot convert the camera's picture")
        }
        return picture
    }

    /// Records H.264 MP4 to `url` until `maxDuration` (it stops there by itself) or until
    /// `progress` is cancelled (Ctrl-C): either way the file is finished and playable. The
    /// virtual camera runs at real-time pace, as a camera would.
    public func record(to url: URL, quality: CaptureQuality, maxDuration: MediaTime?,
                       progress: Progress? = nil) throws(MediaIOError) -> ExportResult {
        let output = try MP4Output(url: url, fastStart: true)
        let encodedSize = ExportPreset.encodedSize(for: size, box: quality.preset.box)
        let tb = AVRational(num: 1, den: Int32(frameRate))
        var settings = VideoEncoder.Quality(crf: quality.crf, preset: "veryfast", keyframeInterval: Int32(frameRate * 2), bFrames: 2)
        settings.fixedKeyframes = true
        let encoder = try VideoEncoder(size: encodedSize, timeBase: tb, frameRate: AVRational(num: Int32(frameRate), den: 1),
                                       quality: settings, globalHeader: output.needsGlobalHeader, path: url.path)
        encoder.describeColour(range: AVCOL_RANGE_MPEG, space: AVCOL_SPC_BT709, primaries: AVCOL_PRI_BT709, transfer: AVCOL_TRC_BT709)
        let outStream = try output.addStream(for: encoder.context)
        try output.start()
        if let maxDuration { progress?.totalUnitCount = max(1, Int64(maxDuration.seconds * 1000)) }
        let started = Date()
        var frames = 0
        var last = MediaTime.zero
        func write(_ packets: [OwnedPacket]) throws(MediaIOError) {
            for packet in packets {
                av_packet_rescale_ts(packet.pointer, tb, outStream.pointee.time_base)
                packet.pointer.pointee.stream_index = outStream.pointee.index
                try output.write(packet)
            }
        }
        while progress?.isCancelled != true {
            let (frame, time) = try nextFrame()
            if let maxDuration, time >= maxDuration { break }
            if device.isVirtual {
                let ahead = time.seconds - Date().timeIntervalSince(started)
                if ahead > 0 { usleep(useconds_t(ahead * 1_000_000)) }
            }
            try write(try encoder.encode(frame, pts: Int64(frames)))
            frames += 1
            last = time
            progress?.completedUnitCount = Int64(time.seconds * 1000)
        }
        try write(try encoder.flush())
        try output.finish()
        let duration = MediaTime(value: Int64(frames), timescale: Int64(frameRate))
        _ = last
        return ExportResult(method: encoder.name, note: nil, start: .zero, duration: duration, frameCount: frames,
                            size: encodedSize, audio: nil)
    }
}
