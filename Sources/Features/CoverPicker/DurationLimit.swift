import Foundation
import MediaIO
import ViewfinderCore

/// The longest video the cover chooser accepts (the original turns away videos over 30 s).
public struct DurationLimit: Sendable, Hashable {
    /// The limit, or nil for none.
    public let maximum: MediaTime?

    /// 30 seconds, as the original.
    public static let standard = DurationLimit(maximum: MediaTime(seconds: 30))
    /// No limit.
    public static let none = DurationLimit(maximum: nil)

    public init(maximum: MediaTime?) {
        self.maximum = maximum.flatMap { $0 > .zero ? $0 : nil }
    }

    /// `seconds` of 0 means no limit.
    public init(seconds: MediaTime) {
        self.init(maximum: seconds)
    }

    /// Throws `.tooLong` when `info` is over the limit. Uses metadata only.
    public func check(_ info: MediaInfo) throws(CoverPickerError) {
        try check(duration: info.duration, path: info.path)
    }

    /// Throws `.tooLong` when `duration` is over the limit.
    public func check(duration: MediaTime, path: String) throws(CoverPickerError) {
        if let maximum, duration > maximum {
            throw .tooLong(path: path, duration: duration, limit: maximum)
        }
    }
}
