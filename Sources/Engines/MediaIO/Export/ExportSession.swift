internal import CFFmpeg
import Foundation
import ViewfinderCore

/// One run of an export: the input's demuxer, the output file, progress and cancellation.
package final class ExportSession {
    let plan: VideoExporter.Plan
    package let mapping: PictureMaker
    package let output: URL
    package let progress: Progress?
    let container: MediaContainer
    let video: UnsafeMutablePointer<AVStream>
    let audio: UnsafeMutablePointer<AVStream>?
    /// Where the output's time 0 lies on the input's timeline.
    let startTime: MediaTime
    /// The last value given to `progress`.
    private var reported: Int64 = 0
    /// Packets read since the last cancellation check.
    private var sinceCheck = 0
    /// The smart cut's policy, when the caller gave one (VideoEditing does).
    let smartCutting: (any SmartCutting)?

    init(plan: VideoExporter.Plan, reader: FrameReader, output: URL, progress: Progress?,
         smartCutting: (any SmartCutting)? = nil) throws(MediaIOError) {
        self.plan = plan
        self.smartCutting = smartCutting
        mapping = reader.timeMapping
        self.output = output
        self.progress = progress
        // The reader already opened and analysed the file: read on from its demuxer.
        container = reader.containerForExport
        guard let stream = container.streams.first(where: { $0.pointee.index == reader.streamIndex }) else {
            throw .noVideoStream(path: plan.input.path, audioCodec: plan.audioCodec)
        }
        video = stream
        audio = plan.audioCodec == nil ? nil : container.audioStream
        for other in container.streams {
            other.pointee.discard = (other == video || other == audio) ? AVDISCARD_DEFAULT : AVDISCARD_ALL
        }
        startTime = MediaTime.ticks(plan.startPTS, timeBase: mapping.timeBase.num, mapping.timeBase.den) ?? .zero
    }

    package var path: String { plan.input.path }

    // MARK: - Shared steps

    /// Throws when the export was cancelled; looks every 16 calls (the flag takes a lock).
    func checkCancelled(now: Bool = false) throws(MediaIOError) {
        if cancellationRequested(now: now) { throw .cancelled }
    }

    /// Whether the export was cancelled, for a caller that stops as a state rather than by
    /// throwing (the smart cut); looks every 16 calls, as `checkCancelled` does.
    package func cancellationRequested(now: Bool = false) -> Bool {
        sinceCheck += 1
        guard now || sinceCheck >= 16 else { return false }
        sinceCheck = 0
        return progress?.isCancelled == true
    }

    /// Reports how much of the output exists, as milliseconds of its duration. Updates are
    /// thinned to steps of 0.2 % (Progress locks and notifies on every change, and a remux
    /// writes thousands of packets a second).
    func report(written: MediaTime) {
        guard let progress else { return }
        let done = min(progress.totalUnitCount, Int64(written.seconds * 1000))
        let step = max(1, progress.totalUnitCount / 500)
        if done >= reported + step {
            reported = done
            progress.completedUnitCount = done
        }
    }

    /// The absolute time of a timestamp in `stream`'s time base.
    func time(_ ts: Int64, in stream: UnsafeMutablePointer<AVStream>) -> MediaTime? {
        let tb = stream.pointee.time_base
        return MediaTime.ticks(ts, timeBase: Int64(tb.num), Int64(tb.den))
    }

    /// The absolute time the trim ends at.
    var endAbsolute: MediaTime {
        let origin = MediaTime.ticks(mapping.origin, timeBase: mapping.timeBase.num, mapping.timeBase.den) ?? .zero
        return origin.adding(plan.endTime) ?? plan.endTime
    }

    /// Seeks every stream to the keyframe at or before the first frame to write.
    func seekToStart() {
        // From the first frame: the file's beginning, whatever its index says is a keyframe.
        if plan.startPTS <= mapping.origin {
            container.rewind()
            return
        }
        if av_seek_frame(container.context, video.pointee.index, plan.startPTS, AVSEEK_FLAG_BACKWARD) < 0 {
            container.rewind()
        }
    }

    /// The next packet of a kept stream; nil at the end; a read error that is not the end of
    /// the file is damage, reported as such rather than ending the output early.
    package func readPacket() throws(MediaIOError) -> OwnedPacket? {
        let (videoIndex, audioIndex) = (video.pointee.index, audio?.pointee.index)
        return try container.readPacket(onDamage: .fail) { $0 == videoIndex || $0 == audioIndex }
    }

    /// Shifts a packet so the output starts at 0 and converts it to the output stream's time base.
    func retime(_ packet: OwnedPacket, from input: UnsafeMutablePointer<AVStream>, to stream: UnsafeMutablePointer<AVStream>) {
        let tb = input.pointee.time_base
        let offset = startTime.ticks(atRate: MediaTime(value: Int64(tb.den), timescale: Int64(tb.num))) ?? 0
        let p = packet.pointer
        if p.pointee.pts != noPTS { p.pointee.pts -= offset }
        if p.pointee.dts != noPTS { p.pointee.dts -= offset }
        av_packet_rescale_ts(p, tb, stream.pointee.time_base)
        p.pointee.stream_index = stream.pointee.index
        p.pointee.pos = -1
    }

    /// Whether an audio packet falls inside the kept range. When the output starts at the
    /// video's first frame, the packets before it are kept too: they are the encoder's priming
    /// (AAC's first packet, shown at -1024 samples behind an edit list), which the first
    /// audible packet needs, and a remux of the whole file then copies every audio packet.
    func keepsAudio(_ packet: OwnedPacket) -> Bool {
        guard let audio, let ts = packet.pts ?? packet.dts, let t = time(ts, in: audio) else { return false }
        return (t >= startTime || plan.startPTS == mapping.origin) && t < endAbsolute
    }

    /// Whether an audio packet to re-encode holds samples inside the kept range. One that
    /// starts before the cut still holds samples after it, and the first one may carry the
    /// decoder's priming (Opus' pre-skip); the re-encoder drops exactly the samples before the start.
    func overlapsAudio(_ packet: OwnedPacket) -> Bool {
        guard let audio, let ts = packet.pts ?? packet.dts, let t = time(ts, in: audio) else { return false }
        let end = time(ts + max(packet.pointer.pointee.duration, 0), in: audio) ?? t
        return end > startTime && t < endAbsolute
    }

    /// Throws when the input stopped well before the end it declared.
    func checkComplete(lastShown: MediaTime?) throws(MediaIOError) {
        let reached = lastShown ?? .zero
        let frame = mapping.frameDuration
        let slack = frame.adding(frame).flatMap { $0.adding(MediaTime(value: 1, timescale: 2)) } ?? MediaTime(seconds: 1)
        if let needed = plan.endTime.subtracting(slack), reached < needed {
            throw .endsEarly(path: path, at: reached, expected: plan.endTime)
        }
    }
}
