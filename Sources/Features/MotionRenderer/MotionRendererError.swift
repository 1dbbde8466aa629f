import Foundation
import ViewfinderCore

/// Why a frame could not be rendered.
public enum MotionRendererError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The frame size is empty or beyond Cairo's 32 767-pixel limit per side.
    case invalidSize(PixelSize)
    /// The drawing surface could not be made (usually out of memory).
    case canvasFailed(size: PixelSize, detail: String)
    /// A layer's `contents` names a picture that cannot be read.
    case imageUnreadable(layer: String, path: String, detail: String)

    /// What failed and what to do.
    public var description: String {
        switch self {
        case .invalidSize(let size):
            return tr("cannot render a {size} frame: each side must be between 1 and 32767 pixels", ["size": size])
        case .canvasFailed(let size, let detail):
            return tr("cannot make a {size} frame to draw on ({detail}); try a smaller size", ["size": size, "detail": detail])
        case .imageUnreadable(let layer, let path, let detail):
            if layer.isEmpty {
                return tr("a layer shows {path}, which cannot be read: {detail}; check the path (relative paths start at the scene's folder)",
                          ["path": path, "detail": detail])
            }
            return tr("layer \"{layer}\" shows {path}, which cannot be read: {detail}; check the path (relative paths start at the scene's folder)",
                      ["layer": layer, "path": path, "detail": detail])
        }
    }
}

extension MotionRendererError: ReadableError {}
