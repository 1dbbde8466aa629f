import Foundation
import MediaIO
import ViewfinderCore

extension CoverPicker {
    /// The best `count` covers of the video, best first, far apart from each other (see
    /// `FrameReader.suggestedCovers`). `progress` counts the frames measured; cancelling stops
    /// (`MediaIOError.cancelled`).
    public static func suggestions(from reader: FrameReader, count: Int,
                                   progress: Progress? = nil) throws(CoverPickerError) -> [CoverSuggestion] {
        do {
            return try reader.suggestedCovers(count: count, progress: progress)
        } catch {
            throw .media(error)
        }
    }
}
