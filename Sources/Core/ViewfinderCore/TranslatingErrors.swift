import Foundation

/// Runs `work` and reports its errors in the caller's terms: a feature wraps an engine's error
/// in its own (`CoverPickerError.media`, `VideoEditingError.media`). Runs on the caller's actor.
public func translatingErrors<T, From: Error, To: Error>(
    isolation: isolated (any Actor)? = #isolation,
    _ translate: (From) -> To,
    _ work: () async throws(From) -> T
) async throws(To) -> T {
    do {
        return try await work()
    } catch {
        throw translate(error)
    }
}
