internal import CVipsShim
import Foundation
import ViewfinderCore

/// An output image format.
public enum ImageFormat: Sendable, Hashable {
    /// JPEG at a quality from 1 to 100.
    case jpeg(quality: Int)
    /// Lossless PNG.
    case png
    /// WebP at a quality from 1 to 100.
    case webp(quality: Int)

    /// The format a file name asks for (.jpg, .jpeg, .png, .webp), nil otherwise.
    public init?(pathExtension: String, quality: Int = 90) {
        switch pathExtension.lowercased() {
        case "jpg", "jpeg": self = .jpeg(quality: quality)
        case "png": self = .png
        case "webp": self = .webp(quality: quality)
        default: return nil
        }
    }

    /// "JPEG", "PNG", "WebP".
    public var name: String {
        switch self {
        case .jpeg: return "JPEG"
        case .png: return "PNG"
        case .webp: return "WebP"
        }
    }
}
