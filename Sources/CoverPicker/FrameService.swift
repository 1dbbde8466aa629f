import Foundation
import MediaIO
import ViewfinderCore

/// Decodes frames for a session away from the main actor; owns the (non-thread-safe) reader.
actor FrameService {
    private let reader: FrameReader
    /// What the probe found, readable from any actor.
    nonisolated let info: MediaInfo

    private init(reader: FrameReader, info: MediaInfo) {
        self.reader = reader
        self.info = info
    }

    /// Opens `url` off the caller's actor and checks the limit from metadata before any decoding.
    static func open(_ url: URL, limit: DurationLimit) async throws(CoverPickerError) -> FrameService {
        let reader = try CoverPicker.open(url, limit: limit)
        return FrameService(reader: reader, info: reader.info)
    }

    func frame(at time: MediaTime, mode: FrameMode, size: FrameSize) throws(CoverPickerError) -> VideoFrame {
        do {
            return try reader.frame(at: .time(time), mode: mode, size: size)
        } catch {
            throw .media(error)
        }
    }

    func strip(count: Int, size: FrameSize) throws(CoverPickerError) -> [VideoFrame] {
        try CoverPicker.filmstrip(from: reader, count: count, mode: .fast, size: size)
    }
}
