import Foundation
import MediaIO
import ViewfinderCore

/// Why the trim screen could not do what was asked.
public enum VideoEditingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file cannot be edited: the cookbook's "can this video be edited?" answered no, and
    /// `reason` says why (not a video, damaged, no decodable picture, ...).
    case cannotEdit(path: String, reason: MediaIOError)
    /// Reading a frame failed after the video was opened.
    case media(MediaIOError)
    /// The video is not open yet (or failed to open), or an export is running.
    case notReady

    /// What failed, for a person.
    public var description: String {
        switch self {
        case .cannotEdit(_, let reason): return tr("this video cannot be edited: {reason}", ["reason": reason.description])
        case .media(let error): return error.description
        case .notReady: return tr("the video is not open for trimming yet")
        }
    }
}

extension VideoEditingError: ReadableError {}
