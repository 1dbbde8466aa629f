import Foundation
import ViewfinderCore

/// What an asset is.
public enum AssetKind: String, Sendable, Codable, CaseIterable {
    case photo
    case video
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
    /// Length of a video; nil for photos.
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
    public let posterTime: MediaTime?
    /// Where, when and with what it was taken, as read at import (EXIF/XMP/IPTC of photos,
    /// QuickTime/MP4 keys of videos).
    public let metadata: CaptureMetadata
    /// The stored original, relative to the library folder: the path the library derives from
    /// the content hash, or nil when the catalogue row holds any other path (a damaged row,
    /// whose path is never read, written or deleted).
    let relativePath: String?

    /// How an asset arrived.
    public enum Source: String, Sendable, Codable {
        case imported = "import"
        case capture
    }
}

/// The groups of the original's library: smart groups and user albums.
public enum AssetGroup: Sendable, Hashable {
    case all
    case photos
    case videos
    case captures
    case album(String)
}

/// How a fetch is ordered; ties are broken by id in the same direction.
public enum SortOrder: String, Sendable, CaseIterable {
    case newestFirst = "newest"
    case oldestFirst = "oldest"
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
