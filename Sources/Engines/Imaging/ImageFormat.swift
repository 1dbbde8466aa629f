internal import CVipsShim
import Foundation
import ViewfinderCore

/// An output image format.
public enum ImageFormat: Sendable, Hashable {
    /// JPEG at a quality from 1 to 100; with `halfChroma`, colour is stored at half resolution
    /// both ways (4:2:0, as video frames carry it), else libvips decides (full resolution from
    /// quality 90 up).
    case jpeg(quality: Int, halfChroma: Bool = false)
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
