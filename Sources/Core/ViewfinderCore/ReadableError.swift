import Foundation

/// An error whose `description` is written for a person: what failed, on which file, what to
/// do. Conforming makes Foundation's `localizedDescription` (what apps built on Foundation show)
/// say the same, instead of "The operation could not be completed. (… error 1.)".
public protocol ReadableError: LocalizedError, CustomStringConvertible {}

extension ReadableError {
    /// The error's own description.
    public var errorDescription: String? { description }
}
