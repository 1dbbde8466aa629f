internal import CFFmpeg
import Foundation
import ViewfinderCore

/// Turns decoded frames into display pictures: square pixels, rotated, scaled as asked, with
/// their time from the first frame. Immutable, so decoding lanes can share it.
package struct PictureMaker: Sendable {
    let rotation: Rotation
    let sampleAspectRatio: MediaTime
    /// Presentation timestamp of time 0.
    package let origin: Int64
    /// Seconds per tick: num/den.
    package let timeBase: (num: Int64, den: Int64)

    /// One frame's duration at the stream's average rate (1/30 s when unknown).
    var frameDuration: MediaTime = MediaTime(value: 1, timescale: 30)

    /// Time from the first frame of a stream timestamp.
    package func time(ofTimestamp pts: Int64) -> MediaTime {
        MediaTime.ticks(pts &- origin, timeBase: timeBase.num, timeBase.den) ?? .zero
    }

    /// The frame as a display picture, nil when it cannot be converted.
    func picture(from frame: OwnedFrame, mode: FrameMode, size: FrameSize, scaler: FrameScaler) -> VideoFrame? {
        let f = frame.pointer.pointee
        let coded = PixelSize(width: Int(f.width), height: Int(f.height))
        let square = VideoTrackInfo.squarePixels(coded, sampleAspectRatio: sampleAspectRatio)
        let wanted = size.resolve(rotation.apply(to: square))
        let unrotated = rotation.swapsDimensions ? wanted.transposed : wanted
        guard let image = scaler.convert(frame, to: unrotated) else { return nil }
        let pts = frame.pts ?? origin
        return VideoFrame(image: image.rotated(rotation), time: time(ofTimestamp: pts),
                          timestamp: pts, isKeyframe: frame.isKeyframe, mode: mode)
    }
}
