import Foundation
import ViewfinderCore

/// What an asset is.
public enum AssetKind: String, Sendable, Codable, CaseIterable {
    case photo
    case video
    /// A Live Photo (an iPhone still and the movie that shares its content identifier) or a
    /// Motion Photo (a still with its MP4 inside): one asset, the still for the grid, the
    /// motion for playback.
    case live

    /// The kinds that show a still picture: photos and live assets (what a photo picker offers).
    public static let stills: Set<AssetKind> = [.photo, .live]
}

/// One photo or video in the library, as the catalogue describes it.
public struct Asset: Sendable, Equatable, Identifiable {
    public let id: Int64
    public let kind: AssetKind
    /// When it was taken: EXIF DateTimeOriginal, else the container's creation time, else the
    /// file's modification time.
    public let creationDate: Date
    /// When it entered the library.
    public let importDate: Date
    /// Pixel size as shown (after orientation/rotation).
    public let size: PixelSize
    /// Length of a video or of a live asset's motion; nil for photos.
    public let duration: MediaTime?
    /// The name the file had when imported.
    public let originalFilename: String
    /// Size of the stored original.
    public let byteSize: Int64
    /// SHA-256 of the original's bytes.
    public let contentHash: String
    /// Where the camera or an import put it.
    public let source: Source
    /// For a video, the cover the user chose: its poster is the exact frame at this time. nil:
    /// the cover embedded in the file, else the best suggested frame (see `MediaLibrary.poster`).
    /// For a live asset, its key photo: the exact frame of the motion at this time is the still
    /// the grid and exports show; nil: the original still (which is always kept).
    public let posterTime: MediaTime?
    /// Where, when and with what it was taken, as read at import (EXIF/XMP/IPTC of photos,
    /// QuickTime/MP4 keys of videos).
    public let metadata: CaptureMetadata
    /// The stored original, relative to the library folder: the path the library derives from
    /// the content hash, or nil when the catalogue row holds any other path (a damaged row,
    /// whose path is never read, written or deleted).
    let relativePath: String?
    /// The identifier an iPhone Live Photo's still and movie share, when the file carries one
    /// (kept on a lone still or movie too, so that its partner joins it when imported later).
    public let contentIdentifier: String?
    /// A live asset's motion, stored beside its still; nil for photos and videos.
    public let motion: MotionFile?

    /// A live asset's motion as the library stores it: the iPhone movie as it was imported, or
    /// the MP4 a Motion Photo carries, copied out of the still's file once at import (so that
    /// playback, key photos and checks read one ordinary stored video either way).
    public struct MotionFile: Sendable, Equatable {
        /// The movie's name when imported; for a Motion Photo, the still's name with "#motion.mp4".
        public let filename: String
        /// Its size in bytes.
        public let byteSize: Int64
        /// SHA-256 of its bytes.
        public let contentHash: String
        /// Where it is stored, relative to the library folder (nil for a damaged row, as above).
        let relativePath: String?
    }

    /// How an asset arrived.
    public enum Source: String, Sendable, Codable {
        case imported = "import"
        case capture
    }
}

/// The groups of the original's library: smart groups and user albums.
public enum AssetGroup: Sendable, Hashable {
    case all
    /// Photos and live assets (a Live Photo is a photo that moves).
    case photos
    case videos
    case captures
    case album(String)
}

/// How a fetch is ordered: by date taken, ties broken by id in the same direction, or by file
/// name (the name the item came with), ties by id.
public enum SortOrder: String, Sendable, CaseIterable {
    case newestFirst = "newest"
    case oldestFirst = "oldest"
    case byName = "name"

    /// How a status line says it ("newest first", "by name").
    public var phrase: String {
        switch self {
        case .newestFirst: tr("newest first")
        case .oldestFirst: tr("oldest first")
        case .byName: tr("by name")
        }
    }
}

/// A fetch: which group, which kinds, in which order, which page.
public struct FetchRequest: Sendable, Hashable {
    public var group: AssetGroup
    public var kinds: Set<AssetKind>
    public var order: SortOrder
    public var limit: Int?
    public var offset: Int

    public init(group: AssetGroup = .all, kinds: Set<AssetKind> = Set(AssetKind.allCases),
                order: SortOrder = .newestFirst, limit: Int? = nil, offset: Int = 0) {
        self.group = group
        self.kinds = kinds
        self.order = order
        self.limit = limit
        self.offset = offset
    }
}

/// A user album.
public struct Album: Sendable, Equatable {
    public let name: String
    public let count: Int
}
