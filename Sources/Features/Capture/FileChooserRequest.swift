import Foundation

/// A kind of photo or video file Viewfinder reads: its MIME type, its kind and the extensions
/// its files go by (the first is the usual one). The desktop entry claims exactly these types
/// (a test holds the two equal).
public struct MediaFileType: Sendable, Equatable, Hashable {
    public let mimeType: String
    public let kind: MediaType
    public let extensions: [String]

    /// Every type Viewfinder reads, videos first.
    public static let all: [MediaFileType] = [
        MediaFileType(mimeType: "video/mp4", kind: .video, extensions: ["mp4", "m4v"]),
        MediaFileType(mimeType: "video/quicktime", kind: .video, extensions: ["mov", "qt"]),
        MediaFileType(mimeType: "video/3gpp", kind: .video, extensions: ["3gp", "3gpp"]),
        MediaFileType(mimeType: "video/x-matroska", kind: .video, extensions: ["mkv"]),
        MediaFileType(mimeType: "video/webm", kind: .video, extensions: ["webm"]),
        MediaFileType(mimeType: "video/mp2t", kind: .video, extensions: ["ts", "mts", "m2ts"]),
        MediaFileType(mimeType: "video/x-flv", kind: .video, extensions: ["flv"]),
        MediaFileType(mimeType: "image/jpeg", kind: .photo, extensions: ["jpg", "jpeg", "jpe"]),
        MediaFileType(mimeType: "image/png", kind: .photo, extensions: ["png"]),
        MediaFileType(mimeType: "image/webp", kind: .photo, extensions: ["webp"]),
        MediaFileType(mimeType: "image/gif", kind: .photo, extensions: ["gif"]),
        MediaFileType(mimeType: "image/heif", kind: .photo, extensions: ["heic", "heif", "hif"]),
        MediaFileType(mimeType: "image/avif", kind: .photo, extensions: ["avif"]),
        MediaFileType(mimeType: "image/tiff", kind: .photo, extensions: ["tif", "tiff"]),
    ]

}

/// What a program asks the desktop's file chooser for (the XDG portal's `OpenFile`), in the
/// media picker's terms: whether Viewfinder's picker can answer it, with which kinds and which
/// file types, or whether it is for the desktop's own chooser.
public struct FileChooserRequest: Sendable, Equatable {
    /// One of a filter's rules: a shell glob ("*.png") or a MIME type ("image/png", "image/*").
    public enum Rule: Sendable, Equatable {
        case glob(String)
        case mimeType(String)
    }

    /// A named list of rules, as the chooser's filter menu shows it.
    public struct Filter: Sendable, Equatable {
        public let name: String
        public let rules: [Rule]

        public init(name: String, rules: [Rule]) {
            self.name = name
            self.rules = rules
        }
    }

    /// The filters offered, in order.
    public var filters: [Filter]
    /// The one the program chose to show first, if any.
    public var currentFilter: Filter?
    /// Several files may be chosen.
    public var multiple: Bool
    /// A folder is asked for, not files.
    public var directory: Bool

    public init(filters: [Filter], currentFilter: Filter? = nil, multiple: Bool = false, directory: Bool = false) {
        self.filters = filters
        self.currentFilter = currentFilter
        self.multiple = multiple
        self.directory = directory
    }

    /// The file extensions the request takes (lowercased), when it asks only for photos and
    /// videos Viewfinder reads: every rule of every filter names such files (`image/*`,
    /// `video/*`, one of `MediaFileType.all`'s MIME types, or a glob `*.EXT` matching their
    /// extensions). Nil for anything else — a folder, no filter at all (any file), a filter for
    /// other files, or one rule Viewfinder cannot vouch for — which the desktop's own chooser
    /// answers.
    public var mediaExtensions: Set<String>? {
        guard !directory else { return nil }
        let rules = (filters + (currentFilter.map { [$0] } ?? [])).flatMap(\.rules)
        guard !rules.isEmpty else { return nil }
        var accepted: Set<String> = []
        for rule in rules {
            guard let extensions = Self.extensions(of: rule), !extensions.isEmpty else { return nil }
            accepted.formUnion(extensions)
        }
        return accepted
    }

    /// The kinds the picker offers for it (nil when it is not a media request), photos first.
    public var mediaKinds: [MediaType]? {
        guard let extensions = mediaExtensions else { return nil }
        let kinds = Set(MediaFileType.all.filter { !extensions.isDisjoint(with: $0.extensions) }.map(\.kind))
        return MediaType.allCases.filter(kinds.contains)
    }

    /// The extensions a picked file may have, or nil when it may have any extension of the kinds
    /// offered (then nothing of those kinds is refused for its type).
    public var acceptedExtensions: Set<String>? {
        guard let extensions = mediaExtensions, let kinds = mediaKinds else { return nil }
        let everyExtension = Set(MediaFileType.all.filter { kinds.contains($0.kind) }.flatMap(\.extensions))
        return extensions == everyExtension ? nil : extensions
    }

    /// The extensions one rule names; nil when it names anything else.
    static func extensions(of rule: Rule) -> Set<String>? {
        switch rule {
        case .mimeType(let raw):
            let type = raw.lowercased()
            let types = MediaFileType.all.filter { type == $0.mimeType || type == $0.kind.mimeFamily + "/*" }
            return types.isEmpty ? nil : Set(types.flatMap(\.extensions))
        case .glob(let pattern):
            // Only "*.EXT", where EXT may hold character classes ("*.[jJ][pP][gG]") but no other
            // wildcard: anything wider could match files Viewfinder cannot read.
            guard pattern.hasPrefix("*."), !pattern.dropFirst(2).contains(where: { "*?/".contains($0) }) else { return nil }
            let matched = MediaFileType.all.flatMap(\.extensions).filter { ext in
                fnmatch(pattern, "a." + ext, 0) == 0 || fnmatch(pattern, "a." + ext.uppercased(), 0) == 0
            }
            return matched.isEmpty ? nil : Set(matched)
        }
    }
}

extension MediaType {
    /// The first half of its files' MIME types: "image" or "video".
    public var mimeFamily: String { self == .photo ? "image" : "video" }
}
