import Foundation
import MediaIO
import ViewfinderCore

extension CoverPicker {
    /// The best `count` covers of the video, best first, far apart from each other (see
    /// `suggestedCovers(from:count:progress:)`: exposure, sharpness, colour, stillness and
    /// faces). `progress` counts the frames measured; cancelling stops (`MediaIOError.cancelled`).
    public static func suggestions(from reader: FrameReader, count: Int,
                                   progress: Progress? = nil) throws(CoverPickerError) -> [CoverSuggestion] {
        do {
            return try suggestedCovers(from: reader, count: count, progress: progress)
        } catch {
            throw .media(error)
        }
    }

    /// The same suggestions through the frame service that already reads the video (a cover
    /// screen's): nothing is opened again, and a slider move between two candidates waits for
    /// one decode at most. Cancelling `progress` or the task stops (`MediaIOError.cancelled`).
    @concurrent
    public static func suggestions(through service: FrameService, count: Int,
                                   progress: Progress? = nil) async throws(CoverPickerError) -> [CoverSuggestion] {
        do {
            return try await suggestedCovers(through: service, count: count, progress: progress)
        } catch {
            throw .media(error)
        }
    }
}
