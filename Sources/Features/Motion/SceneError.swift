import Foundation
import ViewfinderCore

/// Why a scene file could not be read: where in the document, and what was expected there.
public struct SceneError: Error, CustomStringConvertible, Sendable, Hashable {
    /// Where the problem is, e.g. `layers[0].sprites[1].repeat`; empty for the whole document.
    public let path: String
    /// What was wrong, e.g. `expected a number or "forever", got "sometimes"`.
    public let message: String

    /// An error at `path`.
    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    /// One line: "scene: <path>: <message>".
    public var description: String {
        // TRANSLATORS: an error in a scene file; {path} is where in the document (layers[0].opacity), kept as written.
        path.isEmpty ? tr("scene: {message}", ["message": message]) : tr("scene: {path}: {message}", ["path": path, "message": message])
    }
}

extension SceneError: ReadableError {}
