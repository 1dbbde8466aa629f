internal import CFFmpeg
import Foundation
import ViewfinderCore

extension ExportSession {
    /// What a re-encode says of a Dolby Vision source: its enhancement metadata cannot follow.
    var dolbyVisionNote: String? {
        guard let dv = plan.colour.dolbyVision else { return nil }
        let base = plan.toneMaps ? tr("the picture is made SDR from its base layer")
            : tr("its {range} base layer is kept, which every player shows",
                 ["range": plan.colour.dynamicRange == .hlg ? "HLG" : plan.colour.dynamicRange == .pq ? "HDR10" : "SDR"])
        return tr("Dolby Vision {profile} is not re-encoded (FFmpeg 5.1 cannot write it): {reason}", ["profile": dv.profileName, "reason": base])
    }

    /// Decodes the video and encodes it at the plan's size: H.264, or 10-bit HEVC for HDR video
    /// that stays HDR (its HDR10 metadata carried over), or H.264 tone-mapped to SDR; AAC audio
    /// is copied, other audio is re-encoded to AAC. The rotation stays a display matrix.
    func transcode(note: String? = nil) throws(MediaIOError) -> ExportResult {
        // The encoder wants most of the cores; FFmpeg's automatic count suits the decoder here.
        let decoder = try VideoDecoder(stream: video, path: path, threads: 0)
        let out = try MP4Output(url: output, fastStart: plan.fastStart, cover: plan.cover)
        let coded = PixelSize(width: Int(video.parameters.width), height: Int(video.parameters.height))
        let size = ExportPreset.encodedSize(for: coded, box: plan.box)
        let d = decoder.context.pointee
        let colour: VideoEncoder.Colour = plan.toneMaps ? .bt709
            : .guessing(range: d.color_range, space: d.colorspace, primaries: d.color_primaries, transfer: d.color_trc,
                        sourceFormat: d.pix_fmt, sourceHeight: d.height)
        let encoder = try VideoEncoder(size: size, timeBase: video.pointee.time_base, frameRate: video.encodingFrameRate,
                                       quality: plan.quality, globalHeader: out.needsGlobalHeader, path: output.path,
                                       colour: colour, hdr: plan.hdrEncoding)
        let outVideo = try out.addStream(for: encoder.context, sideDataFrom: video)
        if let metadata = plan.hdrEncoding?.metadata { try out.describe(metadata, of: outVideo) }
        // Tone mapping runs at the output size, after scaling, as for stills.
        let toneMapper = plan.toneMaps ? FrameScaler(hdr: .toneMap, streamMetadata: plan.colour.mastering) : nil
        var reencoder: AudioReencoder?
        var outAudio: UnsafeMutablePointer<AVStream>?
        if let audio {
            if audio.parameters.codec_id == AV_CODEC_ID_AAC {
                outAudio = try out.addCopy(of: audio)
            } else {
                let made = try AudioReencoder(input: audio, start: startTime, globalHeader: out.needsGlobalHeader, path: path)
                reencoder = made
                outAudio = try out.addStream(for: made.encoder)
            }
        }
        try out.start()
        seekToStart()

        let encoderBase = encoder.context.pointee.time_base
        func write(_ packets: [OwnedPacket], from base: AVRational, to stream: UnsafeMutablePointer<AVStream>) throws(MediaIOError) {
            for packet in packets {
                av_packet_rescale_ts(packet.pointer, base, stream.pointee.time_base)
                packet.pointer.pointee.stream_index = stream.pointee.index
                try out.write(packet)
            }
        }

        var frames = 0
        var lastShown: MediaTime?
        var videoDone = false
        var audioDone = audio == nil
        var errors = 0
        let start = mapping.time(ofTimestamp: plan.startPTS)
        var lastPTS: Int64?
        func take(_ frame: OwnedFrame) throws(MediaIOError) {
            guard let pts = frame.pts, pts >= plan.startPTS, !videoDone else { return }
            let shown = mapping.time(ofTimestamp: pts)
            if let last = lastPTS, pts <= last {
                throw .corrupt(path: path, detail: tr("two of its frames are shown at {time} s or out of order (its timing tables are damaged)",
                                                          ["time": shown.decimalString]))
            }
            lastPTS = pts
            if shown >= plan.endTime { videoDone = true; return }
            if let toneMapper {
                guard let picture = toneMapper.convert(frame, to: size) else {
                    throw .encodeFailed(path: output.path, detail: tr("cannot convert the picture to SDR"))
                }
                try write(try encoder.encode(picture, pts: pts - plan.startPTS), from: encoderBase, to: outVideo)
            } else {
                try write(try encoder.encode(frame, pts: pts - plan.startPTS), from: encoderBase, to: outVideo)
            }
            frames += 1
            lastShown = max(lastShown ?? shown, shown)
            report(written: shown.subtracting(start) ?? .zero)
        }
        func drainDecoder() throws(MediaIOError) {
            while true {
                switch try decoder.receive() {
                case .frame(let frame): try take(frame)
                case .failed:
                    errors += 1
                    if errors > 16 { throw .corrupt(path: path, detail: tr("the video cannot be decoded")) }
                default: return
                }
            }
        }

        while !(videoDone && audioDone), let packet = try readPacket() {
            try checkCancelled()
            if packet.streamIndex == video.pointee.index {
                guard !videoDone else { continue }
                var sent = false
                while !sent {
                    switch decoder.send(packet) {
                    case .accepted: sent = true
                    case .full: try drainDecoder()
                    case .rejected:
                        errors += 1
                        if errors > 16 { throw .corrupt(path: path, detail: tr("the video cannot be decoded")) }
                        sent = true
                    }
                }
                try drainDecoder()
            } else if let audio, let outAudio {
                guard reencoder == nil ? keepsAudio(packet) : overlapsAudio(packet) else {
                    if let ts = packet.pts, let t = time(ts, in: audio), t >= endAbsolute { audioDone = true }
                    continue
                }
                if let reencoder {
                    try write(try reencoder.feed(packet), from: reencoder.encoder.pointee.time_base, to: outAudio)
                } else {
                    retime(packet, from: audio, to: outAudio)
                    try out.write(packet)
                }
            }
        }
        if !videoDone {
            _ = decoder.send(nil)
            try drainDecoder()
        }
        try checkCancelled(now: true)
        try write(try encoder.flush(), from: encoderBase, to: outVideo)
        if let reencoder, let outAudio {
            try write(try reencoder.feed(nil), from: reencoder.encoder.pointee.time_base, to: outAudio)
        }
        let end = lastShown.flatMap { $0.adding(mapping.frameDuration) }
        try checkComplete(lastShown: end)
        guard frames > 0 else { throw .noFrameDecoded(path: path, detail: tr("nothing in the requested range")) }
        try out.finish()
        progress.map { $0.completedUnitCount = $0.totalUnitCount }
        return ExportResult(method: encoder.name, note: note ?? plan.note ?? dolbyVisionNote, start: start,
                            duration: (end ?? start).subtracting(start) ?? .zero, frameCount: frames, size: size,
                            audio: audio == nil ? nil : (reencoder == nil ? "copied" : "aac"),
                            keyframeBefore: note == nil ? plan.keyframeBefore : nil)
    }
}
