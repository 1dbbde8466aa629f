import Foundation
import ViewfinderCore

extension FrameReader {
    /// The frame shown right after `frame`, exactly, or nil when `frame` is the last one.
    ///
    /// Playing a range calls this once per frame: the decoder stays where the previous answer left
    /// it, so each call decodes forward by one frame instead of seeking. `frame` must come from
    /// this reader (its timestamp is where decoding resumes).
    public func frame(after frame: VideoFrame, size: FrameSize = .original) throws(MediaIOError) -> VideoFrame? {
        // Free when the decoder still stands at `frame`; a seek when something else moved it.
        _ = try exactFrame(at: frame.timestamp)
        guard let next = upcomingTimestamp else { return nil }
        return try picture(from: try exactFrame(at: next), mode: .exact, size: size)
    }
}
