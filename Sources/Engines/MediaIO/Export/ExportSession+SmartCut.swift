internal import CFFmpeg
import Foundation
import ViewfinderCore

extension ExportSession {
    /// How a smart cut ended: written, not possible on this input (the caller re-encodes), or
    /// cancelled (nothing is left behind).
    enum SmartOutcome {
        case written(ExportResult)
        case unavailable(String)
        case cancelled
    }

    /// Writes `ranges` joined in order. With `copying`, each range is a smart cut: the frames up
    /// to the first IDR inside it and after the last usable keyframe are re-encoded by an
    /// encoder matched to the source, the packets between are copied unchanged; the output is
    /// checked by decoding every stretch's first frames before it is moved into place. Without
    /// `copying`, every range is re-encoded by one H.264 encoder (the fallback for several ranges).
    func smartCut(ranges: [ExportRange], copying: Bool) throws(MediaIOError) -> SmartOutcome {
        var track: SmartTrack?
        if copying {
            switch SmartTrack.of(video) {
            case .success(let made): track = made
            case .failure(let why): return .unavailable(why.reason)
            }
        }
        guard let index = try PacketIndex.scan(container, video: video, track: track, isCancelled: { cancellationRequested() }) else {
            return .cancelled
        }
        guard !index.shown.isEmpty else { throw .noFrameDecoded(path: path, detail: tr("the video track holds no packets")) }
        guard index.position.count == index.entries.count else {
            return .unavailable(tr("two of its video packets share a decode time"))
        }

        // Resolve the ranges and lay them end to end on the output's timeline.
        var bounds: [(start: Int64, end: Int64)] = []
        for range in ranges {
            let start = try keepStart(range.start, index)
            let end = try keepEnd(range.end, index)
            guard end > start else {
                throw .timePastEnd(path: path, requested: mapping.time(ofTimestamp: start), duration: mapping.time(ofTimestamp: end))
            }
            bounds.append((start, end))
        }
        let plans = index.plans(for: bounds, copying: copying)
        let outputStart = bounds.reduce(0) { $0 + $1.end - $1.start }
        if copying, !plans.contains(where: { $0.copy != nil }) {
            return .unavailable(tr("no IDR keyframe (or HEVC CRA) lies inside the kept range, so there is nothing to copy"))
        }

        // HEVC's families of parameter sets get sample descriptions of their own, written into
        // the finished movie box (`SampleDescriptionEditor`).
        let describesFamilies: Bool
        if case .hevc? = track { describesFamilies = true } else { describesFamilies = false }
        let out = try MP4Output(url: output, fastStart: plan.fastStart, cover: plan.cover, editsMovie: describesFamilies)
        // Decode times one frame apart (copying); the re-encoded stretches reorder no deeper.
        let timeline = copying ? index.decodeTimeline(of: plans) : nil
        let lanes = try EncoderLanes(session: self, track: track, output: out, reorderDepth: timeline?.depth ?? 0)
        if let reason = lanes.unavailable { return .unavailable(reason) }
        let outVideo: UnsafeMutablePointer<AVStream>
        switch lanes.track {
        case .avc(let config)?:
            outVideo = try out.addCopy(of: video)
            try out.setExtradata(config.record, of: outVideo)
        case .hevc?:
            outVideo = try out.addCopy(of: video)
        case nil:
            outVideo = try out.addStream(for: lanes.shared.context, sideDataFrom: video)
        }
        let sound = try audio.map { stream throws(MediaIOError) in try SmartAudio(input: stream, ranges: plans.count, out: out, path: path) }
        try out.start()

        let writer = SmartWriter(session: self, out: out, video: outVideo, timeline: timeline)
        var parts: [ExportPart] = []
        var carried: VideoEncoder?
        for (n, range) in plans.enumerated() {
            // A range ending re-encoded and the next starting re-encoded are one encoding: two
            // IDRs in a row (the second starting the next stretch) make openh264 2.3 show a
            // picture still waiting before the first IDR's.
            let goesOn = lanes.perStretch && range.endsReencoded && n + 1 < plans.count && plans[n + 1].hasHead
            switch try writeRange(range, index: index, lanes: lanes, writer: writer, sound: sound, carried: carried, goesOn: goesOn) {
            case .written(let written, let next):
                parts += written
                carried = next
            case .cancelled: return .cancelled
            }
            if let problem = writer.problem { return .unavailable(problem) }
        }
        if !copying { try writer.writeEncoded(try lanes.shared.flush(), lanes: lanes) }
        try sound?.finish()
        if cancellationRequested(now: true) { return .cancelled }
        let expected = plans.reduce(0) { $0 + index.shownCount(from: $1.keepStart, to: $1.keepEnd) }
        guard writer.videoPackets == expected else {
            return .unavailable(trn("the cut wrote {written} of {count} frame", "the cut wrote {written} of {count} frames", expected,
                                    ["written": writer.videoPackets]))
        }
        if let problem = writer.problem { return .unavailable(problem) }
        var descriptions: SampleDescriptions?
        if describesFamilies {
            guard !writer.encodedWithoutParameterSets, let record = video.extradataBytes,
                  let made = lanes.track?.sampleDescriptions(
                    track: Int(outVideo.pointee.index), source: record, families: writer.families, entries: writer.familyOfSample,
                    inBand: writer.copiesCarryParameterSets) else {
                return .unavailable(tr("the re-encoded parameter sets could not be described"))
            }
            descriptions = made
        }
        // The written file is checked before it is moved into place; one that fails is deleted.
        var failure: String?
        try out.finish(describing: descriptions) { url throws(MediaIOError) in
            guard copying else { return true }
            failure = try Self.probeDecode(url, parts: parts, mapping: self.mapping)
            return failure == nil
        }
        if let failure { return .unavailable(failure) }
        progress.map { $0.completedUnitCount = $0.totalUnitCount }

        let reencoded = parts.filter(\.reencoded).reduce(0) { $0 + $1.frames }
        let total = parts.reduce(0) { $0 + $1.frames }
        let start = mapping.time(ofTimestamp: plans[0].keepStart)
        let size = lanes.shared.size
        return .written(ExportResult(
            method: copying ? (reencoded == 0 ? "passthrough" : "smart") : lanes.shared.name,
            note: nil, start: start,
            duration: MediaTime.ticks(outputStart, timeBase: mapping.timeBase.num, mapping.timeBase.den) ?? .zero,
            frameCount: total, size: size, audio: sound?.summary,
            reencodedFrames: copying ? reencoded : nil, copiedFrames: copying ? total - reencoded : nil, parts: parts))
    }

