internal import CFFmpeg
import Foundation
import ViewfinderCore

/// Reads pictures from one video file: the exact frame at a time, or the keyframe before it.
///
/// A reader keeps its decoder positioned between calls: asking for a later time in the same
/// group of pictures decodes forward from where it stopped; asking for an earlier time, or for
/// one past the next keyframe, seeks. Fast (keyframe) requests use a decoder and demuxer of
/// their own, so they never lose that position. Not thread-safe: use one reader from one task
/// at a time.
public final class FrameReader {
    /// What the probe found.
    public let info: MediaInfo
    /// The video track being read.
    public let video: VideoTrackInfo
    /// Work done so far by the exact decoder.
    public private(set) var statistics = FrameReaderStatistics()

    private let url: URL
    let source: PacketSource
    /// The exact decoder, opened on first use (exports and fast frames never need it).
    private var exactDecoder: VideoDecoder?
    /// A one-thread decoder for keyframes decoded alone (`keyframeAlone`).
    private var singleDecoder: VideoDecoder?
    private let scaler = FrameScaler()
    private let maker: PictureMaker

    /// What to do with HDR (HLG and PQ) frames: tone-mapped to SDR unless set otherwise.
    public var hdr: HDRConversion = .toneMap {
        didSet { scaler.hdr = hdr }
    }
    private var keyframes: KeyframeDecoder?

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

    /// Frame threads for exact decoding: twice the cores keeps both busy across the serial
    /// dependencies of a GOP (measured on the benchmark clip: 2 cores, 4 threads is fastest).
    static let exactThreads = Int32(min(16, max(2, ProcessInfo.processInfo.activeProcessorCount * 2)))

    /// Opens `url` and prepares to read its main video track. Fails for files without video,
    /// with pictures larger than `limits`, or that FFmpeg cannot read.
    public convenience init(url: URL, limits: DecodeLimits = .default) throws(MediaIOError) {
        try self.init(opened: MediaContainer(url: url), limits: limits)
    }

    /// Goes on from a file whose header was read (and found acceptable): the same open file is
    /// analyzed and read, never opened again. A header serves one reader.
    public convenience init(header: MediaHeader, limits: DecodeLimits = .default,
                            analysis: StreamAnalysis = .full) throws(MediaIOError) {
        let stream = header.container.videoStream?.parameters
        let complete = stream.map { $0.codec_id != AV_CODEC_ID_NONE && $0.width > 0 && $0.height > 0 } ?? false
        if analysis == .full || !complete { try header.container.analyzeStreams() }
        try self.init(opened: header.container, limits: limits)
    }

    /// How much of a file a reader analyzes before it reads frames.
    public enum StreamAnalysis: Sendable, Hashable {
        /// Read (and for some codecs decode) the first packets to learn every stream detail.
        case full
        /// Only the header, when it names the video's codec and picture size (MP4 and MOV
        /// headers do), which saves decoding the first frame: the pixel format is then unknown
        /// (`video.pixelFormat` is nil), and a sample aspect ratio that only the bitstream
        /// carries is missed, so compare `video` with a fully analyzed reader's where it matters.
        case headerWhenComplete
    }

