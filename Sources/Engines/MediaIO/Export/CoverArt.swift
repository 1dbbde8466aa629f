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

/// The cover art an export attaches: ready, or still being made on a thread of its own. The
/// MP4 header only declares the picture's stream (its format), and the mp4 muxer
/// writes the picture itself with the trailer, so a remux copies its packets while the cover
/// frame is decoded and encoded beside it, and waits for it only at the end.
public final class CoverAttachment: Sendable, Hashable {
    /// How the picture will be encoded.
    public let format: CoverArt.Format
    /// The picture's size when it is already known (a ready picture's).
    public let knownSize: PixelSize?
    /// Left by the making thread once its work, and everything that work held, is released.
    private let done = DispatchGroup()
    /// Written once by the making thread before it leaves `done`, read only after `done`.
    private let outcome: Lent<Result<CoverArt, any Error>?>

    /// Cover art that is ready.
    public init(_ art: CoverArt) {
        format = art.format
        knownSize = art.size
        outcome = Lent(.success(art))
    }

    /// Starts `make` on another thread at once; `art()` waits for what it returns or throws.
    public init(format: CoverArt.Format, making make: @escaping @Sendable () throws -> CoverArt) {
        self.format = format
        knownSize = nil
        let outcome = Lent<Result<CoverArt, any Error>?>(nil)
        self.outcome = outcome
        DispatchQueue.global(qos: .userInitiated).async(group: done) {
            outcome.value = Result { try make() }
        }
    }

    /// The making thread never outlives its attachment: a picture still being made when the
    /// attachment is dropped (an export that failed early) is waited for here.
    deinit {
        done.wait()
    }

    private var result: Result<CoverArt, any Error> {
        done.wait()
        return outcome.value ?? .failure(CancellationError())
    }

    /// The picture, once made (blocks until then).
    public func art() throws -> CoverArt {
        try result.get()
    }

    /// Why the picture could not be made, once that is known (blocks until then); nil when it was.
    public var failure: (any Error)? {
        if case .failure(let error) = result { return error }
        return nil
    }

    public static func == (a: CoverAttachment, b: CoverAttachment) -> Bool { a === b }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