    // MARK: - Positions

    /// The timestamp of the frame at `position` (the last shown at or before a time).
    private func keepStart(_ position: TimePosition, _ index: PacketIndex) throws(MediaIOError) -> Int64 {
        switch position {
        case .time(let t):
            let duration = mapping.time(ofTimestamp: index.end)
            guard t >= .zero, t <= duration else { throw .timePastEnd(path: path, requested: t, duration: duration) }
            let after = index.shown.firstIndex { mapping.time(ofTimestamp: $0) > t } ?? index.shown.count
            return index.shown[max(0, after - 1)]
        case .frame(let n):
            guard n >= 0, n < index.shown.count else {
                throw .frameOutOfRange(path: path, frame: n, frameCount: index.shown.count)
            }
            return index.shown[n]
        }
    }

    /// The timestamp of the first frame not kept before `position` (the end of the video when nil).
    private func keepEnd(_ position: TimePosition?, _ index: PacketIndex) throws(MediaIOError) -> Int64 {
        switch position {
        case nil:
            return index.end
        case .time(let t)?:
            let duration = mapping.time(ofTimestamp: index.end)
            guard t <= duration else { throw .timePastEnd(path: path, requested: t, duration: duration) }
            return index.shown.first { mapping.time(ofTimestamp: $0) >= t } ?? index.end
        case .frame(let n)?:
            guard n >= 0, n <= index.shown.count else {
                throw .frameOutOfRange(path: path, frame: n, frameCount: index.shown.count)
            }
            return n == index.shown.count ? index.end : index.shown[n]
        }
    }

