import CFFmpeg
import Foundation
import ViewfinderCore

/// Reads pictures from one video file: the exact frame at a time, or the keyframe before it.
///
/// A reader keeps its decoder positioned between calls: asking for a later time in the same
/// group of pictures decodes forward from where it stopped; asking for an earlier time, or for
/// one past the next keyframe, seeks. Not thread-safe: use one reader from one task at a time.
public final class FrameReader {
    /// What the probe found.
    public let info: MediaInfo
    /// The video track being read.
    public let video: VideoTrackInfo
    /// Work done so far.
    public private(set) var statistics = FrameReaderStatistics()

    let container: MediaContainer
    let stream: UnsafeMutablePointer<AVStream>
    let decoder: VideoDecoder
    private let scaler = FrameScaler()
    private let timeBase: AVRational
    /// Presentation timestamp of the first frame shown: time 0.
    let origin: Int64
    /// Demuxed packets not yet sent to the decoder, oldest first.
    private var queue: [OwnedPacket] = []
    private var firstPacketDTS: Int64?

    // Decoder position, valid while `positioned` is true.
    private var positioned = true
    private var current: OwnedFrame?
    private var lookahead: OwnedFrame?
    private var lastSentDTS: Int64?
    private var bestPacketPTS: Int64?
    /// The end of the stream has been sent to the decoder; it may still hold frames.
    private var endSent = false
    /// The decoder has given out every frame.
    private var drained = false

    /// Opens `url` and prepares to read its main video track. Fails for files without video,
    /// with pictures larger than `limits`, or that FFmpeg cannot read.
    public init(url: URL, limits: DecodeLimits = .default) throws(MediaIOError) {
        container = try MediaContainer(url: url)
        let path = container.path
        if let codec = container.stillImageCodec { throw .stillImage(path: path, format: codec) }
        guard let stream = container.videoStream else {
            let audio = container.audioStream.map { codecName($0.parameters.codec_id) }
            if audio == nil, container.streams.isEmpty { throw .notMedia(path: path) }
            throw .noVideoStream(path: path, audioCodec: audio)
        }
        self.stream = stream
        let parameters = stream.parameters
        let (w, h) = (Int(parameters.width), Int(parameters.height))
        guard w > 0, h > 0 else { throw .corrupt(path: path, detail: "the video track has no picture size") }
        if Int64(w) * Int64(h) > limits.maxPixels || w > limits.maxSide || h > limits.maxSide {
            throw .dimensionsTooLarge(path: path, width: w, height: h, maxPixels: limits.maxPixels)
        }
        timeBase = stream.pointee.time_base
        guard timeBase.num > 0, timeBase.den > 0 else { throw .corrupt(path: path, detail: "invalid time base") }
        for other in container.streams where other != stream {
            other.pointee.discard = AVDISCARD_ALL
        }
        decoder = try VideoDecoder(stream: stream, path: path)
        info = try container.probe()
        video = info.video ?? VideoTrackInfo(
            streamIndex: Int(stream.pointee.index), codec: codecName(parameters.codec_id), codedSize: PixelSize(width: w, height: h),
            sampleAspectRatio: MediaTime(value: 1, timescale: 1), rotation: .none,
            frameRate: nil, frameCount: nil, pixelFormat: nil)

        // Time 0 is the earliest presentation time among the first packets (B-frames make the
        // first packet in decode order not necessarily the first shown).
        var first: [OwnedPacket] = []
        var earliest: Int64?
        while first.count < 48, let packet = try FrameReader.readPacket(container, stream: stream) {
            first.append(packet)
            if !packet.isDiscarded, let pts = packet.pts { earliest = min(earliest ?? pts, pts) }
        }
        guard !first.isEmpty else { throw .noFrameDecoded(path: path, detail: "the video track holds no packets") }
        queue = first
        firstPacketDTS = first.first?.dts ?? first.first?.pts
        origin = earliest ?? stream.pointee.start_time.nonNil ?? 0
    }

    /// The length of the video: times run from 0 to this.
    public var duration: MediaTime { info.duration }

