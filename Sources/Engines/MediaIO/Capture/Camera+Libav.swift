internal import CFFmpeg
import Foundation
import ViewfinderCore

/// Where a camera's pictures come from: libavdevice (V4L2, the virtual camera) or PipeWire.
/// `Camera` reads, converts and records every kind the same way.
protocol CameraInput: AnyObject {
    /// The size pictures arrive at.
    var size: PixelSize { get }
    /// Pictures a second.
    var frameRate: Int { get }
    /// The next picture, its time since the first and when it was taken on the capture clock.
    func next() throws(MediaIOError) -> (OwnedFrame, MediaTime, TimeInterval)
}

/// A V4L2 device or the virtual camera, through libavdevice.
final class LibavCameraInput: CameraInput {
    let device: CaptureDevice
    let size: PixelSize
    let frameRate: Int
    private let context: UnsafeMutablePointer<AVFormatContext>
    private let stream: UnsafeMutablePointer<AVStream>
    private let decoder: VideoDecoder
    /// When the virtual camera's time 0 is due on the capture clock.
    private var paceOrigin: TimeInterval = 0

    init(device: CaptureDevice, size chosen: PixelSize, frameRate rate: Int) throws(MediaIOError) {
        _ = FFmpegRuntime.configure
        guard vf_load_capture_devices() == 0 else {
            throw .unreadable(path: device.id, reason: tr("libavdevice is not installed (Debian: libavdevice59)"))
        }
        self.device = device
        size = chosen
        frameRate = rate
        var options: OpaquePointer?
        defer { av_dict_free(&options) }
        let url: String
        let format: UnsafePointer<AVInputFormat>?
        if device.isVirtual {
            format = av_find_input_format("lavfi")
            // Frame n is due at (first + n) / rate on the capture clock; the top quarter flashes
            // white at each whole second of it, when the virtual microphone clicks.
            let first = Int64((CaptureClock.now * Double(rate)).rounded(.up))
            paceOrigin = Double(first) / Double(rate)
            let beat = Int64(CaptureClock.virtualBeat * Double(rate))
            let pattern = device == .virtualFront ? "smptebars" : "testsrc2"
            url = "\(pattern)=size=\(chosen.width)x\(chosen.height):rate=\(rate),"
                + "drawbox=x=0:y=0:w=iw:h=ih/4:color=white:t=fill:enable='eq(mod(n+\(first % beat),\(beat)),0)'"
        } else {
            format = av_find_input_format("video4linux2")
            url = device.id
            av_dict_set(&options, "video_size", "\(chosen.width)x\(chosen.height)", 0)
            av_dict_set(&options, "framerate", String(rate), 0)
        }
        guard let format else { throw .unreadable(path: device.id, reason: tr("this FFmpeg has no capture input for it")) }
        var ctx: UnsafeMutablePointer<AVFormatContext>?
        let status = avformat_open_input(&ctx, url, format, &options)
        guard status >= 0, let ctx else {
            if status < 0, let reason = CaptureDevice.openFailure(-status) {
                throw .deviceUnavailable(device: device.id, reason: reason)
            }
            throw .unreadable(path: device.id, reason: tr("cannot open the camera: {reason}", ["reason": ffmpegMessage(status)]))
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

    /// The virtual camera is held to real time, as a camera would be (its test source would
    /// otherwise run flat out).
    func next() throws(MediaIOError) -> (OwnedFrame, MediaTime, TimeInterval) {
        let frame = try nextCapturedFrame(from: context, stream: stream, decoder: decoder, device: device.id) { why in
            .unreadable(path: device.id, reason: tr("the camera stopped: {reason}", ["reason": why]))
        }
        let tb = stream.pointee.time_base
        let start = stream.pointee.start_time == noPTS ? 0 : stream.pointee.start_time
        let time = MediaTime.ticks((frame.pts ?? start) - start, timeBase: Int64(tb.num), Int64(tb.den)) ?? .zero
        if device.isVirtual {
            keepRealTime(time)
            return (frame, time, paceOrigin + time.seconds)
        }
        // V4L2 frames carry the wall clock (libavdevice converts the driver's stamps).
        return (frame, time, CaptureClock.uptime(ofStamp: frame.pts, timeBase: tb))
    }

    private func keepRealTime(_ time: MediaTime) {
        let ahead = paceOrigin + time.seconds - CaptureClock.now
        if ahead > 0 { usleep(useconds_t(ahead * 1_000_000)) }
    }
}
