internal import CFFmpeg
import Foundation
import ViewfinderCore

/// Decodes keyframes on their own — one packet each — for fast frames.
///
/// It reads from a second demuxer of the same file and decodes on worker decoders of its own,
/// so fast previews never disturb the position of the exact decoder (scrubbing alternates the
/// two), and a strip's keyframes decode in parallel, one worker per core.
final class KeyframeDecoder {
    private let source: PacketSource
    private let path: String
    private var workers: [Worker] = []

    /// A single-threaded decoder and its scaler; one thread uses a worker at a time.
    final class Worker: @unchecked Sendable {
        let decoder: VideoDecoder
        let scaler = FrameScaler()
        init(decoder: VideoDecoder) { self.decoder = decoder }
    }

    init(url: URL, streamIndex: Int32, codec: AVCodecID) throws(MediaIOError) {
        let container = try MediaContainer(url: url, analyze: false)
        path = container.path
        var stream = container.streams.first { $0.pointee.index == streamIndex }
        if stream.map({ $0.parameters.codec_id != codec || $0.parameters.width <= 0 }) ?? true {
            try container.analyzeStreams()
            stream = container.streams.first { $0.pointee.index == streamIndex }
        }
        guard let stream, stream.parameters.codec_id == codec else {
            throw .corrupt(path: path, detail: tr("the video track changed between two reads"))
        }
        source = PacketSource(container: container, stream: stream)
        _ = try source.prefetch(1)
    }

    /// The picture of the keyframe shown at or before each target (stream ticks), made by
    /// `make` on the worker that decoded it; nil where the keyframe gives no picture.
    func pictures(at targets: [Int64], make: @escaping @Sendable (OwnedFrame, FrameScaler) -> VideoFrame?)
        throws(MediaIOError) -> [VideoFrame?]
    {
        // Find each target's keyframe by demuxing only; equal keyframes are decoded once.
        var packets: [OwnedPacket] = []
        var jobOfTarget: [Int?] = []
        for target in targets {
            try source.seekToKeyframe(atOrBefore: target)
            guard let key = try source.next() else {
                jobOfTarget.append(nil)
                continue
            }
            let id = key.pts ?? key.dts
            if let existing = packets.firstIndex(where: { ($0.pts ?? $0.dts) == id && id != nil }) {
                jobOfTarget.append(existing)
            } else {
                jobOfTarget.append(packets.count)
                packets.append(key)
            }
        }
        guard !packets.isEmpty else { return targets.map { _ in nil } }

        let lanes = min(packets.count, max(1, ProcessInfo.processInfo.activeProcessorCount))
        while workers.count < lanes {
            workers.append(Worker(decoder: try VideoDecoder(stream: source.stream, path: path, threads: 1)))
        }
        let jobs = Lent(packets)
        let results = Locked([VideoFrame?](repeating: nil, count: packets.count))
        let pool = workers
        DispatchQueue.concurrentPerform(iterations: lanes) { lane in
            let worker = pool[lane]
            for job in stride(from: lane, to: jobs.value.count, by: lanes) {
                let picture = KeyframeDecoder.decodeAlone(jobs.value[job], on: worker.decoder).flatMap {
                    make($0, worker.scaler)
                }
                results.withLock { $0[job] = picture }
            }
        }
        let decoded = results.value
        return jobOfTarget.map { $0.flatMap { decoded[$0] } }
    }

    /// The presentation timestamp of the keyframe shown at or before `target`, demuxing only.
    func keyframePacketTimestamp(atOrBefore target: Int64) throws(MediaIOError) -> Int64? {
        try source.seekToKeyframe(atOrBefore: target)
        guard let key = try source.next() else { return nil }
        return key.pts ?? key.dts
    }

    /// Decodes one packet from a clean decoder state and drains it.
    static func decodeAlone(_ packet: OwnedPacket, on decoder: VideoDecoder) -> OwnedFrame? {
        decoder.reset()
        decoder.skip = AVDISCARD_DEFAULT
        guard case .accepted = decoder.send(packet) else { return nil }
        _ = decoder.send(nil)
        var shown: OwnedFrame?
        while true {
            guard case .frame(let frame) = (try? decoder.receive()) ?? .drained else { break }
            if shown == nil { shown = frame }
        }
        decoder.reset()
        return shown
    }
}

