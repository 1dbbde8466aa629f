internal import CFFmpeg
import Foundation
import ViewfinderCore

/// An open camera: reads frames from a V4L2 device or the virtual camera through libavdevice,
/// or from a PipeWire camera through libpipewire (`CameraInput`). Photos and recordings are
/// made by Capture's `CameraSession`, whose one thread reads the camera for both front ends.
public final class Camera {
    public let device: CaptureDevice
    /// The size frames arrive at.
    public let size: PixelSize
    public let frameRate: Int
    private let input: CameraInput
    private let scaler = FrameScaler()
    /// Frames read since the camera opened.
    public private(set) var framesRead = 0

    /// Opens `device` at `size` (default: its first size) and `frameRate` (default: its first).
    public init(device: CaptureDevice, size: PixelSize? = nil, frameRate: Int? = nil) throws(MediaIOError) {
        if let reason = device.unavailableReason { throw .deviceUnavailable(device: device.id, reason: reason) }
        self.device = device
        let chosen = size ?? device.sizes.first ?? PixelSize(width: 640, height: 480)
        let rate = frameRate ?? device.frameRates.first ?? 30
        switch device.through {
        case .pipewire: input = try PipeWireCameraInput(device: device, size: chosen, frameRate: rate)
        case .v4l2, .virtual: input = try LibavCameraInput(device: device, size: chosen, frameRate: rate)
        }
        self.size = input.size
        self.frameRate = input.frameRate
    }

    /// The next decoded frame, its time since the camera started and when it was taken on the
    /// capture clock (what sound is lined up with).
    func nextFrame() throws(MediaIOError) -> (OwnedFrame, MediaTime, TimeInterval) {
        let next = try input.next()
        framesRead += 1
        return next
    }

    /// Frames a real camera needs to settle its exposure before a photo is worth taking.
    public static let settlingFrames = 6

    /// Whether the camera has run long enough for a good photo (the virtual one always has).
    public var isSettled: Bool { device.isVirtual || framesRead >= Camera.settlingFrames }

    /// Reads the next frame: hands it to `recording` when given (every frame read is recorded;
    /// a write that fails is reported in the frame, not thrown), and converts it to a picture of
    /// the camera's size only when `picture` is true (a preview that is behind skips the
    /// conversion, the most expensive step). Throws when the camera itself fails.
    public func readFrame(picture: Bool, recordingInto recording: (any CameraFrameSink)? = nil) throws(MediaIOError) -> CameraFrame {
        let (frame, time, takenAt) = try nextFrame()
        // A failed write ends the recording, not the camera: the preview goes on.
        var recordingError: MediaIOError?
        do {
            try recording?.append(CapturedFrame(frame: frame), at: time, takenAt: takenAt)
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