    private init(opened container: MediaContainer, limits: DecodeLimits) throws(MediaIOError) {
        url = URL(fileURLWithPath: container.path)
        let path = container.path
        if let codec = container.stillImageCodec { throw .stillImage(path: path, format: codec) }
        guard let stream = container.videoStream else {
            let audio = container.audioStream.map { codecName($0.parameters.codec_id) }
            if audio == nil, container.streams.isEmpty { throw .notMedia(path: path) }
            throw .noVideoStream(path: path, audioCodec: audio)
        }
        let parameters = stream.parameters
        let (w, h) = (Int(parameters.width), Int(parameters.height))
        guard w > 0, h > 0 else { throw .corrupt(path: path, detail: tr("the video track has no picture size")) }
        if Int64(w) * Int64(h) > limits.maxPixels || w > limits.maxSide || h > limits.maxSide {
            throw .dimensionsTooLarge(path: path, width: w, height: h, maxPixels: limits.maxPixels)
        }
        let timeBase = stream.pointee.time_base
        guard timeBase.num > 0, timeBase.den > 0 else { throw .corrupt(path: path, detail: tr("invalid time base")) }
        source = PacketSource(container: container, stream: stream)
        info = try container.probe()
        video = info.video ?? VideoTrackInfo(
            streamIndex: Int(stream.pointee.index), codec: codecName(parameters.codec_id),
            codedSize: PixelSize(width: w, height: h), sampleAspectRatio: MediaTime(value: 1, timescale: 1),
            rotation: .none, frameRate: nil, frameCount: nil, pixelFormat: nil)

        // Time 0 is the earliest presentation time among the first packets (B-frames make the
        // first packet in decode order not necessarily the first shown).
        let first = try source.prefetch(48)
        guard !first.isEmpty else { throw .noFrameDecoded(path: path, detail: tr("the video track holds no packets")) }
        let earliest = first.filter { !$0.isDiscarded }.compactMap(\.pts).min()
        var maker = PictureMaker(rotation: video.rotation, sampleAspectRatio: video.sampleAspectRatio,
                                 origin: earliest ?? stream.pointee.start_time.nonNil ?? 0,
                                 timeBase: (Int64(timeBase.num), Int64(timeBase.den)))
        if let rate = video.frameRate, rate.value > 0 {
            maker.frameDuration = MediaTime(value: rate.timescale, timescale: rate.value)
        }
        self.maker = maker
        scaler.streamMetadata = video.colour.mastering
    }

    /// The length of the video: times run from 0 to this.
    public var duration: MediaTime { info.duration }

    /// The picture at `position`, chosen by `mode`, rotated for display and sized as asked.
    public func frame(at position: TimePosition, mode: FrameMode = .exact,
                      size: FrameSize = .original) throws(MediaIOError) -> VideoFrame {
        try frames(at: [position], mode: mode, size: size)[0]
    }

    /// The pictures at several positions. Fast frames are decoded in parallel (one keyframe
    /// decode per distinct keyframe); exact frames are decoded in the order given, so ascending
    /// positions decode forward through the file.
    public func frames(at positions: [TimePosition], mode: FrameMode = .exact,
                       size: FrameSize = .original) throws(MediaIOError) -> [VideoFrame] {
        var targets: [Int64] = []
        for position in positions { targets.append(try timestamp(for: position)) }
        switch mode {
        case .exact:
            var result: [VideoFrame] = []
            for target in targets {
                result.append(try picture(from: try exactFrame(at: target), mode: .exact, size: size))
            }
            return result
        case .fast:
            let fast = try fastPictures(at: targets, size: size)
            var result: [VideoFrame] = []
            for (target, picture) in zip(targets, fast) {
                // A keyframe that an edit list hides gives no picture: use the exact frame.
                if let picture { result.append(picture) } else {
                    result.append(try self.picture(from: try exactFrame(at: target), mode: .fast, size: size))
                }
            }
            return result
        }
    }

    /// The exact time (from the first frame) of the frame at `position`, as `frame(at:)` would
    /// report it, without converting its picture: frame N's own time, or the time of the frame
    /// shown at a time.
    public func time(of position: TimePosition) throws(MediaIOError) -> MediaTime {
        maker.time(ofTimestamp: try exactTimestamp(at: position).pts)
    }

    /// The stream timestamp of the frame at `position` (decoding as needed) and whether that
    /// frame is a keyframe: where a frame-exact cut starts.
    func exactTimestamp(at position: TimePosition) throws(MediaIOError) -> (pts: Int64, isKeyframe: Bool) {
        let frame = try exactFrame(at: try timestamp(for: position))
        return (frame.pts ?? maker.origin, frame.isKeyframe)
    }

    /// The stream timestamp of the keyframe shown at or before `position`, by demuxing only.
    func keyframeTimestamp(at position: TimePosition) throws(MediaIOError) -> Int64 {
        try keyframePacketTimestamp(atOrBefore: try timestamp(for: position)) ?? maker.origin
    }

    /// The presentation timestamp of the keyframe packet at or before `target` (stream ticks),
    /// by demuxing only; nil when there is none.
    func keyframePacketTimestamp(atOrBefore target: Int64) throws(MediaIOError) -> Int64? {
        try keyframeDecoder().keyframePacketTimestamp(atOrBefore: target)
    }

