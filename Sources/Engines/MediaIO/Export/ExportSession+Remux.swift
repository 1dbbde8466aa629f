internal import CFFmpeg
import Foundation
import ViewfinderCore

extension ExportSession {
    /// Copies the streams into MP4. Falls back to a transcode when frames before the end need
    /// reference frames shown after it (a trim's end, or frames an edit list hides).
    func remux() throws(MediaIOError) -> ExportResult {
        let lag = try decodeLag()
        let out = try MP4Output(url: output, fastStart: plan.fastStart, cover: plan.cover)
        let outVideo = try out.addCopy(of: video)
        let outAudio = try audio.map { stream throws(MediaIOError) in try out.addCopy(of: stream) }
        try out.start()
        seekToStart()

        var frames = 0
        var lastShown: MediaTime?
        var videoDone = false
        var audioDone = audio == nil
        var skippedPastEnd = false
        var lastDecode: Int64?
        let margin = mapping.frameDuration.scaled(by: 32, over: 1) ?? MediaTime(seconds: 1)
        while !(videoDone && audioDone), let packet = try readPacket() {
            try checkCancelled()
            if packet.streamIndex == video.pointee.index {
                guard let pts = packet.pts else { continue }
                let shown = mapping.time(ofTimestamp: pts)
                if pts < plan.startPTS { continue }
                if shown >= plan.endTime || packet.isDiscarded {
                    skippedPastEnd = true
                    // Past the end; stop once the reorder window is surely behind us.
                    let decoded = packet.dts.map(mapping.time(ofTimestamp:)) ?? shown
                    if decoded >= plan.endTime.adding(margin) ?? plan.endTime { videoDone = true }
                    continue
                }
                if skippedPastEnd {
                    // Shown before the end but decoded after a picture shown past it, which it
                    // may refer to: a copy without that picture would not decode.
                    out.abandon()
                    return try reencodingTheEnd()
                }
                frames += 1
                lastShown = max(lastShown ?? shown, shown)
                if lag > 0, let dts = packet.dts { packet.pointer.pointee.dts = dts - lag }
                if let dts = packet.dts, dts > pts {
                    throw .corrupt(path: path, detail: tr("its video packet shown at {time} s is decoded after it is shown (its timestamps contradict each other)",
                                                                  ["time": shown.decimalString]))
                }
                if let dts = packet.dts {
                    if let last = lastDecode, dts <= last {
                        throw .corrupt(path: path, detail: tr("its video packets' decode times stop rising at {time} s (its timing tables are damaged)",
                                                                      ["time": shown.decimalString]))
                    }
                    lastDecode = dts
                }
                retime(packet, from: video, to: outVideo)
                try out.write(packet)
                report(written: shown.subtracting(mapping.time(ofTimestamp: plan.startPTS)) ?? .zero)
            } else if let audio, let outAudio {
                guard keepsAudio(packet) else {
                    if let ts = packet.pts, let t = time(ts, in: audio), t >= endAbsolute { audioDone = true }
                    continue
                }
                retime(packet, from: audio, to: outAudio)
                try out.write(packet)
            }
        }
        try checkComplete(lastShown: lastShown.flatMap { $0.adding(mapping.frameDuration) })
        try checkCancelled(now: true)
        try out.finish()
        progress.map { $0.completedUnitCount = $0.totalUnitCount }
        let start = mapping.time(ofTimestamp: plan.startPTS)
        return ExportResult(
            method: "passthrough", note: nil, start: start,
            duration: (lastShown.flatMap { $0.adding(mapping.frameDuration) } ?? start).subtracting(start) ?? .zero,
            frameCount: frames,
            size: PixelSize(width: Int(video.parameters.width), height: Int(video.parameters.height)),
            audio: audio == nil ? nil : "copied")
    }

    /// The export when the pictures before the end refer to one after it: a smart cut (the
    /// last stretch re-encoded, the rest copied) where the track allows one, else a transcode.
    private func reencodingTheEnd() throws(MediaIOError) -> ExportResult {
        let why = plan.trimsEnd
            ? tr("frames before the cut at {time} s refer to frames after it", ["time": plan.endTime.decimalString])
            : tr("frames before the end its edit list sets refer to frames after it")
        let range = ExportRange(start: .time(mapping.time(ofTimestamp: plan.startPTS)),
                                end: plan.trimsEnd ? .time(plan.endTime) : nil)
        guard let smartCutting else { return try transcode(note: tr("{reason}, so the video is re-encoded", ["reason": why])) }
        switch try smartCutting.smartCut(self, ranges: [range], copying: true) {
        case .written(let result): return result.noting(tr("{reason}, so it is cut as trim cuts: the frames a copy cannot carry are re-encoded", ["reason": why]))
        case .cancelled: throw .cancelled
        case .unavailable: return try transcode(note: tr("{reason}, so the video is re-encoded", ["reason": why]))
        }
    }

    /// How far the source's decode times run ahead of its presentation times (ticks), from the
    /// first 64 video packets kept: some iPhone files give a B-frame a decode time after the
    /// time it is shown, which MP4 cannot hold (and FFmpeg's muxer refuses). Moving every decode
    /// time back by the largest such lead keeps their order and each before its picture is
    /// shown; 0 for files without it.
    private func decodeLag() throws(MediaIOError) -> Int64 {
        seekToStart()
        var lag: Int64 = 0
        var seen = 0
        while seen < 64, let packet = try readPacket() {
            guard packet.streamIndex == video.pointee.index, let pts = packet.pts, let dts = packet.dts,
                  pts >= plan.startPTS, !packet.isDiscarded else { continue }
            lag = max(lag, dts - pts)
            seen += 1
        }
        return lag
    }
}