    // MARK: - Checking the output

    /// Decodes the first frames of every stretch of the written file with a strict decoder (into
    /// a copy, from the start of the re-encoded stretch before it); a
    /// description of the first problem, nil when the file holds the frames it should and each
    /// stretch starts with a picture that decodes.
    static func probeDecode(_ url: URL, parts: [ExportPart], mapping: PictureMaker) throws(MediaIOError) -> String? {
        let container = try MediaContainer(url: url)
        guard let stream = container.videoStream else { return tr("the output has no video track") }
        let index = stream.pointee.index
        var shown: [Int64] = []
        while let packet = try container.readPacket(onDamage: .fail, accepting: { $0 == index }) {
            if let pts = packet.pts, !packet.isDiscarded { shown.append(pts) }
        }
        shown.sort()
        let total = parts.reduce(0) { $0 + $1.frames }
        guard shown.count == total else { return trn("the output holds {count} frame, not {expected}", "the output holds {count} frames, not {expected}", shown.count, ["expected": total]) }
        var first = 0
        var previous: (part: ExportPart, start: Int64)?
        for part in parts {
            let target = shown[first]
            // The first frames of the stretch, not just one: an intra picture may decode with
            // the wrong parameter sets where the predicted pictures after it would not.
            let through = shown[first + min(part.frames, 8) - 1]
            defer { previous = (part, target) }
            first += part.frames
            // Into a copy the decoder comes from a re-encoded stretch, whose parameter sets and
            // pictures it still holds: decode from that stretch's start across the join, as a
            // player does. (A seek alone would start afresh from the sample description.)
            let from = previous.map { $0.part.reencoded && !part.reencoded ? $0.start : target } ?? target
            // A fresh demuxer with each fresh decoder: FFmpeg's hands a decoder the sample
            // description a packet points at only where it differs from the last packet's,
            // and a new decoder starts from the first description.
            let container = try MediaContainer(url: url)
            guard let stream = container.videoStream else { return tr("the output has no video track") }
            let decoder = try VideoDecoder(stream: stream, path: url.path, threads: 1, strict: true)
            guard av_seek_frame(container.context, index, from, AVSEEK_FLAG_BACKWARD) >= 0 else {
                return tr("cannot seek in the output")
            }
            var errors = 0
            var decoded: [Int64] = []
            var sent = 0
            // Each stretch starts with an IDR, where the seek lands; a short one may land earlier,
            // and a re-encoded stretch that goes on from the range before starts without one.
            let limit = 400 + (from == target && previous?.part.reencoded != true ? 0 : previous?.part.frames ?? 0)
            while sent < limit, !decoded.contains(where: { $0 >= through }),
                  let packet = try container.readPacket(onDamage: .fail, accepting: { $0 == index }) {
                sent += 1
                decoded += try decoder.decode(packet, errors: &errors).compactMap(\.pts)
            }
            decoded += try decoder.decode(nil, errors: &errors).compactMap(\.pts)
            if errors > 0 || !decoded.contains(target) {
                return tr("the output's frames from {time} s of the input do not decode cleanly", ["time": part.start.decimalString])
            }
        }
        return nil
    }
}

extension UnsafeMutablePointer where Pointee == AVStream {
    /// The frame rate an encoder of this stream declares: the average, else the real base
    /// rate, else 30.
    var encodingFrameRate: AVRational {
        pointee.avg_frame_rate.num > 0 ? pointee.avg_frame_rate
            : (pointee.r_frame_rate.num > 0 ? pointee.r_frame_rate : AVRational(num: 30, den: 1))
    }

    /// The stream's decoder configuration bytes, nil when it has none.
    var extradataBytes: [UInt8]? {
        guard let par = pointee.codecpar, let data = par.pointee.extradata, par.pointee.extradata_size > 0 else { return nil }
        return Array(UnsafeBufferPointer(start: data, count: Int(par.pointee.extradata_size)))
    }
}
