import Foundation
import ViewfinderCore

/// One cell of a strip of N: its slice of the video, [i·d/N, (i+1)·d/N), and the frame it shows.
public struct StripCell: Sendable, Equatable {
    /// Its place in the strip, from 0.
    public let index: Int
    /// Where its slice starts, i·d/N: the time the cell stands for.
    public let requested: MediaTime
    /// The frame it shows; nil when its slice holds no frame of its own (a video with fewer
    /// frames than cells), rather than a copy of a neighbour's.
    public let frame: VideoFrame?
    /// Whether `frame` is the exact frame at `requested` (the one shown at that time).
    public let isExact: Bool

    public init(index: Int, requested: MediaTime, frame: VideoFrame?, isExact: Bool) {
        self.index = index
        self.requested = requested
        self.frame = frame
        self.isExact = isExact
    }
}

extension FrameReader {
    /// A strip of `count` cells across the video, each showing a different frame.
    ///
    /// `.exact`: each cell is the exact frame at i·d/N. `.fast`: each cell shows a frame from
    /// inside its own slice: the slice's last keyframe, decoded alone (in parallel), when the
    /// slice holds one; otherwise the exact decoder goes forward from the keyframe before the
    /// slice just far enough to enter it. So no two cells show the same frame, and a cell whose
    /// slice holds no frame at all is empty. `progress` counts cells and, when cancelled, stops
    /// before the next decode (`MediaIOError.cancelled`).
    public func strip(count: Int, mode: FrameMode, size: FrameSize, progress: Progress? = nil) throws(MediaIOError) -> [StripCell] {
        let times = duration.evenSteps(max(1, count))
        var starts: [Int64] = []
        for time in times { starts.append(try timestamp(for: .time(time))) }
        // A slice ends where the next one starts; the last one runs to the end of the video
        // (`lasts` holds each slice's last tick, for finding its last keyframe).
        let ends = Array(starts.dropFirst()) + [Int64.max]
        let lasts = starts.dropFirst().map { $0 &- 1 } + [try timestamp(for: .time(duration))]
        progress?.totalUnitCount = Int64(times.count)
        func counted() throws(MediaIOError) {
            if progress?.isCancelled == true { throw .cancelled }
        }

        var frames = [VideoFrame?](repeating: nil, count: times.count)
        var exact = [Bool](repeating: false, count: times.count)
        var forward: [Int] = []
        switch mode {
        case .exact:
            forward = Array(times.indices)
        case .fast:
            // Which slices hold a keyframe of their own, by demuxing only.
            var keyed: [Int] = []
            for i in times.indices {
                if let key = try keyframePacketTimestamp(atOrBefore: lasts[i]), key >= starts[i] {
                    keyed.append(i)
                } else {
                    forward.append(i)
                }
            }
            try counted()
            let pictures = try fastPictures(at: keyed.map { lasts[$0] }, size: size)
            for (i, picture) in zip(keyed, pictures) {
                // A keyframe an edit list hides (or shows before the slice) is not the slice's own.
                if let picture, picture.timestamp >= starts[i], picture.timestamp < ends[i] {
                    frames[i] = picture
                    exact[i] = picture.timestamp == starts[i]
                    progress?.completedUnitCount += 1
                } else {
                    forward.append(i)
                }
            }
            forward.sort()
        }

        // Ascending, so the exact decoder goes forward through the file.
        var lastShown: Int64?
        for i in forward {
            try counted()
            var frame = try exactFrame(at: starts[i])
            var atStart = true
            if mode == .fast, (frame.pts ?? Int64.min) < starts[i], let next = upcomingTimestamp {
                frame = try exactFrame(at: next)
                atStart = false
            }
            let pts = frame.pts ?? starts[i]
            // Frames longer than a slice would show again in the next cell: leave that one empty.
            if pts < ends[i], pts != lastShown, mode == .exact || pts >= starts[i] {
                frames[i] = try picture(from: frame, mode: mode, size: size)
                exact[i] = atStart
                lastShown = pts
            }
            progress?.completedUnitCount += 1
        }
        return times.indices.map { i in
            StripCell(index: i, requested: times[i], frame: frames[i], isExact: frames[i] != nil && exact[i])
        }
    }
}
