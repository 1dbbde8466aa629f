internal import CFFmpeg
import Foundation
import ViewfinderCore

/// An open camera: reads frames from a V4L2 device or the virtual camera through libavdevice.
/// Photos and recordings are made by Capture's `CameraSession`, whose one thread reads the
/// camera for both front ends.
public final class Camera {
    public let device: CaptureDevice
    /// The size frames arrive at.
    public let size: PixelSize
    public let frameRate: Int
    private let context: UnsafeMutablePointer<AVFormatContext>
    private let stream: UnsafeMutablePointer<AVStream>
    private let decoder: VideoDecoder
    private let scaler = FrameScaler()
    /// When the virtual camera's time 0 is due on the capture clock.
    private var paceOrigin: TimeInterval = 0
    /// Frames read since the camera opened.
    public private(set) var framesRead = 0

    /// Opens `device` at `size` (default: its first size) and `frameRate` (default: its first).
    public init(device: CaptureDevice, size: PixelSize? = nil, frameRate: Int? = nil) throws(MediaIOError) {
        _ = FFmpegRuntime.configure
        if let reason = device.unavailableReason { throw .deviceUnavailable(device: device.id, reason: reason) }
        guard vf_load_capture_devices() == 0 else {
            throw .unreadable(path: device.id, reason: tr("libavdevice is not installed (Debian: libavdevice59)"))
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

    /// The next decoded frame, its time since the camera started and when it was taken on the
    /// capture clock (what sound is lined up with). The virtual camera is held to real time, as
    /// a camera would be (its test source would otherwise run flat out).
    func nextFrame() throws(MediaIOError) -> (OwnedFrame, MediaTime, TimeInterval) {
        let frame = try nextCapturedFrame(from: context, stream: stream, decoder: decoder, device: device.id) { why in
            .unreadable(path: device.id, reason: tr("the camera stopped: {reason}", ["reason": why]))
        }
        let tb = stream.pointee.time_base
        let start = stream.pointee.start_time == noPTS ? 0 : stream.pointee.start_time
        let time = MediaTime.ticks((frame.pts ?? start) - start, timeBase: Int64(tb.num), Int64(tb.den)) ?? .zero
        framesRead += 1
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

    /// Frames a real camera needs to settle its exposure before a photo is worth taking.
    public static let settlingFrames = 6

    /// Whether the camera has run long enough for a good photo (the virtual one always has).
    public var isSettled: Bool { device.isVirtual || framesRead >= Camera.settlingFrames }

    /// Reads the next frame: hands it to `recording` when given (every frame read is recorded;
    /// a write that fails is reported in the frame, not thrown), and converts it to a picture of
    /// the camera's size only when `picture` is true (a preview that is behind skips the
    /// conversion, the most expensive step). Throws when the camera itself fails.
    public func readFrame(picture: Bool, recordingInto recording: CameraRecording? = nil) throws(MediaIOError) -> CameraFrame {
        let (frame, time, takenAt) = try nextFrame()
        // A failed write ends the recording, not the camera: the preview goes on.
        var recordingError: MediaIOError?
        do {
            try recording?.append(frame, at: time, takenAt: takenAt)
        } catch {
            recordingError = error
        }
        guard picture else { return CameraFrame(picture: nil, time: time, recordingError: recordingError) }
        guard let converted = scaler.convert(frame, to: size) else {
            throw .noFrameDecoded(path: device.id, detail: tr("cannot convert the camera's picture"))
        }
        return CameraFrame(picture: converted, time: time, recordingError: recordingError)
    }
}

/// A frame read from a camera.
public struct CameraFrame: Sendable {
    /// The picture at the camera's size, when it was asked for.
    public let picture: PixelBuffer?
    /// When the camera took it, from its first frame.
    public let time: MediaTime
    /// Why the recording it was handed to could not write it; that recording is unusable.
    public let recordingError: MediaIOError?
}
