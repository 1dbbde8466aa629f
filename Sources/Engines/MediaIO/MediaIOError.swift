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
            return tr("{file}: no such file", ["file": name(path)])
        case .isDirectory(let path):
            return tr("{file} is a directory, not a media file", ["file": name(path)])
        case .unreadable(let path, let reason):
            return tr("cannot read {file}: {reason}", ["file": name(path), "reason": reason])
        case .emptyFile(let path):
            return tr("{file} is empty (0 bytes)", ["file": name(path)])
        case .notRegularFile(let path):
            return tr("{file} is not a regular file (a pipe, a device or a socket)", ["file": name(path)])
        case .notMedia(let path):
            return tr("{file} is not a video or audio file that FFmpeg recognises", ["file": name(path)])
        case .noVideoStream(let path, let audio):
            if let audio { return tr("{file} has no video track (audio only: {codec})", ["file": name(path), "codec": audio]) }
            return tr("{file} has no video track", ["file": name(path)])
        case .stillImage(let path, let format):
            return tr("{file} is a still image ({format}), not a video", ["file": name(path), "format": format])
        case .unsupportedCodec(let path, let codec):
            return tr("{file}: no decoder for the {codec} codec in this FFmpeg build", ["file": name(path), "codec": codec])
        case .dimensionsTooLarge(let path, let w, let h, let maxPixels):
            return tr("{file} declares {width}×{height} pixels, more than the limit of {megapixels} MP; refusing to decode it",
                      ["file": name(path), "width": w, "height": h, "megapixels": maxPixels / 1_000_000])
        case .unknownDuration(let path):
            return tr("{file}: the duration cannot be determined (damaged or unfinished file?)", ["file": name(path)])
        case .timePastEnd(let path, let requested, let duration):
            return tr("{file} is {duration} s long; {time} s is past the end",
                      ["file": name(path), "duration": duration.decimalString, "time": requested.decimalString])
        case .frameOutOfRange(let path, let frame, let count):
            return trn("{file} has {count} frame (0...{last}); frame {frame} does not exist",
                       "{file} has {count} frames (0...{last}); frame {frame} does not exist", count,
                       ["file": name(path), "last": max(count - 1, 0), "frame": frame])
        case .corrupt(let path, let detail):
            return tr("{file} is damaged: {detail}", ["file": name(path), "detail": detail])
        case .noFrameDecoded(let path, let detail):
            return tr("{file}: no picture could be decoded ({detail}); the file may be damaged or truncated", ["file": name(path), "detail": detail])
        case .encodeFailed(let path, let detail):
            return tr("cannot encode {file}: {detail}", ["file": name(path), "detail": detail])
        case .writeFailed(let path, let reason):
            return tr("cannot write {path}: {reason}", ["path": path, "reason": reason])
        case .cancelled:
            return tr("cancelled; nothing was written")
        case .outputIsInput(let path):
            return tr("the output {path} is the input; choose another name", ["path": path])
        case .cannotPassthrough(let path, let reason):
            return tr("{file} cannot be copied into MP4 as it is: {reason}; re-encode it instead (the highest preset keeps its size)",
                      ["file": name(path), "reason": reason])
        case .deviceUnavailable(let device, let reason):
            return tr("cannot open {device}: {reason}", ["device": device, "reason": reason])
        case .locationKept(let path, let tag):
            return tr("{file} keeps its location in a place this tool cannot rewrite ({tag}); nothing was written", ["file": name(path), "tag": tag])
        case .endsEarly(let path, let at, let expected):
            return tr("{file} ends early: the data stops at {time} s of {duration} s (truncated or damaged)",
                      ["file": name(path), "time": at.decimalString, "duration": expected.decimalString])
        }
    }

    private func name(_ path: String) -> String { (path as NSString).lastPathComponent }
}

extension MediaIOError: ReadableError {}
