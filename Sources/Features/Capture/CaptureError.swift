import Foundation
import ViewfinderCore

/// Why a capture or a picker configuration was refused.
public enum CaptureError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A picker was configured with an empty list of media types.
    case noMediaTypes
    /// The source asked for does not exist here.
    case sourceUnavailable(MediaSource)
    /// There is no camera to capture with.
    case noCamera
    /// No camera has this id.
    case unknownDevice(String)
    /// A maximum recording duration of zero or less.
    case maxDurationNotPositive
    /// A picker's selection limit is below one item.
    case selectionLimitBelowOne(Int)
    /// A recording was started while another one runs (the camera records one file at a time).
    case alreadyRecording
    /// A recording could not be finished; nothing was kept.
    case recordingFailed(String)
    /// A recording was stopped and thrown away, as asked; nothing was kept.
    case recordingDiscarded
    /// Cameras were to be switched while one records.
    case switchWhileRecording
    /// No microphone has this id.
    case unknownMicrophone(String)

    public var description: String {
        switch self {
        case .noMediaTypes: return tr("no media types were asked for; ask for photo, video or both")
        case .sourceUnavailable(let source): return tr("the {source} source is not available on this machine", ["source": source.rawValue])
        case .noCamera: return tr("no camera found (the virtual test camera is always available)")
        case .unknownDevice(let id): return tr("no camera '{id}'", ["id": id])
        case .maxDurationNotPositive: return tr("the maximum duration must be positive")
        case .selectionLimitBelowOne(let limit): return tr("a pick holds at least one item, not {limit}", ["limit": limit])
        case .alreadyRecording: return tr("a recording is running already; stop it first")
        case .recordingFailed(let reason): return tr("the recording failed: {reason}", ["reason": reason])
        case .recordingDiscarded: return tr("the recording was stopped and thrown away; nothing was kept")
        case .switchWhileRecording: return tr("stop the recording before switching cameras")
        case .unknownMicrophone(let id): return tr("no microphone '{id}'", ["id": id])
        }
    }
}

extension CaptureError: ReadableError {
    /// The step to take where there is one.
    public var recovery: String? {
        switch self {
        case .noCamera, .unknownDevice: tr("Connect a camera (or allow access to it), or use the virtual test camera ('virtual').")
        case .noMediaTypes: tr("Ask for photos, videos or both.")
        default: nil
        }
    }
}
