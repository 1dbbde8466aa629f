import Foundation
import ViewfinderCore

/// What a probe learns about a media file without decoding pictures.
public struct MediaInfo: Sendable, Equatable {
    /// The file as given.
    public let path: String
    /// Short container name: "mp4", "mov", "matroska", "webm", ...
    public let container: String
    /// FFmpeg's long description of the container ("QuickTime / MOV").
    public let containerDescription: String
    /// Length of the video track (or of the file when the track has none).
    public let duration: MediaTime
    /// Size of the file in bytes.
    public let fileSize: Int64
    /// The video track, if any.
    public let video: VideoTrackInfo?
    /// Codec name of the first audio track, nil when there is none.
    public let audioCodec: String?
    /// The container's creation time, if it records one.
    public var creationDate: Date? = nil
    /// The codec of a cover picture embedded in the file ("mjpeg", "png"), nil when none.
    public var embeddedCover: String? = nil
    /// Where and with what it was recorded, from the container's metadata (QuickTime/MP4 keys).
    public var metadata = CaptureMetadata()
    /// The movie half of an iPhone Live Photo (`com.apple.quicktime.content.identifier`), nil
    /// for any other video.
    public var livePhoto: LivePhotoRole? = nil
}

/// The selected video track of a file.
public struct VideoTrackInfo: Sendable, Equatable {
    /// The stream's index in the container.
    public let streamIndex: Int
    /// Codec name ("h264", "hevc", "vp9", ...).
    public let codec: String
    /// Size of the coded picture, before rotation.
    public let codedSize: PixelSize
    /// Pixel aspect ratio (1/1 for square pixels).
    public let sampleAspectRatio: MediaTime
    /// Clockwise rotation to apply for display, from the display matrix.
    public let rotation: Rotation
    /// Average frame rate (frames per second), nil when the container does not say.
    public let frameRate: MediaTime?
    /// Number of frames when the container records it.
    public let frameCount: Int?
    /// Pixel format ("yuv420p", "yuv420p10le", ...).
    public let pixelFormat: String?
    /// Transfer, primaries, matrix and range as signalled, and whether (and how) it is HDR.
    public var colour = VideoColour()

    /// The size a viewer shows: square pixels, then rotated.
    public var displaySize: PixelSize {
        rotation.apply(to: squarePixelSize)
    }

    /// The coded size with non-square pixels stretched to square ones (width changes).
    public var squarePixelSize: PixelSize {
        VideoTrackInfo.squarePixels(codedSize, sampleAspectRatio: sampleAspectRatio)
    }

    static func squarePixels(_ size: PixelSize, sampleAspectRatio sar: MediaTime) -> PixelSize {
        guard sar.value > 0, sar.timescale > 0, sar.value != sar.timescale else { return size }
        let w = (Int64(size.width) * sar.value + sar.timescale / 2) / sar.timescale
        guard w > 0, w <= 65_536 else { return size }
        return PixelSize(width: Int(w), height: size.height)
    }
}
