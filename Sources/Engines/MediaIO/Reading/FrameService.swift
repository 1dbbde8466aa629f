import Foundation
import ViewfinderCore

/// One video's frames, decoded away from the caller's actor: the single owner of a (not
/// thread-safe) `FrameReader`, so one service serves one purpose at a time (the cover slider,
/// trim scrubbing, or playing a range). The cover chooser and the trimmer both use it.
public actor FrameService {
    private let reader: FrameReader
    /// What the probe found, readable from any actor.
    public nonisolated let info: MediaInfo

    /// Takes over `reader`; nothing else may use it afterwards.
    public init(reader: sending FrameReader) {
        info = reader.info
        self.reader = reader
    }

    /// Opens `url` (see `FrameReader(url:)`) off the caller's actor.
    public static func open(_ url: URL) async throws(MediaIOError) -> FrameService {
        FrameService(reader: try FrameReader(url: url))
    }

    /// The picture at `time`, chosen by `mode`, sized as asked.
    public func frame(at time: MediaTime, mode: FrameMode, size: FrameSize) throws(MediaIOError) -> VideoFrame {
        try reader.frame(at: .time(time), mode: mode, size: size)
    }

    /// Where every frame is shown (see `FrameReader.timeline`); the decoder's position is
    /// given up, so the next exact frame seeks.
    public func timeline() throws(MediaIOError) -> FrameTimeline {
        try reader.timeline()
    }

    /// The next frame in presentation order, or nil after the last one.
    public func frame(after frame: VideoFrame, size: FrameSize) throws(MediaIOError) -> VideoFrame? {
        try reader.frame(after: frame, size: size)
    }

    /// The frames of a fast strip of `count` cells (see `FrameReader.strip`): each from its own
    /// slice of the video, so no two alike; a cell whose slice holds no frame is left out.
    public func strip(count: Int, size: FrameSize) throws(MediaIOError) -> [VideoFrame] {
        try reader.strip(count: count, mode: .fast, size: size).compactMap(\.frame)
    }

    /// The cells of a strip of `count`, fast or exact.
    public func stripCells(count: Int, mode: FrameMode, size: FrameSize) throws(MediaIOError) -> [StripCell] {
        try reader.strip(count: count, mode: mode, size: size)
    }
}
