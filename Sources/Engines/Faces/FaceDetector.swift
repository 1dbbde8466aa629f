internal import CFaceShim
import Foundation
import ViewfinderCore

/// A face found in a picture.
public struct DetectedFace: Sendable, Hashable {
    /// The face's box in the pixels of the picture searched: about the width of the face from
    /// cheek to cheek, from the forehead to below the mouth (OpenCV's frontal-face cascades are
    /// trained on that square).
    public var bounds: Rect
    /// How many of the detector's overlapping windows agreed on this face: at least the
    /// detector's `minimumVotes`, more for a clearer face.
    public var votes: Int

    /// A face at `bounds` that `votes` windows agreed on.
    public init(bounds: Rect, votes: Int) {
        self.bounds = bounds
        self.votes = votes
    }

    /// How sure the detector is, 0…1: ½ at the least number of votes a face needs, ¾ at twice
    /// that, and so on towards 1 (`1 − ½^(votes / minimumVotes)`).
    public var confidence: Double {
        1 - pow(0.5, Double(votes) / Double(FaceDetector.minimumVotes))
    }
}

extension Array where Element == DetectedFace {
    /// The face a picture of `size` is about: the largest and most central, weighed by how sure
    /// the detector is (area × (1 − ½ · distance from the middle / half the diagonal) ×
    /// confidence); nil for no face.
    public func mostProminent(in size: PixelSize) -> DetectedFace? {
        let middle = Point(x: Double(size.width) / 2, y: Double(size.height) / 2)
        let halfDiagonal = Swift.max(1, (middle.x * middle.x + middle.y * middle.y).squareRoot())
        func weight(_ face: DetectedFace) -> Double {
            let dx = face.bounds.midX - middle.x, dy = face.bounds.midY - middle.y
            let centrality = 1 - 0.5 * Swift.min(1, (dx * dx + dy * dy).squareRoot() / halfDiagonal)
            return face.bounds.width * face.bounds.height * centrality * face.confidence
        }
        return self.max { weight($0) < weight($1) }
    }
}

/// Finds frontal faces in pictures with OpenCV's Haar cascade detector and the
/// `haarcascade_frontalface_alt2` cascade Debian's `opencv-data` ships (no model to download).
///
/// Why this detector: measured on the same pictures (a portrait placed at 40 random places and
/// sizes in 12-megapixel landscapes, faces 8–20 % of the short side; one thread), this cascade
/// found 38 of the 40 faces and no false face in a 457×342 copy in 54 ms, while dlib's HOG
/// detector, whose smallest face is 80 pixels, needed a 1523×1142 copy and 145 ms to find all 40,
/// with 16 false boxes (BENCHMARKS.md, "Faces in avatars and covers"; `scripts/face-detectors`).
///
/// A detector is safe to share between threads (searches take turns on the one classifier);
/// `shared()` loads the cascade once per process.
public final class FaceDetector: @unchecked Sendable {
    /// The cascade file's name.
    public static let cascadeName = "haarcascade_frontalface_alt2.xml"
    /// Where the cascade is looked for: Debian's and upstream OpenCV's install folders.
    public static let cascadeFolders = [
        "/usr/share/opencv4/haarcascades", "/usr/local/share/opencv4/haarcascades",
        "/usr/share/opencv/haarcascades", "/usr/local/share/opencv/haarcascades",
    ]
    /// The side of the cascade's window, in pixels: the smallest face it can see.
    public static let windowSide = 20
    /// The side a face is searched for at, at the smallest: measured, the cascade finds faces of
    /// 24 pixels far more often than faces of its own 20-pixel window, and not searching the
    /// 20-pixel windows (the most numerous) saves a third of the time.
    public static let smallestFaceSide = 24
    /// Windows that must agree on a face (OpenCV's `minNeighbors`).
    public static let minimumVotes = 3
    /// Each window size is this much larger than the one before.
    public static let scaleStep = 1.2
    /// The smallest face searched for, as a fraction of the picture's short side: a face the
    /// size of a fourteenth of the short side or more. The picture is searched in a copy whose
    /// short side makes such a face `smallestFaceSide` pixels, so the time a search takes does
    /// not grow with the photo's megapixels.
    public static let smallestFace = 0.07

    private let handle: OpaquePointer

    /// Loads the cascade at `url`.
    public init(cascadeAt url: URL) throws(FaceDetectionError) {
        var error = [CChar](repeating: 0, count: 256)
        guard let handle = vf_face_detector_open(url.path, &error, error.count) else {
            throw .cascadeUnreadable(path: url.path, reason: Self.text(error))
        }
        self.handle = handle
    }