    /// The picture at `position`, chosen by `mode`, rotated for display and sized as asked.
    public func frame(at position: TimePosition, mode: FrameMode = .exact,
                      size: FrameSize = .original) throws(MediaIOError) -> VideoFrame {
        let target: Int64
        switch position {
        case .time(let t):
            guard t >= .zero else { throw .timePastEnd(path: info.path, requested: t, duration: duration) }
            guard t <= duration else { throw .timePastEnd(path: info.path, requested: t, duration: duration) }
            target = try timestamp(for: t)
        case .frame(let n):
            target = try timestampOfFrame(n)
        }
        let decoded: OwnedFrame
        switch mode {
        case .exact: decoded = try exactFrame(at: target)
        case .fast: decoded = try keyframe(at: target)
        }
        return try picture(from: decoded, mode: mode, size: size)
    }

    /// Time from the first frame of a stream timestamp.
    func time(ofTimestamp pts: Int64) -> MediaTime {
        MediaTime.ticks(pts &- origin, timeBase: Int64(timeBase.num), Int64(timeBase.den)) ?? .zero
    }

    private func timestamp(for time: MediaTime) throws(MediaIOError) -> Int64 {
        let rate = MediaTime(value: Int64(timeBase.den), timescale: Int64(timeBase.num))
        guard let ticks = time.ticks(atRate: rate) else {
            throw .timePastEnd(path: info.path, requested: time, duration: duration)
        }
        return origin &+ ticks
    }

    // MARK: - Exact frames

    private func exactFrame(at target: Int64) throws(MediaIOError) -> OwnedFrame {
        if let answer = answerFromPosition(target) { return answer }
        if !canDecodeForward(to: target) { try seek(to: target) }
        var restarts = 0
        while true {
            switch try decodeForward(to: target) {
            case .found(let frame):
                return frame
            case .startedTooLate(let firstShown):
                // The keyframe we started from is shown after the target (open GOP, or a
                // keyframe whose decode time precedes its presentation): start earlier.
                restarts += 1
                guard restarts <= 8 else {
                    throw .noFrameDecoded(path: info.path, detail: "no frame at or before the requested time")
                }
                try seek(to: min(target, firstShown) &- oneSecond &* Int64(1 << restarts), strict: false)
            }
        }
    }

    /// The answer without decoding, when the frames around the target are already known.
    private func answerFromPosition(_ target: Int64) -> OwnedFrame? {
        guard positioned, let current, let pts = current.pts, pts <= target else { return nil }
        if let next = lookahead?.pts, next > target { return current }
        if lookahead == nil && drained { return current }
        return nil
    }

    private func canDecodeForward(to target: Int64) -> Bool {
        guard positioned, !drained else { return false }
        if endSent { return current.map { ($0.pts ?? Int64.max) <= target } ?? false }
        if let pts = current?.pts, pts > target { return false }
        let readPosition = lastSentDTS ?? (queue.first?.dts ?? queue.first?.pts) ?? Int64.min
        if let key = keyframeTimestamp(atOrBefore: target) {
            return key <= readPosition
        }
        // No index: seek only when the target is far ahead.
        return target &- readPosition < 10 &* oneSecond
    }

    private enum ForwardResult {
        case found(OwnedFrame)
        case startedTooLate(firstShown: Int64)
    }

