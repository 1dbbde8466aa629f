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
            return tr("cannot start libvips: {detail}", ["detail": detail])
        case .unsupportedFormat(let path):
            return tr("{path}: unsupported image type; use .jpg, .jpeg, .png or .webp", ["path": path])
        case .encodeFailed(let format, let detail):
            return tr("cannot encode {format}: {detail}", ["format": format, "detail": detail])
        case .unreadable(let path, let detail):
            return tr("cannot read {file} as an image: {detail}", ["file": (path as NSString).lastPathComponent, "detail": detail])
        case .notAnImage(let path):
            return tr("{file} is not a photo this build can read (JPEG, PNG, WebP, HEIC, TIFF, GIF)", ["file": (path as NSString).lastPathComponent])
        case .tooManyPixels(let path, let w, let h, let limit):
            return tr("{file} declares {width}×{height} pixels, more than the limit of {megapixels} MP a decode may hold (even shrunk on load); refusing to decode it",
                      ["file": (path as NSString).lastPathComponent, "width": w, "height": h, "megapixels": limit / 1_000_000])
        case .decodeFailed(let path, let detail):
            return tr("{file} cannot be decoded ({detail}); the file may be damaged or truncated",
                      ["file": (path as NSString).lastPathComponent, "detail": detail])
        }
    }
}

extension ImagingError: ReadableError {}