    /// The picture of the keyframe at or before each target (stream ticks), each decoded alone,
    /// in parallel; nil where a keyframe gives no picture.
    func fastPictures(at targets: [Int64], size: FrameSize) throws(MediaIOError) -> [VideoFrame?] {
        let (maker, hdr, metadata) = (self.maker, self.hdr, video.colour.mastering)
        return try keyframeDecoder().pictures(at: targets) { frame, scaler in
            scaler.hdr = hdr
            scaler.streamMetadata = metadata
            return maker.picture(from: frame, mode: .fast, size: size, scaler: scaler)
        }
    }

    /// Time from the first frame of a stream timestamp, and back.
    var timeMapping: PictureMaker { maker }

    /// The selected video stream's index in the container.
    var streamIndex: Int32 { source.stream.pointee.index }

    /// The reader's demuxer, handed over to an export that reads it directly; the reader must
    /// not read frames afterwards.
    var containerForExport: MediaContainer {
        positioned = false
        return source.container
    }

    private func keyframeDecoder() throws(MediaIOError) -> KeyframeDecoder {
        if let keyframes { return keyframes }
        let made = try KeyframeDecoder(url: url, streamIndex: source.stream.pointee.index,
                                       codec: source.stream.parameters.codec_id)
        keyframes = made
        return made
    }

    /// The stream timestamp a position stands for, after range checks.
    func timestamp(for position: TimePosition) throws(MediaIOError) -> Int64 {
        switch position {
        case .time(let t):
            guard t >= .zero, t <= duration else {
                throw .timePastEnd(path: info.path, requested: t, duration: duration)
            }
            let rate = MediaTime(value: maker.timeBase.den, timescale: maker.timeBase.num)
            guard let ticks = t.ticks(atRate: rate) else {
                throw .timePastEnd(path: info.path, requested: t, duration: duration)
            }
            return maker.origin &+ ticks
        case .frame(let n):
            return try timestampOfFrame(n)
        }
    }

    func picture(from frame: OwnedFrame, mode: FrameMode, size: FrameSize) throws(MediaIOError) -> VideoFrame {
        guard let picture = maker.picture(from: frame, mode: mode, size: size, scaler: scaler) else {
            throw .noFrameDecoded(path: info.path, detail: tr("cannot convert the decoded picture"))
        }
        return picture
    }

    // MARK: - Exact frames