    private func decodeForward(to target: Int64) throws(MediaIOError) -> ForwardResult {
        var candidate: OwnedFrame? = nil
        if let pts = current?.pts, pts <= target { candidate = current }
        if let next = lookahead, let pts = next.pts, pts <= target {
            candidate = next
            lookahead = nil
        } else if let next = lookahead {
            // It is past the target, so the current frame is the answer.
            return .found(candidate ?? next)
        }

        var decodeErrors = 0
        var lastError: Int32 = 0
        func take(_ frame: OwnedFrame) -> ForwardResult? {
            statistics.framesDecoded += 1
            guard let pts = frame.pts else { return nil }
            if pts <= target {
                if (candidate?.pts ?? Int64.min) <= pts { candidate = frame }
                return nil
            }
            guard let found = candidate else { return .startedTooLate(firstShown: pts) }
            current = found
            lookahead = frame
            return .found(found)
        }

        while true {
            // Collect what the decoder has ready.
            while true {
                let received = try decoder.receive()
                if case .frame(let frame) = received {
                    if let result = take(frame) { return result }
                    continue
                }
                if case .drained = received {
                    drained = true
                    guard let found = candidate else {
                        let detail = lastError != 0 ? ffmpegMessage(lastError) : "the stream ended first"
                        throw .noFrameDecoded(path: info.path, detail: detail)
                    }
                    current = found
                    lookahead = nil
                    return .found(found)
                }
                if case .failed(let code) = received {
                    decodeErrors += 1
                    lastError = code
                    if decodeErrors > 64 { throw .corrupt(path: info.path, detail: ffmpegMessage(code)) }
                    continue
                }
                break
            }
            if endSent {
                // A drained decoder that asks for input has nothing more to give.
                drained = true
                guard let found = candidate else {
                    throw .noFrameDecoded(path: info.path, detail: "the stream ended first")
                }
                current = found
                lookahead = nil
                return .found(found)
            }
            guard let packet = try nextPacket() else {
                endSent = true
                _ = decoder.send(nil)
                continue
            }
            // A packet shown before a frame we already know lies at or before the target can be
            // neither the answer nor (if nothing references it) needed: let the decoder skip it.
            let skippable = packet.pts.map { pts in bestPacketPTS.map { pts < $0 } ?? false } ?? false
            decoder.skip = skippable ? AVDISCARD_NONREF : AVDISCARD_DEFAULT
            if let pts = packet.pts, pts <= target, !packet.isDiscarded {
                bestPacketPTS = max(bestPacketPTS ?? pts, pts)
            }
            lastSentDTS = packet.dts ?? packet.pts ?? lastSentDTS
            statistics.packetsSent += 1
            if skippable { statistics.packetsSkippable += 1 }
            var sent = false
            while !sent {
                switch decoder.send(packet) {
                case .accepted:
                    sent = true
                case .rejected(let code):
                    decodeErrors += 1
                    lastError = code
                    if decodeErrors > 64 { throw .corrupt(path: info.path, detail: ffmpegMessage(code)) }
                    sent = true
                case .full:
                    let received = try decoder.receive()
                    if case .frame(let frame) = received, let result = take(frame) {
                        // Keep the unsent packet for the next forward decode.
                        queue.insert(packet, at: 0)
                        statistics.packetsSent -= 1
                        return result
                    }
                }
            }
        }
    }

    // MARK: - Keyframes

    private func keyframe(at target: Int64) throws(MediaIOError) -> OwnedFrame {
        try seek(to: target)
        guard let key = queue.first else { return try exactFrame(at: target) }
        queue.removeFirst()
        decoder.skip = AVDISCARD_DEFAULT
        statistics.packetsSent += 1
        _ = decoder.send(key)
        _ = decoder.send(nil)
        var shown: OwnedFrame?
        while case .frame(let frame) = try decoder.receive() {
            statistics.framesDecoded += 1
            if shown == nil { shown = frame }
        }
        decoder.reset()
        positioned = false
        // A keyframe an edit list hides produces no picture: fall back to the exact frame.
        if let shown { return shown }
        return try exactFrame(at: target)
    }

    // MARK: - Seeking and reading

    private var oneSecond: Int64 { max(1, Int64(timeBase.den) / Int64(timeBase.num)) }

    /// Timestamp of the last indexed keyframe at or before `target`, when the file has an index.
    private func keyframeTimestamp(atOrBefore target: Int64) -> Int64? {
        let i = av_index_search_timestamp(stream, target, AVSEEK_FLAG_BACKWARD)
        guard i >= 0, let entry = avformat_index_get_entry(stream, i) else { return nil }
        return entry.pointee.timestamp
    }

    /// Positions the demuxer so that the next packet is a keyframe shown at or before `target`
    /// (or the very first keyframe when none is), and resets the decoder.
    private func seek(to target: Int64, strict: Bool = true) throws(MediaIOError) {
        var point = target
        var step = oneSecond
        for _ in 0..<16 {
            reposition(to: point)
            guard let key = try nextKeyframe() else {
                if point <= (firstPacketDTS ?? Int64.min) { break }
                point = point &- step
                step = step &* 2
                continue
            }
            let shown = key.pts ?? key.dts ?? Int64.min
            let atStart = (key.dts ?? shown) <= (firstPacketDTS ?? Int64.min)
            if shown <= target || atStart || !strict {
                queue.insert(key, at: 0)
                return
            }
            point = min(point, key.dts ?? shown) &- step
            step = step &* 2
        }
        // Give up on the index and start from the beginning.
        rewindToStart()
    }

