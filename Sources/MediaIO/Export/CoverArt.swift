import Foundation
import ViewfinderCore

/// A picture an export carries inside the MP4 as the video's cover art: an attached picture,
/// which FFmpeg's mp4 muxer writes as the iTunes `covr` item (what file managers, players and
/// uploads show). The bytes are an encoded JPEG or PNG, stored as they are.
public struct CoverArt: Sendable, Hashable {
    /// How the bytes are encoded (the only two `covr` kinds players agree on).
    public enum Format: String, Sendable, Hashable {
        case jpeg, png
    }

    public let data: Data
    public let format: Format
    /// The picture's size in pixels (the muxer's stream needs it).
    public let size: PixelSize
    /// The time of the video frame the picture shows, when it is one (reported, not stored).
    public let time: MediaTime?

    public init(data: Data, format: Format, size: PixelSize, time: MediaTime? = nil) {
        self.data = data
        self.format = format
        self.size = size
        self.time = time
    }
}
