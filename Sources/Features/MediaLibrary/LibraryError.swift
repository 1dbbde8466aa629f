import Foundation
import Imaging
import MediaIO
import Store
import ViewfinderCore

/// Why a library operation failed.
public enum LibraryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file is not a photo or video that can be decoded; nothing was stored.
    case invalidData(path: String, reason: String)
    /// The library cannot be changed (a folder or file without write permission).
    case permissionDenied(path: String)
    /// No asset with this id.
    case noSuchAsset(Int64)
    /// No album with this name.
    case noSuchAlbum(String)
    /// An album with this name exists already.
    case albumExists(String)
    /// A name that cannot be used (empty, too long, or holding control characters).
    case invalidName(String)
    /// A thumbnail size that cannot be made (a side of zero or less).
    case invalidThumbnailSize(width: Int, height: Int)
    /// The catalogue refused or failed.
    case catalogue(StoreError)
    /// Reading or writing a file failed.
    case io(path: String, reason: String)
    /// The request was cancelled before it was served (a grid cell scrolled away, Ctrl-C).
    case cancelled
    /// The asset's catalogue row or stored file is not what the library made (a path that is not
    /// the one derived from its content, a link, content that no longer matches its hash); the
    /// library never follows it. A check of the library reports it.
    case damaged(id: Int64, reason: String)
    /// The file changed (its size or modification time) while the import read it; nothing was stored.
    case changedDuringImport(path: String)
    /// The path lies inside the library (or is its own stored file), where the operation would
    /// overwrite or remove what the library keeps.
    case insideLibrary(path: String, library: String, action: String)
    /// The file to import is not a regular file (a folder, a FIFO, a device).
    case notRegularFile(path: String)
    /// Storing a file in the library failed (a full disk, a quota): names the library, not the source.
    case storeFailed(file: String, library: String, reason: String)
    /// An asset's stored original could not be read to make its thumbnail.
    case thumbnailFailed(id: Int64, reason: String)
    /// A video was needed (a poster is chosen for videos only).
    case notAVideo(Int64)
    /// A live asset was needed (only it has a key photo to choose).
    case notLive(Int64)
    /// A poster time outside the video.
    case posterOutOfRange(id: Int64, time: MediaTime, duration: MediaTime)
    /// An export without location still held one after stripping, where the check found it
    /// (nothing was written).
    case locationKept(path: String, found: [String])
    /// An export of an original (copied unchanged) named as another type of file than the original.
    case exportChangesType(path: String, original: String)

    public var description: String {
        switch self {
        case .invalidData(let path, let reason):
            return tr("Invalid data: {file} is not a readable photo or video ({reason}); nothing was stored",
                      ["file": (path as NSString).lastPathComponent, "reason": reason])
        case .permissionDenied(let path):
            return tr("permission denied: the library at {path} is read-only", ["path": path])
        case .noSuchAsset(let id): return tr("no asset with id {id} in the library", ["id": id])
        case .noSuchAlbum(let name): return tr("no album named '{name}'", ["name": name])
        case .albumExists(let name): return tr("an album named '{name}' exists already", ["name": name])
        case .invalidName(let name):
            return tr("'{name}' cannot be an album name (1 to 200 characters, not only spaces, no tabs, line breaks or other control characters)",
                      ["name": name])
        case .invalidThumbnailSize(let width, let height):
            return tr("a thumbnail of {width}×{height} pixels cannot be made (both sides must be at least 1)", ["width": width, "height": height])
        case .catalogue(let error): return error.description
        case .io(let path, let reason): return tr("{path}: {reason}", ["path": path, "reason": reason])
        case .cancelled: return tr("cancelled")
        case .damaged(let id, let reason):
            return tr("asset {id} is damaged: {reason}; the library leaves it alone until a check of the library repairs or reports it",
                      ["id": id, "reason": reason])
        case .changedDuringImport(let path):
            return tr("{file} changed while it was being imported; nothing was stored (import it again once it is complete)",
                      ["file": (path as NSString).lastPathComponent])
        case .insideLibrary(let path, let library, let action):
            // TRANSLATORS: {action} says what would happen ("an export there would overwrite what the library keeps; …").
            return tr("{path} is inside the library at {library}; {action}", ["path": path, "library": library, "action": action])
        case .notRegularFile(let path):
            return tr("{file} is not a regular file (a folder, a pipe or a device); nothing was stored", ["file": (path as NSString).lastPathComponent])
        case .storeFailed(let file, let library, let reason):
            return tr("cannot store {file} in the library at {library}: {reason}",
                      ["file": (file as NSString).lastPathComponent, "library": library, "reason": reason])
        case .thumbnailFailed(let id, let reason):
            return tr("cannot make a thumbnail of asset {id}: {reason}", ["id": id, "reason": reason])
        case .notAVideo(let id): return tr("asset {id} is a photo; only a video (or a Live Photo) has a cover to choose", ["id": id])
        case .notLive(let id): return tr("asset {id} is not a Live Photo; only a live asset has a key photo to choose", ["id": id])
        case .posterOutOfRange(let id, let time, let duration):
            return tr("{time} s is outside asset {id}, which is {duration} s long",
                      ["time": time.decimalString, "id": id, "duration": duration.decimalString])
        case .exportChangesType(let path, let original):
            return tr("{file} would not be what its name says: an export copies the original {original} unchanged; give it the original's extension (.{extension})",
                      ["file": (path as NSString).lastPathComponent, "original": original,
                       "extension": (original as NSString).pathExtension.lowercased()])
        case .locationKept(let path, let found):
            // TRANSLATORS: {found} lists where the location is still kept ("EXIF GPS in JPEG APP1 #1; …").
            return tr("{path} was not written: a location is still kept after removing it ({found}), where this export cannot take it out",
                      ["path": path, "found": found.prefix(3).joined(separator: "; ") + (found.count > 3 ? "; …" : "")])
        }
    }
}

extension LibraryError: ReadableError {
    /// The step to take where there is one.
    public var recovery: String? {
        switch self {
        case .permissionDenied: tr("Make the library's folder writable, or open another library.")
        case .damaged: tr("Run 'viewfinder library check' to list every damaged item.")
        default: nil
        }
    }
}