    private func reposition(to point: Int64) {
        statistics.seeks += 1
        resetPosition()
        if point <= (firstPacketDTS ?? Int64.min) {
            rewindToStart()
            return
        }
        if av_seek_frame(container.context, stream.pointee.index, point, AVSEEK_FLAG_BACKWARD) < 0 {
            rewindToStart()
        }
    }

    private func rewindToStart() {
        resetPosition()
        let ctx = container.context
        let index = stream.pointee.index
        let first = firstPacketDTS ?? 0
        if av_seek_frame(ctx, index, first, AVSEEK_FLAG_BACKWARD) >= 0 { return }
        if avformat_seek_file(ctx, index, Int64.min, first, first, 0) >= 0 { return }
        _ = av_seek_frame(ctx, -1, 0, AVSEEK_FLAG_BYTE)
    }

    private func resetPosition() {
        queue.removeAll()
        decoder.reset()
        positioned = true
        current = nil
        lookahead = nil
        lastSentDTS = nil
        bestPacketPTS = nil
        endSent = false
        drained = false
    }

    /// Reads until a keyframe, dropping the packets before it; nil at the end of the file.
    private func nextKeyframe() throws(MediaIOError) -> OwnedPacket? {
        var skipped = 0
        while let packet = try nextPacket() {
            if packet.isKeyframe { return packet }
            skipped += 1
            // A stream that never marks keyframes: take what comes.
            if skipped > 2000 { return packet }
        }
        return nil
    }

    private func nextPacket() throws(MediaIOError) -> OwnedPacket? {
        if !queue.isEmpty { return queue.removeFirst() }
        return try FrameReader.readPacket(container, stream: stream)
    }

    /// The next packet of `stream`, nil at the end of the file.
    static func readPacket(_ container: MediaContainer,
                           stream: UnsafeMutablePointer<AVStream>) throws(MediaIOError) -> OwnedPacket? {
        var failures = 0
        while true {
            guard let packet = OwnedPacket() else { throw .unreadable(path: container.path, reason: "out of memory") }
            let result = av_read_frame(container.context, packet.pointer)
            if result == errorEOF { return nil }
            if result < 0 {
                // Damaged data: skip a bounded number of read errors, then give up as at the end.
                failures += 1
                if failures > 32 || result == vf_averror_enomem() { return nil }
                if container.context.pointee.pb?.pointee.eof_reached != 0 { return nil }
                continue
            }
            if packet.streamIndex == stream.pointee.index { return packet }
        }
    }

    // MARK: - Frame numbers and durations

    private func timestampOfFrame(_ n: Int) throws(MediaIOError) -> Int64 {
        guard n >= 0 else { throw .frameOutOfRange(path: info.path, frame: n, frameCount: 0) }
        rewindToStart()
        positioned = false
        var shown: [Int64] = []
        // Reordering never spans more than 16 frames in H.264/HEVC; read a margin past n.
        while shown.count <= n + 32, let packet = try nextPacket() {
            if !packet.isDiscarded, let pts = packet.pts { shown.append(pts) }
        }
        shown.sort()
        guard n < shown.count else {
            throw .frameOutOfRange(path: info.path, frame: n, frameCount: shown.count)
        }
        return shown[n]
    }

    // MARK: - Pictures

    private func picture(from frame: OwnedFrame, mode: FrameMode, size: FrameSize) throws(MediaIOError) -> VideoFrame {
        let f = frame.pointer.pointee
        let coded = PixelSize(width: Int(f.width), height: Int(f.height))
        let square = VideoTrackInfo.squarePixels(coded, sampleAspectRatio: video.sampleAspectRatio)
        let display = video.rotation.apply(to: square)
        let wanted = size.resolve(display)
        let unrotated = video.rotation.swapsDimensions ? wanted.transposed : wanted
        guard let image = scaler.convert(frame, to: unrotated) else {
            throw .noFrameDecoded(path: info.path, detail: "cannot convert the decoded picture")
        }
        let pts = frame.pts ?? origin
        return VideoFrame(image: image.rotated(video.rotation), time: time(ofTimestamp: pts),
                          timestamp: pts, isKeyframe: frame.isKeyframe, mode: mode)
    }
}

extension Int64 {
    /// nil for FFmpeg's "no timestamp" marker.
    var nonNil: Int64? { self == noPTS ? nil : self }
}
