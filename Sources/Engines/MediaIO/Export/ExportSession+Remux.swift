internal import CFFmpeg
import Foundation
import ViewfinderCore

extension ExportSession {
    /// Copies the streams into MP4. Falls back to a transcode when a trim's end would need
    /// reference frames shown after it.
    func remux() throws(MediaIOError) -> ExportResult {
        if plan.trimsEnd, try !endIsClean() {
            return try transcode(note: "frames before the cut at \(plan.endTime.decimalString) s refer to frames after it, so the video is re-encoded")
        }
        let out = try MP4Output(url: output, fastStart: plan.fastStart, cover: plan.cover)
        let outVideo = try out.addCopy(of: video)
        let outAudio = try audio.map { stream throws(MediaIOError) in try out.addCopy(of: stream) }
        try out.start()
        seekToStart()

        var frames = 0
        var lastShown: MediaTime?
        var videoDone = false
        var audioDone = audio == nil
        let margin = mapping.frameDuration.scaled(by: 32, over: 1) ?? MediaTime(seconds: 1)
        while !(videoDone && audioDone), let packet = try readPacket() {
            try checkCancelled()
            if packet.streamIndex == video.pointee.index {
                guard let pts = packet.pts else { continue }
                let shown = mapping.time(ofTimestamp: pts)
                if pts < plan.startPTS || packet.isDiscarded { continue }
                if shown >= plan.endTime {
                    // Past the end; stop once the reorder window is surely behind us.
                    let decoded = packet.dts.map(mapping.time(ofTimestamp:)) ?? shown
                    if decoded >= plan.endTime.adding(margin) ?? plan.endTime { videoDone = true }
                    continue
                }
                frames += 1
                lastShown = max(lastShown ?? shown, shown)
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

    /// Whether every packet, in decode order, that comes before the last frame shown before the
    /// end is itself shown before the end (so cutting there drops no needed reference).
    private func endIsClean() throws(MediaIOError) -> Bool {
        seekToStart()
        var sawLater = false
        var laterCount = 0
        while laterCount < 64, let packet = try readPacket() {
            guard packet.streamIndex == video.pointee.index, let pts = packet.pts, pts >= plan.startPTS else { continue }
            if mapping.time(ofTimestamp: pts) >= plan.endTime {
                sawLater = true
                laterCount += 1
            } else if sawLater {
                return false
            }
        }
        return true
    }
}