    func exactFrame(at target: Int64) throws(MediaIOError) -> OwnedFrame {
        if let answer = answerFromPosition(target) { return answer }
        if !canDecodeForward(to: target) { try seek(to: target) }
        // Nothing sent since the seek (or the open): the next packet is a keyframe.
        if current == nil, lookahead == nil, lastSentDTS == nil, let alone = try keyframeAlone(at: target) { return alone }
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
                    throw .noFrameDecoded(path: info.path, detail: tr("no frame at or before the requested time"))
                }
                try seek(to: min(target, firstShown) &- source.oneSecond &* Int64(1 << restarts), strict: false)
            }
        }
    }

    /// The frame at `target` when it is the keyframe the decoder would start from, shown at exactly that
    /// time (a cover at 0, `frame:N` of a keyframe): decoded alone on one thread, the same
    /// picture bit for bit, without filling the frame-threaded decoder's pipeline (four pictures
    /// decoded before the first comes out). Only an intra picture qualifies: a keyframe that is
    /// a recovery point of an intra refresh is decoded forward as usual. The packet is put back
    /// either way; nil when the shortcut does not apply.
    private func keyframeAlone(at target: Int64) throws(MediaIOError) -> OwnedFrame? {
        guard let key = try source.next() else { return nil }
        guard key.isKeyframe, !key.isDiscarded, key.pts == target else {
            source.pushBack(key)
            return nil
        }
        if singleDecoder == nil { singleDecoder = try VideoDecoder(stream: source.stream, path: info.path, threads: 1) }
        guard let decoder = singleDecoder, let frame = KeyframeDecoder.decodeAlone(key, on: decoder),
              frame.pts == target, frame.pointer.pointee.pict_type == AV_PICTURE_TYPE_I else {
            source.pushBack(key)
            return nil
        }
        statistics.framesDecoded += 1
        // The exact decoder was not fed: with the keyframe put back and the frame as the
        // current one, a later request decodes forward from the same place without a seek.
        source.pushBack(key)
        current = frame
        return frame
    }

    /// The timestamp of the frame shown after the last exact answer, already decoded; nil once
    /// the decoder has given out its last frame.
    var upcomingTimestamp: Int64? { positioned ? lookahead?.pts : nil }

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
        let readPosition = lastSentDTS ?? source.queuedDTS ?? Int64.min
        if let key = source.keyframeTimestamp(atOrBefore: target) {
            return key <= readPosition
        }
        // No index: seek only when the target is far ahead.
        return target &- readPosition < 10 &* source.oneSecond
    }

    private enum ForwardResult {
        case found(OwnedFrame)
        case startedTooLate(firstShown: Int64)
    }

    private func decoder() throws(MediaIOError) -> VideoDecoder {
        if let exactDecoder { return exactDecoder }
        let made = try VideoDecoder(stream: source.stream, path: info.path, threads: FrameReader.exactThreads)
        exactDecoder = made
        return made
    }

    private func decodeForward(to target: Int64) throws(MediaIOError) -> ForwardResult {
        let decoder = try decoder()
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
                        let detail = lastError != 0 ? ffmpegMessage(lastError) : tr("the stream ended first")
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
                    throw .noFrameDecoded(path: info.path, detail: tr("the stream ended first"))
                }
                current = found
                lookahead = nil
                return .found(found)
            }
            guard let packet = try source.next() else {
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
                    guard case .frame(let frame) = try decoder.receive() else {
                        // Full yet nothing to give: a broken decoder state; drop this packet.
                        decodeErrors += 1
                        sent = true
                        continue
                    }
                    if let result = take(frame) {
                        // Keep the unsent packet for the next forward decode.
                        source.pushBack(packet)
                        statistics.packetsSent -= 1
                        return result
                    }
                }
            }
        }
    }

    // MARK: - Seeking

    /// Forgets the decoder's position and seeks to a keyframe shown at or before `target`.
    private func seek(to target: Int64, strict: Bool = true) throws(MediaIOError) {
        resetPosition()
        try source.seekToKeyframe(atOrBefore: target, strict: strict)
        statistics.seeks = source.seeks
    }

    private func resetPosition() {
        exactDecoder?.reset()
        positioned = true
        current = nil
        lookahead = nil
        lastSentDTS = nil
        bestPacketPTS = nil
        endSent = false
        drained = false
    }

    // MARK: - Frame numbers

    private func timestampOfFrame(_ n: Int) throws(MediaIOError) -> Int64 {
        guard n >= 0 else { throw .frameOutOfRange(path: info.path, frame: n, frameCount: 0) }
        // Reordering never spans more than 16 frames in H.264/HEVC; read a margin past n
        // (saturating: a frame number near Int.max reads to the end and is then out of range).
        let wanted = n.addingReportingOverflow(32)
        let shown = try shownPackets(upTo: wanted.overflow ? Int.max : wanted.partialValue).map(\.pts)
        guard n < shown.count else {
            throw .frameOutOfRange(path: info.path, frame: n, frameCount: shown.count)
        }
        return shown[n]
    }

    /// Where the frames and keyframes are shown, from the packets alone (no decoding): the
    /// whole file is demuxed once. The exact decoder seeks afterwards.
    public func timeline() throws(MediaIOError) -> FrameTimeline {
        let shown = try shownPackets(upTo: Int.max)
        return FrameTimeline(frames: shown.map { maker.time(ofTimestamp: $0.pts) },
                             keyframes: shown.indices.filter { shown[$0].isKeyframe })
    }

    /// The timestamps of the first `limit` (and a few more) shown packets, in presentation
    /// order, from the start of the stream; the decoder's position is given up.
    private func shownPackets(upTo limit: Int) throws(MediaIOError) -> [(pts: Int64, isKeyframe: Bool)] {
        resetPosition()
        positioned = false
        source.rewind()
        var shown: [(pts: Int64, isKeyframe: Bool)] = []
        while shown.count <= limit, let packet = try source.next() {
            if !packet.isDiscarded, let pts = packet.pts { shown.append((pts, packet.isKeyframe)) }
        }
        shown.sort { $0.pts < $1.pts }
        return shown
    }
}

/// Where a video's frames are shown, read from its packets.
public struct FrameTimeline: Sendable, Equatable {
    /// Every frame's time from the first frame, in presentation order.
    public let frames: [MediaTime]
    /// The positions in `frames` of the keyframes.
    public let keyframes: [Int]
}

extension Int64 {
    /// nil for FFmpeg's "no timestamp" marker.
    var nonNil: Int64? { self == noPTS ? nil : self }
}
