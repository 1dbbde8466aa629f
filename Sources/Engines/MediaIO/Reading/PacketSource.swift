internal import CFFmpeg
import Foundation
import ViewfinderCore

/// The packets of one stream in decode order, with a read-ahead queue and seeking to a keyframe
/// that is shown at or before a time.
final class PacketSource {
    let container: MediaContainer
    let stream: UnsafeMutablePointer<AVStream>
    /// One second in stream ticks (at least 1).
    let oneSecond: Int64
    /// Decode timestamp of the stream's first packet: the floor for every seek.
    private(set) var firstPacketDTS: Int64?
    /// Demuxer seeks made so far.
    private(set) var seeks = 0
    /// Packets read but not yet handed out, oldest first.
    private var queue: [OwnedPacket] = []

    init(container: MediaContainer, stream: UnsafeMutablePointer<AVStream>) {
        self.container = container
        self.stream = stream
        let tb = stream.pointee.time_base
        oneSecond = max(1, Int64(max(tb.den, 1)) / Int64(max(tb.num, 1)))
        for other in container.streams where other != stream {
            other.pointee.discard = AVDISCARD_ALL
        }
    }

    /// Reads up to `count` packets ahead (from the current position) and returns them; they
    /// stay queued. The first call, on a fresh file, fixes `firstPacketDTS`.
    func prefetch(_ count: Int) throws(MediaIOError) -> [OwnedPacket] {
        while queue.count < count, let packet = try read() {
            queue.append(packet)
        }
        if firstPacketDTS == nil { firstPacketDTS = queue.first.flatMap { $0.dts ?? $0.pts } }
        return queue
    }

    /// The next packet, nil at the end of the stream.
    func next() throws(MediaIOError) -> OwnedPacket? {
        if !queue.isEmpty { return queue.removeFirst() }
        return try read()
    }

    /// Puts a packet back at the front.
    func pushBack(_ packet: OwnedPacket) {
        queue.insert(packet, at: 0)
    }

    /// The decode timestamp of the packet `next()` would return, if one is queued.
    var queuedDTS: Int64? { queue.first.flatMap { $0.dts ?? $0.pts } }

    /// Timestamp of the last indexed keyframe at or before `target`, when the file has an index.
    func keyframeTimestamp(atOrBefore target: Int64) -> Int64? {
        let i = av_index_search_timestamp(stream, target, AVSEEK_FLAG_BACKWARD)
        guard i >= 0, let entry = avformat_index_get_entry(stream, i) else { return nil }
        return entry.pointee.timestamp
    }

    /// Positions the stream so that `next()` returns a keyframe shown at or before `target`, or
    /// the first keyframe when none is (or any keyframe at or before the seek point when
    /// `strict` is false). Seeks earlier and earlier when the index lands on a keyframe shown
    /// after the target (open GOPs, keyframes decoded before they are shown).
    func seekToKeyframe(atOrBefore target: Int64, strict: Bool = true) throws(MediaIOError) {
        var point = target
        var step = oneSecond
        let floor = firstPacketDTS ?? Int64.min
        for _ in 0..<16 {
            reposition(to: point)
            guard let key = try nextKeyframe() else {
                if point <= floor { break }
                point = point &- step
                step = step &* 2
                continue
            }
            let shown = key.pts ?? key.dts ?? Int64.min
            let atStart = (key.dts ?? shown) <= floor
            if shown <= target || atStart || !strict {
                pushBack(key)
                return
            }
            point = min(point, key.dts ?? shown) &- step
            step = step &* 2
        }
        rewind()
    }

    /// Back to the first packet of the stream.
    func rewind() {
        queue.removeAll()
        let ctx = container.context
        let index = stream.pointee.index
        let first = firstPacketDTS ?? 0
        if av_seek_frame(ctx, index, first, AVSEEK_FLAG_BACKWARD) >= 0 { return }
        if avformat_seek_file(ctx, index, Int64.min, first, first, 0) >= 0 { return }
        _ = av_seek_frame(ctx, -1, 0, AVSEEK_FLAG_BYTE)
    }

    private func reposition(to point: Int64) {
        seeks += 1
        queue.removeAll()
        if point <= (firstPacketDTS ?? Int64.min) {
            rewind()
            return
        }
        if av_seek_frame(container.context, stream.pointee.index, point, AVSEEK_FLAG_BACKWARD) < 0 {
            rewind()
        }
    }

    /// Reads until a keyframe, dropping the packets before it; nil at the end of the file.
    private func nextKeyframe() throws(MediaIOError) -> OwnedPacket? {
        var skipped = 0
        while let packet = try next() {
            if packet.isKeyframe { return packet }
            skipped += 1
            // A stream that never marks keyframes: take what comes.
            if skipped > 2000 { return packet }
        }
        return nil
    }

    /// The next packet of the stream from the demuxer, nil at the end of the file.
    private func read() throws(MediaIOError) -> OwnedPacket? {
        let index = stream.pointee.index
        return try container.readPacket(onDamage: .skip) { $0 == index }
    }
}
