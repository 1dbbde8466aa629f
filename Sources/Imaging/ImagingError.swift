import Foundation

/// Why an image operation failed.
public enum ImagingError: Error, Sendable, Equatable, CustomStringConvertible {
    case startFailed(String)
    case unsupportedFormat(path: String)
    case encodeFailed(format: String, detail: String)
    case unreadable(path: String, detail: String)

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
        }
    }
}
