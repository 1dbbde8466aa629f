import Foundation
import Imaging
import MediaIO
import Store

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
    /// A name that cannot be used (empty, or too long).
    case invalidName(String)
    /// The catalogue refused or failed.
    case catalogue(StoreError)
    /// Reading or writing a file failed.
    case io(path: String, reason: String)
    /// The request was cancelled before it was served (a grid cell scrolled away).
    case cancelled

    public var description: String {
        switch self {
        case .invalidData(let path, let reason):
            return "Invalid data: \((path as NSString).lastPathComponent) is not a readable photo or video (\(reason)); nothing was stored"
        case .permissionDenied(let path):
            return "permission denied: the library at \(path) is read-only"
        case .noSuchAsset(let id): return "no asset with id \(id) in the library"
        case .noSuchAlbum(let name): return "no album named '\(name)'"
        case .albumExists(let name): return "an album named '\(name)' exists already"
        case .invalidName(let name): return "'\(name)' cannot be an album name (1 to 200 characters, not only spaces)"
        case .catalogue(let error): return error.description
        case .io(let path, let reason): return "\(path): \(reason)"
        case .cancelled: return "cancelled"
        }
    }
}
