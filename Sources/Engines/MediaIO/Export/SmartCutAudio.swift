internal import CFFmpeg
import Foundation
import ViewfinderCore

/// The audio of a smart cut, placed to the sample: each range's sound starts on the output's
/// timeline exactly where its first frame does and lasts as long as its frames.
///
/// - **One range** of audio MP4 holds (AAC, MP3, ALAC): the packets are copied unchanged, from the decoder's pre-roll before the
///   range (what a decoder needs to make the first kept sample as it makes it in the source) to
///   the packet holding the range's last sample. The pre-roll and the part of the first packet
///   before the range are skipped by the track's edit list (FFmpeg's writer makes one for a
///   track whose first packet has a negative time), and the last packet's duration ends at the
///   range's end.
/// - **Several ranges**: a coded audio frame (1,024 samples of AAC, 1,536 of AC-3) that
///   straddles a join cannot be copied without doubling or dropping part of it, and the frames
///   after a join cannot be moved by a fraction of a frame (an MP4 track plays its samples end
///   to end). So the sound is decoded, cut to the sample at every range's edges, laid end to end
///   and encoded once, as AAC; so is one range of audio MP4 cannot hold (Opus, AC-3, PCM…),
///   while the video is still cut smartly.
package final class SmartAudio {
    /// Copied packet for packet (one range), or decoded and encoded anew (joins).
    enum Mode {
        case copy
        case reencode(AudioReencoder)
    }

    private let input: UnsafeMutablePointer<AVStream>
    /// The output's audio stream.
    let output: UnsafeMutablePointer<AVStream>
    private let mode: Mode
    private let out: MP4Output
    /// How long before a range its packets are read: two frames (the one before the first
    /// kept sample's frame completes it: AAC and AC-3 overlap each frame with the one before),
    /// plus Opus' 80 ms of convergence (RFC 7845 §4.6).
    package let preRoll: MediaTime
    /// The range being written, in ticks of the input's time base: its first and end sample
    /// and how far it moves onto the output's timeline.
    private var window: (start: Int64, end: Int64, shift: Int64)?
    private var lastDTS = Int64.min

    /// What a result says of the audio: "copied" or "aac".
    package var summary: String {
        if case .copy = mode { return "copied" }
        return "aac"
    }

    /// The audio of a cut of `ranges` ranges from `input`, written to `out` (its stream is added
    /// here, before the output starts).
    init(input: UnsafeMutablePointer<AVStream>, ranges: Int, out: MP4Output, path: String) throws(MediaIOError) {
        self.input = input
        self.out = out
        let parameters = input.parameters
        let rate = Int64(max(1, parameters.sample_rate))
        let frame = Int64(parameters.frame_size > 0 ? parameters.frame_size : 1024)
        let frames = MediaTime(value: 2 * frame, timescale: rate)
        preRoll = parameters.codec_id == AV_CODEC_ID_OPUS
            ? (frames.adding(MediaTime(value: 80, timescale: 1000)) ?? frames) : frames
        if ranges > 1 || !VideoExporter.mp4Audio.contains(String(cString: avcodec_get_name(parameters.codec_id))) {
            let reencoder = try AudioReencoder(input: input, start: .zero, globalHeader: out.needsGlobalHeader, path: path)
            mode = .reencode(reencoder)
            output = try out.addStream(for: reencoder.encoder)
        } else {
            mode = .copy
            output = try out.addCopy(of: input)
        }
    }

    /// Starts the range whose sound is `start..<end` of the input's timeline and begins at
    /// `outputStart` of the output's.
    package func begin(start: MediaTime, end: MediaTime, outputStart: MediaTime) throws(MediaIOError) {
        let tb = input.pointee.time_base
        let rate = MediaTime(value: Int64(tb.den), timescale: Int64(tb.num))
        guard let first = start.ticks(atRate: rate), let last = end.ticks(atRate: rate),
              let placed = outputStart.ticks(atRate: rate) else { return }
        window = (first, last, placed - first)
        if case .reencode(let reencoder) = mode {
            // Sample counts from the output's timeline, so rounding never adds up across joins.
            let samples = MediaTime(value: Int64(max(1, input.parameters.sample_rate)), timescale: 1)
            let from = start.ticks(atRate: samples) ?? 0
            let at = outputStart.ticks(atRate: samples) ?? 0
            let to = (outputStart.adding(end.subtracting(start) ?? .zero) ?? outputStart).ticks(atRate: samples) ?? at
            try write(reencoder.keep(from: from, count: max(0, to - at)), reencoder)
        }
    }

    /// An audio packet of the current range (from its pre-roll on).
    package func write(_ packet: OwnedPacket) throws(MediaIOError) {
        guard let window else { return }
        switch mode {
        case .reencode(let reencoder):
            try write(try reencoder.feed(packet), reencoder)
        case .copy:
            let p = packet.pointer
            if p.pointee.pts != noPTS { p.pointee.pts += window.shift }
            if p.pointee.dts != noPTS { p.pointee.dts += window.shift }
            let dts = p.pointee.dts != noPTS ? p.pointee.dts : p.pointee.pts
            guard dts > lastDTS else { return }
            lastDTS = dts
            // The last packet lasts to the range's end: the edit list then ends there too.
            let end = window.end + window.shift
            if p.pointee.pts != noPTS, p.pointee.duration > 0, p.pointee.pts + p.pointee.duration > end {
                p.pointee.duration = max(1, end - p.pointee.pts)
            }
            av_packet_rescale_ts(p, input.pointee.time_base, output.pointee.time_base)
            p.pointee.stream_index = output.pointee.index
            p.pointee.pos = -1
            try out.write(packet)
        }
    }

    /// Writes what the encoder still holds (after the last range).
    package func finish() throws(MediaIOError) {
        if case .reencode(let reencoder) = mode { try write(try reencoder.feed(nil), reencoder) }
    }

    private func write(_ packets: [OwnedPacket], _ reencoder: AudioReencoder) throws(MediaIOError) {
        for packet in packets {
            av_packet_rescale_ts(packet.pointer, reencoder.encoder.pointee.time_base, output.pointee.time_base)
            packet.pointer.pointee.stream_index = output.pointee.index
            try out.write(packet)
        }
    }
}
