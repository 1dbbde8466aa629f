import Foundation
import ViewfinderCore

/// Why an image operation failed.
public enum ImagingError: Error, Sendable, Equatable, CustomStringConvertible {
    case startFailed(String)
    case unsupportedFormat(path: String)
    case encodeFailed(format: String, detail: String)
    case unreadable(path: String, detail: String)
    case notAnImage(path: String)
    case tooManyPixels(path: String, width: Int, height: Int, limit: Int64)
    case decodeFailed(path: String, detail: String)

    public var description: String {
        switch self {
        case .startFailed(let detail):
            return "cannot start libvips: \(detail)"
        case .unsupportedFormat(let path):
            return "\(path): unsupported image type; use .jpg, .jpeg, .png or .webp"
        case .encodeFailed(let format, let detail):
            return "cannot encode \(format): \(detail)"
        case .unreadable(let path, let detail):
            return "cannot read \((path as NSString).lastPathComponent) as an image: \(detail)"
        case .notAnImage(let path):
            return "\((path as NSString).lastPathComponent) is not a photo this build can read (JPEG, PNG, WebP, HEIC, TIFF, GIF)"
        case .tooManyPixels(let path, let w, let h, let limit):
            return "\((path as NSString).lastPathComponent) declares \(w)×\(h) pixels, more than the limit of \(limit / 1_000_000) MP a decode may hold (even shrunk on load); refusing to decode it"
        case .decodeFailed(let path, let detail):
            return "\((path as NSString).lastPathComponent) cannot be decoded (\(detail)); the file may be damaged or truncated"
        }
    }
}

extension ImagingError: ReadableError {}