    deinit {
        vf_face_detector_close(handle)
    }

    /// The NUL-terminated reason the shim wrote into `buffer`.
    private static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The detector with the system's cascade, loaded on first use and kept: the first place in
    /// `cascadeFolders` that holds `cascadeName`. Loading (parsing the cascade's XML) takes about
    /// 12 ms; `preload()` starts it on another thread so it overlaps other work.
    public static func shared() throws(FaceDetectionError) -> FaceDetector {
        let result = sharedDetector.withLock { slot -> Result<FaceDetector, FaceDetectionError> in
            if let slot { return slot }
            let loaded: Result<FaceDetector, FaceDetectionError>
            if let path = cascadeFolders.map({ $0 + "/" + cascadeName }).first(where: FileManager.default.isReadableFile) {
                do throws(FaceDetectionError) {
                    loaded = .success(try FaceDetector(cascadeAt: URL(fileURLWithPath: path)))
                } catch {
                    loaded = .failure(error)
                }
            } else {
                loaded = .failure(.cascadeMissing(searched: cascadeFolders))
            }
            slot = loaded
            return loaded
        }
        return try result.get()
    }

    private static let sharedDetector = Locked<Result<FaceDetector, FaceDetectionError>?>(nil)

    /// Starts loading the shared detector on another thread and returns at once; a later
    /// `shared()` waits for it (its lock is held while loading).
    public static func preload() {
        DispatchQueue.global(qos: .userInitiated).async { _ = try? shared() }
    }

    /// The faces in `image`, clearest first (most votes, then largest), boxes in its pixels.
    ///
    /// Faces smaller than `smallestFace` × the short side are not searched for; the search runs
    /// on a grey copy scaled so that such a face is `smallestFaceSide` pixels (never enlarged).
    public func faces(in image: RasterImage, smallestFace: Double = FaceDetector.smallestFace) throws(FaceDetectionError) -> [DetectedFace] {
        guard image.width > 0, image.height > 0 else { return [] }
        let fraction = smallestFace.isFinite && smallestFace > 0 ? min(smallestFace, 1) : Self.smallestFace
        let shortSide = Double(min(image.width, image.height))
        let scale = min(1, Double(Self.smallestFaceSide) / (fraction * shortSide))
        var found = [vf_face](repeating: vf_face(), count: 64)
        var error = [CChar](repeating: 0, count: 256)
        let count = image.bytes.withUnsafeBufferPointer { pixels in
            vf_face_detector_find(handle, pixels.baseAddress, Int32(image.width), Int32(image.height),
                                  Int32(image.channels), Int32(image.width * image.channels), scale,
                                  Int32(Self.smallestFaceSide), Self.scaleStep, Int32(Self.minimumVotes),
                                  &found, Int32(found.count), &error, error.count)
        }
        guard count >= 0 else {
            throw .searchFailed(reason: Self.text(error))
        }
        return found.prefix(min(Int(count), found.count))
            .map { DetectedFace(bounds: Rect(x: $0.x, y: $0.y, width: $0.width, height: $0.height), votes: Int($0.votes)) }
            .sorted { ($0.votes, $0.bounds.width) > ($1.votes, $1.bounds.width) }
    }
}

/// Why faces could not be searched for.
public enum FaceDetectionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No cascade file was found in any of these folders.
    case cascadeMissing(searched: [String])
    /// The cascade file exists but OpenCV could not load it.
    case cascadeUnreadable(path: String, reason: String)
    /// OpenCV failed during a search.
    case searchFailed(reason: String)

    /// In a person's words, with what to do.
    public var description: String {
        switch self {
        case .cascadeMissing(let folders):
            tr("face detection needs OpenCV's face cascade {file}, which is in none of {folders}; install it (Debian: apt install opencv-data)",
               ["file": FaceDetector.cascadeName, "folders": folders.joined(separator: ", ")])
        case .cascadeUnreadable(let path, let reason):
            tr("the face cascade {path} cannot be loaded ({reason}); reinstall it (Debian: apt install --reinstall opencv-data)", ["path": path, "reason": reason])
        case .searchFailed(let reason):
            tr("face detection failed: {reason}", ["reason": reason])
        }
    }
}

extension FaceDetectionError: ReadableError {
    /// Installing (or reinstalling) the cascade's package, where that is what is wrong.
    public var recovery: String? {
        switch self {
        case .cascadeMissing: tr("Install OpenCV's data files (Debian: apt install opencv-data).")
        case .cascadeUnreadable: tr("Reinstall OpenCV's data files (Debian: apt install --reinstall opencv-data).")
        case .searchFailed: nil
        }
    }
}
