import Foundation
import MediaIO
import ViewfinderCore

/// Decodes frames for the trim screen away from the main actor; owns its (non-thread-safe)
/// reader, so one service serves one purpose at a time (scrubbing, or playing a range).
actor TrimFrameService {
    private let reader: FrameReader
    /// What the probe found, readable from any actor.
    nonisolated let info: MediaInfo

    private init(reader: FrameReader) {
        self.reader = reader
        info = reader.info
    }

    /// Opens `url` off the caller's actor. A file that cannot be read at all is `cannotEdit`.
    static func open(_ url: URL) async throws(VideoEditingError) -> TrimFrameService {
        do {
            return TrimFrameService(reader: try FrameReader(url: url))
        } catch {
            throw .cannotEdit(path: url.path, reason: error)
        }
    }

    /// Fast frames at even steps across the video. The first is the keyframe at 0, so a strip
    /// that decodes is also the cookbook's "can it be edited?" check, answered with a reason.
    func strip(count: Int, size: FrameSize) throws(VideoEditingError) -> [VideoFrame] {
        do {
            let times = reader.duration.evenSteps(max(1, count)).map(TimePosition.time)
            return try reader.frames(at: times, mode: .fast, size: size)
        } catch {
            throw .cannotEdit(path: info.path, reason: error)
        }
    }

    func frame(at time: MediaTime, mode: FrameMode, size: FrameSize) throws(VideoEditingError) -> VideoFrame {
        do {
            return try reader.frame(at: .time(time), mode: mode, size: size)
        } catch {
            throw .media(error)
        }
    }

    /// The next frame in presentation order, or nil after the last one.
    func frame(after frame: VideoFrame, size: FrameSize) throws(VideoEditingError) -> VideoFrame? {
        do {
            return try reader.frame(after: frame, size: size)
        } catch {
            throw .media(error)
        }
    }
}
