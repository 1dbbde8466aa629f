import Foundation
import ViewfinderCore

/// Why a media operation failed, written for the person who ran it.
public enum MediaIOError: Error, Sendable, Equatable, CustomStringConvertible {
    case fileNotFound(path: String)
    case isDirectory(path: String)
    case unreadable(path: String, reason: String)
    case emptyFile(path: String)
    /// A pipe, a device or a socket where a file was expected (reading it could block or never end).
    case notRegularFile(path: String)
    case notMedia(path: String)
    case noVideoStream(path: String, audioCodec: String?)
    case stillImage(path: String, format: String)
    case unsupportedCodec(path: String, codec: String)
    case dimensionsTooLarge(path: String, width: Int, height: Int, maxPixels: Int64)
    case unknownDuration(path: String)
    case timePastEnd(path: String, requested: MediaTime, duration: MediaTime)
    case frameOutOfRange(path: String, frame: Int, frameCount: Int)
    case corrupt(path: String, detail: String)
    case noFrameDecoded(path: String, detail: String)
    case encodeFailed(path: String, detail: String)
    case writeFailed(path: String, reason: String)
    case cancelled
    case outputIsInput(path: String)
    case cannotPassthrough(path: String, reason: String)
    case endsEarly(path: String, at: MediaTime, expected: MediaTime)
    /// A camera or a microphone that is there but cannot be used, and why (in the user's words).
    case deviceUnavailable(device: String, reason: String)
    /// A location tag that removing the location could not reach (a container other than MP4
    /// or QuickTime, or a box this tool does not edit); nothing was written.
    case locationKept(path: String, tag: String)

    public var description: String {
        switch self {
        case .fileNotFound(let path):
            return "\(name(path)): no such file"
        case .isDirectory(let path):
            return "\(name(path)) is a directory, not a media file"
        case .unreadable(let path, let reason):
            return "cannot read \(name(path)): \(reason)"
        case .emptyFile(let path):
            return "\(name(path)) is empty (0 bytes)"
        case .notRegularFile(let path):
            return "\(name(path)) is not a regular file (a pipe, a device or a socket)"
        case .notMedia(let path):
            return "\(name(path)) is not a video or audio file that FFmpeg recognises"
        case .noVideoStream(let path, let audio):
            if let audio { return "\(name(path)) has no video track (audio only: \(audio))" }
            return "\(name(path)) has no video track"
        case .stillImage(let path, let format):
            return "\(name(path)) is a still image (\(format)), not a video"
        case .unsupportedCodec(let path, let codec):
            return "\(name(path)): no decoder for the \(codec) codec in this FFmpeg build"
        case .dimensionsTooLarge(let path, let w, let h, let maxPixels):
            return "\(name(path)) declares \(w)×\(h) pixels, more than the limit of \(maxPixels / 1_000_000) MP; refusing to decode it"
        case .unknownDuration(let path):
            return "\(name(path)): the duration cannot be determined (damaged or unfinished file?)"
        case .timePastEnd(let path, let requested, let duration):
            return "\(name(path)) is \(duration.decimalString) s long; \(requested.decimalString) s is past the end"
        case .frameOutOfRange(let path, let frame, let count):
            return "\(name(path)) has \(count) frame\(count == 1 ? "" : "s") (0...\(max(count - 1, 0))); frame \(frame) does not exist"
        case .corrupt(let path, let detail):
            return "\(name(path)) is damaged: \(detail)"
        case .noFrameDecoded(let path, let detail):
            return "\(name(path)): no picture could be decoded (\(detail)); the file may be damaged or truncated"
        case .encodeFailed(let path, let detail):
            return "cannot encode \(name(path)): \(detail)"
        case .writeFailed(let path, let reason):
            return "cannot write \(path): \(reason)"
        case .cancelled:
            return "cancelled; nothing was written"
        case .outputIsInput(let path):
            return "the output \(path) is the input; choose another name"
        case .cannotPassthrough(let path, let reason):
            return "\(name(path)) cannot be copied into MP4 as it is: \(reason); re-encode it instead (the highest preset keeps its size)"
        case .deviceUnavailable(let device, let reason):
            return "cannot open \(device): \(reason)"
        case .locationKept(let path, let tag):
            return "\(name(path)) keeps its location in a place this tool cannot rewrite (\(tag)); nothing was written"
        case .endsEarly(let path, let at, let expected):
            return "\(name(path)) ends early: the data stops at \(at.decimalString) s of \(expected.decimalString) s (truncated or damaged)"
        }
    }

    private func name(_ path: String) -> String { (path as NSString).lastPathComponent }
}

extension MediaIOError: ReadableError {}
