import Foundation

/// An error whose `description` is written for a person: what failed, on which file, what to
/// do. Conforming makes Foundation's `localizedDescription` (what apps built on Foundation show)
/// say the same, instead of "The operation could not be completed. (… error 1.)", and gives
/// `recoverySuggestion` (what an app shows under the message) where there is a step to take.
public protocol ReadableError: LocalizedError, CustomStringConvertible {
    /// What the person can do about it, as a sentence; nil when nothing but another try helps.
    var recovery: String? { get }
}

extension ReadableError {
    /// The error's own description.
    public var errorDescription: String? { description }

    /// No step to suggest, unless a type says otherwise.
    public var recovery: String? { nil }

    /// `recovery`, for Foundation's `LocalizedError`.
    public var recoverySuggestion: String? { recovery }
}
