import Foundation
import MediaIO
import ViewfinderCore

/// Where media can come from (the platform's picker sources).
public enum MediaSource: String, Sendable, CaseIterable {
    case camera
    case photoLibrary
    case savedPhotos
}

/// What a source can give.
public enum MediaType: String, Sendable, CaseIterable {
    case photo
    case video
}

/// Which sources exist and what they give — checked before any picker is shown.
public struct MediaSources: Sendable {
    /// The cameras found (plus the virtual one when allowed).
    public let cameras: [CaptureDevice]
    /// Whether the library can be read.
    public let libraryAvailable: Bool

    /// Looks at this machine: V4L2 cameras, the virtual camera if `allowVirtualCamera`, and the
    /// library folder.
    public init(libraryFolder: URL?, allowVirtualCamera: Bool = false, cameras: [CaptureDevice]? = nil) {
        var found = cameras ?? CaptureDevice.cameras()
        if allowVirtualCamera { found.append(.virtual) }
        self.cameras = found
        libraryAvailable = libraryFolder.map { FileManager.default.fileExists(atPath: $0.path) } ?? false
    }

    public func isAvailable(_ source: MediaSource) -> Bool {
        switch source {
        case .camera: return !cameras.isEmpty
        case .photoLibrary, .savedPhotos: return libraryAvailable
        }
    }

    /// What `source` can give: a camera takes photos and records video; the library holds both.
    public func availableMediaTypes(for source: MediaSource) -> [MediaType] {
        isAvailable(source) ? MediaType.allCases : []
    }
}

/// A picker's settings, validated before any work.
public struct MediaPickerConfiguration: Sendable, Equatable {
    public var source: MediaSource
    public var mediaTypes: [MediaType]
    public var quality: CaptureQuality
    public var maxDuration: MediaTime?
    public var allowsEditing: Bool
    /// How many items one pick holds at most (1: the first choice finishes it).
    public var selectionLimit: Int

    public init(source: MediaSource, mediaTypes: [MediaType], quality: CaptureQuality = .high,
                maxDuration: MediaTime? = nil, allowsEditing: Bool = false, selectionLimit: Int = 1) {
        self.selectionLimit = selectionLimit
        self.source = source
        self.mediaTypes = mediaTypes
        self.quality = quality
        self.maxDuration = maxDuration
        self.allowsEditing = allowsEditing
    }

    /// Throws when the configuration cannot work here: an empty media-type list (an error, not a
    /// crash), an unavailable source, or a source that cannot give a requested type.
    public func validate(against sources: MediaSources) throws(CaptureError) {
        guard !mediaTypes.isEmpty else { throw .noMediaTypes }
        if let maxDuration, maxDuration <= .zero { throw .maxDurationNotPositive }
        guard selectionLimit >= 1 else { throw .selectionLimitBelowOne(selectionLimit) }
        guard sources.isAvailable(source) else { throw .sourceUnavailable(source) }
        let offered = sources.availableMediaTypes(for: source)
        guard mediaTypes.allSatisfy(offered.contains) else { throw .sourceUnavailable(source) }
    }
}
