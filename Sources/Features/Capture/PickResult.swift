import Foundation
import ViewfinderCore

/// What `viewfinder-studio pick` prints on stdout when a pick ends with a result: the JSON
/// schema other programs rely on, one `Codable` type per kind of pick. A Swift program that runs
/// the picker decodes stdout with ``PickResult/decoder``; any other reads the same keys.
///
/// Keys are stable; every key is always written (an absent value is `null`), dates are ISO 8601
/// in UTC (`2026-12-03T12:00:00Z`), times and durations are seconds, sizes are pixels, paths are
/// absolute.
public enum PickResult: Sendable, Equatable {
    /// `pick media`: the items in the order picked (a JSON array).
    case media([PickedItem])
    /// `pick cover`: the chosen frame, written as an image.
    case cover(PickedCover)
    /// `pick avatar`: the cropped picture and the crop that made it.
    case avatar(PickedAvatar)
    /// `pick photo --camera` and `pick video --camera`: what the camera took.
    case capture(PickedCapture)

    /// The encoder of the printed form: keys sorted, slashes unescaped, ISO 8601 dates.
    public static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }

    /// The decoder that reads a printed result back.
    public static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    /// The JSON text as printed (without the final line break).
    public func json() throws -> Data {
        let encoder = Self.encoder
        switch self {
        case .media(let items): return try encoder.encode(items)
        case .cover(let cover): return try encoder.encode(cover)
        case .avatar(let avatar): return try encoder.encode(avatar)
        case .capture(let capture): return try encoder.encode(capture)
        }
    }

    /// The files the result names, for `--print paths`: each picked item's file, the cover, the
    /// avatar, or a capture's file (its edited copy when there is one).
    public var paths: [String] {
        switch self {
        case .media(let items): items.map(\.file)
        case .cover(let cover): [cover.cover]
        case .avatar(let avatar): [avatar.avatar]
        case .capture(let capture): [capture.edited ?? capture.original]
        }
    }
}

/// One item of `pick media`.
public struct PickedItem: Codable, Sendable, Equatable {
    /// What an item is.
    public enum Kind: String, Codable, Sendable, CaseIterable {
        case photo
        case video
        /// A Live Photo or Motion Photo: `file` is its still.
        case live
    }

    /// The library's id of the item.
    public var id: Int64
    /// The stored original's path.
    public var file: String
    /// Photo, video or live photo.
    public var kind: Kind
    /// The size as shown, in pixels.
    public var width: Int
    public var height: Int
    /// A video's length in seconds; nil for a photo.
    @WrittenAsNull public var duration: Double?
    /// When it was taken.
    public var date: Date

    /// An item with every field given.
    public init(id: Int64, file: String, kind: Kind, width: Int, height: Int, duration: Double?, date: Date) {
        self.id = id
        self.file = file
        self.kind = kind
        self.width = width
        self.height = height
        self.duration = duration
        self.date = date
    }

}

/// The result of `pick cover`.
public struct PickedCover: Codable, Sendable, Equatable {
    /// The video the cover was chosen from.
    public var video: String
    /// The cover image written.
    public var cover: String
    /// The chosen frame's presentation time, in seconds.
    public var time: Double
    /// The chosen frame's index in display order, when the video's frames could be counted.
    @WrittenAsNull public var frame: Int?

    /// A cover result with every field given.
    public init(video: String, cover: String, time: Double, frame: Int?) {
        self.video = video
        self.cover = cover
        self.time = time
        self.frame = frame
    }

}

/// The result of `pick avatar`.
public struct PickedAvatar: Codable, Sendable, Equatable {
    /// The photo the avatar was cropped from.
    public var original: String
    /// The avatar image written (PNG).
    public var avatar: String
    /// The crop, in the original's pixels; `viewfinder avatar --spec` redoes it exactly.
    public var spec: CropSpec

    /// An avatar result with every field given.
    public init(original: String, avatar: String, spec: CropSpec) {
        self.original = original
        self.avatar = avatar
        self.spec = spec
    }
}

/// The result of `pick photo --camera` or `pick video --camera`, in the original's terms
/// (`mediaType`, `original`, `edited`, `cropRect`, `metadata`).
public struct PickedCapture: Codable, Sendable, Equatable {
    /// Facts about the capture.
    public struct Metadata: Codable, Sendable, Equatable {
        /// When it was taken.
        public var date: Date
        /// The camera's name and id.
        public var device: String
        /// The EXIF orientation of the file (1…8, 1 upright).
        public var orientation: Int
        /// The picture's size in pixels, when known.
        @WrittenAsNull public var width: Int?
        @WrittenAsNull public var height: Int?

        /// Metadata with every field given.
        public init(date: Date, device: String, orientation: Int, width: Int?, height: Int?) {
            self.date = date
            self.device = device
            self.orientation = orientation
            self.width = width
            self.height = height
        }

    }

    /// The part of the original an edited photo shows, in the original's pixels.
    public struct CropRect: Codable, Sendable, Equatable {
        public var x: Double
        public var y: Double
        public var width: Double
        public var height: Double

        /// A rectangle with every field given.
        public init(x: Double, y: Double, width: Double, height: Double) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }
    }

    /// Photo or video.
    public var mediaType: MediaType
    /// The file the camera wrote.
    public var original: String
    /// The recording's path for a video (the same as `original`); nil for a photo.
    @WrittenAsNull public var file: String?
    /// Facts about the capture.
    public var metadata: Metadata
    /// The edited photo (PNG beside the original), after an editing step.
    @WrittenAsNull public var edited: String?
    /// What the edited photo shows of the original.
    @WrittenAsNull public var cropRect: CropRect?

    /// A capture result with every field given.
    public init(mediaType: MediaType, original: String, file: String?, metadata: Metadata, edited: String?, cropRect: CropRect?) {
        self.mediaType = mediaType
        self.original = original
        self.file = file
        self.metadata = metadata
        self.edited = edited
        self.cropRect = cropRect
    }

}

/// An optional field written as `null` when empty, where synthesized `Codable` would leave the
/// key out: the schema promises every key. A missing key still reads as empty.
@propertyWrapper
public struct WrittenAsNull<Value: Codable & Sendable & Equatable>: Codable, Sendable, Equatable {
    /// The value; nil is written as `null`.
    public var wrappedValue: Value?

    /// Wraps `wrappedValue`.
    public init(wrappedValue: Value?) {
        self.wrappedValue = wrappedValue
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        wrappedValue = container.decodeNil() ? nil : try container.decode(Value.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
    }
}

extension KeyedDecodingContainer {
    /// A `WrittenAsNull` field whose key is missing reads as empty, as a plain optional would.
    public func decode<Value>(_ type: WrittenAsNull<Value>.Type, forKey key: Key) throws -> WrittenAsNull<Value> {
        try decodeIfPresent(type, forKey: key) ?? WrittenAsNull(wrappedValue: nil)
    }
}
