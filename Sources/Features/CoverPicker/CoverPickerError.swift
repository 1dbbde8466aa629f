import Foundation
import Imaging
import MediaIO
import ViewfinderCore

/// Why choosing a cover failed.
public enum CoverPickerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The video is longer than the limit (checked from metadata, before decoding).
    case tooLong(path: String, duration: MediaTime, limit: MediaTime)
    /// Reading the video failed.
    case media(MediaIOError)
    /// Writing an image failed.
    case imaging(ImagingError)
    /// The session was cancelled, or used after it finished.
    case cancelled
    /// The session has not been opened yet.
    case notOpen
    /// A cover asked for at a time that a trim does not keep.
    case coverOutsideKept(path: String, time: MediaTime)

    public var description: String {
        switch self {
        case .tooLong(let path, let duration, let limit):
            return tr("{file} is {seconds} s long; the limit is {limit} s",
                      ["file": (path as NSString).lastPathComponent, "seconds": oneDecimal(duration), "limit": limit.decimalString])
        case .media(let error): return error.description
        case .imaging(let error): return error.description
        case .cancelled: return tr("cancelled")
        case .notOpen: return tr("the video is not open yet")
        case .coverOutsideKept(let path, let time):
            return tr("the cover at {seconds} s lies outside the ranges kept from {file}; choose a time inside them",
                      ["seconds": time.decimalString, "file": (path as NSString).lastPathComponent])
        }
    }

    /// "42.8" (rounded down to tenths, so 30.05 s never reads as the limit itself).
    private func oneDecimal(_ t: MediaTime) -> String {
        let tenths = t.ticks(atRate: MediaTime(seconds: 10)) ?? 0
        return "\(tenths / 10).\(abs(tenths % 10))"
    }
}

extension CoverPickerError: ReadableError {}
