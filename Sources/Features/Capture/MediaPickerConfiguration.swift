import Foundation
import MediaIO
import ViewfinderCore

/// Where media can come from (the platform's picker sources).
public enum MediaSource: String, Sendable, CaseIterable {
    /// A camera: photos taken and videos recorded now.
    case camera
    /// The whole library.
    case photoLibrary
    /// What the camera saved: the library's Captures.
    case savedPhotos
}

/// What a source can give.
public enum MediaType: String, Sendable, CaseIterable, Codable {
    case photo
    case video
}

/// What a library holds, as the front end that opened it says (Capture does not know the
/// library): the kinds anywhere in it, and in its Captures.
public struct LibraryContents: Sendable, Equatable {
    public var all: Set<MediaType>
    public var captures: Set<MediaType>

    public init(all: Set<MediaType>, captures: Set<MediaType>) {
        self.all = all
        self.captures = captures
    }
}

/// Which sources exist and what each can really give — checked before any picker is shown.
public struct MediaSources: Sendable {
    /// The cameras that can be opened (plus the virtual one when allowed).
    public let cameras: [CaptureDevice]
    /// What the library holds; nil without a library.
    public let library: LibraryContents?

    /// Looks at this machine: the cameras that open (`CameraDiscovery`), and the virtual camera if
    /// `allowVirtualCamera`; `library` is what the caller's library holds.
    public init(library: LibraryContents?, allowVirtualCamera: Bool = false, cameras: [CaptureDevice]? = nil) {
        var found = (cameras ?? CameraDiscovery.listing().cameras).filter(\.isUsable)
        if allowVirtualCamera { found.append(.virtual) }
        self.cameras = found
        self.library = library
    }

    /// What one camera gives: photos from any camera that opens, videos when this FFmpeg can
    /// also encode them; nothing from one that cannot be opened.
    public static func mediaTypes(of camera: CaptureDevice) -> [MediaType] {
        guard camera.isUsable else { return [] }
        return CameraRecording.isAvailable ? [.photo, .video] : [.photo]
    }

    public func isAvailable(_ source: MediaSource) -> Bool {
        switch source {
        case .camera: return !cameras.isEmpty
        case .photoLibrary, .savedPhotos: return library != nil
        }
    }

    /// What `source` can give: the cameras' kinds together; for the library and Captures, the
    /// kinds they hold now (an empty library or Captures gives nothing yet).
    public func availableMediaTypes(for source: MediaSource) -> [MediaType] {
        let kinds: Set<MediaType>
        switch source {
        case .camera: kinds = Set(cameras.flatMap(Self.mediaTypes(of:)))
        case .photoLibrary: kinds = library?.all ?? []
        case .savedPhotos: kinds = library?.captures ?? []
        }
        return MediaType.allCases.filter(kinds.contains)
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
    /// The file extensions (lowercased) an item may have, when the program asking takes only
    /// some types of its kinds (`FileChooserRequest.acceptedExtensions`); nil: any.
    public var fileExtensions: Set<String>?

    public init(source: MediaSource, mediaTypes: [MediaType], quality: CaptureQuality = .high,
                maxDuration: MediaTime? = nil, allowsEditing: Bool = false, selectionLimit: Int = 1,
                fileExtensions: Set<String>? = nil) {
        self.selectionLimit = selectionLimit
        self.fileExtensions = fileExtensions
        self.source = source
        self.mediaTypes = mediaTypes
        self.quality = quality
        self.maxDuration = maxDuration
        self.allowsEditing = allowsEditing
    }

    /// Throws when the configuration cannot work here: an empty media-type list (an error, not a
    /// crash), an unavailable source, or a camera that cannot give a requested type. A library
    /// or Captures that holds none of a kind yet is still a place to pick from (its grid shows
    /// what there is, and grows as things are imported or captured), so only its availability
    /// is checked; `MediaSources.availableMediaTypes(for:)` says what it holds.
    public func validate(against sources: MediaSources) throws(CaptureError) {
        guard !mediaTypes.isEmpty else { throw .noMediaTypes }
        if let maxDuration, maxDuration <= .zero { throw .maxDurationNotPositive }
        guard selectionLimit >= 1 else { throw .selectionLimitBelowOne(selectionLimit) }
        if let fileExtensions, fileExtensions.isEmpty { throw .noMediaTypes }
        guard sources.isAvailable(source) else { throw .sourceUnavailable(source) }
        if source == .camera {
            let offered = sources.availableMediaTypes(for: source)
            guard mediaTypes.allSatisfy(offered.contains) else { throw .sourceUnavailable(source) }
        }
    }
}
