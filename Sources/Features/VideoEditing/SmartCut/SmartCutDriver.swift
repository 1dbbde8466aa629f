import Foundation
import MediaIO
import ViewfinderCore

/// VideoEditing's smart cut: what is copied and what re-encoded in each range, and how the
/// ranges join, decided here and carried out with MediaIO's mechanisms
/// (`ExportSession+SmartCutMechanisms.swift` there). An export asks it through `SmartCutting`.
struct SmartCutPolicy: SmartCutting {
    func smartCut(_ session: ExportSession, ranges: [ExportRange], copying: Bool) throws(MediaIOError) -> SmartCutOutcome {
        try SmartCutDriver(session: session).smartCut(ranges: ranges, copying: copying)
    }
}

/// One smart cut of an export session: the driver over its ranges (`writeRange` drives each).
final class SmartCutDriver {
    let session: ExportSession

    init(session: ExportSession) {
        self.session = session
    }

    var mapping: PictureMaker { session.mapping }
    var path: String { session.path }
    var output: URL { session.output }

    /// Writes `ranges` joined in order. With `copying`, each range is a smart cut: the frames up
    /// to the first IDR inside it and after the last usable keyframe are re-encoded by an
    /// encoder matched to the source, the packets between are copied unchanged; the output is
    /// checked by decoding every stretch's first frames before it is moved into place. Without
    /// `copying`, every range is re-encoded by one H.264 encoder (the fallback for several ranges).
    func smartCut(ranges: [ExportRange], copying: Bool) throws(MediaIOError) -> SmartCutOutcome {
        var track: SmartTrack?
        if copying {
            switch session.smartTrack() {
            case .success(let made): track = made
            case .failure(let why): return .unavailable(why.reason)
            }
        }
        guard let index = try session.scanPackets(track: track) else {
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
        // H.264 sequences long enough for openh264 before 2.4.1 to show what waits at each IDR
        // first (`plans(for:copying:minimumSequence:)`): the pictures that can wait, and one.
        var minimumSequence = 1
        if case .avc? = track {
            let depth = index.reorderDepth
            if depth > 0 { minimumSequence = depth + 2 }
        }
        let plans = index.plans(for: bounds, copying: copying, minimumSequence: minimumSequence)
        let outputStart = bounds.reduce(0) { $0 + $1.end - $1.start }
        if copying, !plans.contains(where: { $0.copy != nil }) {
            return .unavailable(tr("no IDR keyframe (or HEVC CRA) lies inside the kept range, so there is nothing to copy"))
        }

        // HEVC's families of parameter sets get sample descriptions of their own, written into
        // the finished movie box (`SampleDescriptionEditor`).
        let describesFamilies: Bool
        if case .hevc? = track { describesFamilies = true } else { describesFamilies = false }
        let out = try session.makeOutput(editsMovie: describesFamilies)
        // Decode times one frame apart (copying); the re-encoded stretches reorder no deeper.
        let timeline = copying ? index.decodeTimeline(of: plans) : nil
        let lanes = try EncoderLanes(session: session, track: track, output: out, reorderDepth: timeline?.depth ?? 0)
        if let reason = lanes.unavailable { return .unavailable(reason) }
        let outVideo = try session.addVideoTrack(to: out, lanes: lanes)
        let sound = try session.smartAudio(ranges: plans.count, out: out)
        try out.start()

        let writer = SmartWriter(session: session, out: out, video: outVideo, timeline: timeline)
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
        if session.cancellationRequested(now: true) { return .cancelled }
        let expected = plans.reduce(0) { $0 + index.shownCount(from: $1.keepStart, to: $1.keepEnd) }
        guard writer.videoPackets == expected else {
            return .unavailable(trn("the cut wrote {written} of {count} frame", "the cut wrote {written} of {count} frames", expected,
                                    ["written": writer.videoPackets]))
        }
        if let problem = writer.problem { return .unavailable(problem) }
        var descriptions: SampleDescriptions?
        if describesFamilies {
            guard !writer.encodedWithoutParameterSets, let record = session.sourceConfigurationRecord,
                  let made = lanes.track?.sampleDescriptions(
                    track: outVideo.index, source: record, families: writer.families, entries: writer.familyOfSample,
                    inBand: writer.copiesCarryParameterSets) else {
                return .unavailable(tr("the re-encoded parameter sets could not be described"))
            }
            descriptions = made
        }
        // The written file is checked before it is moved into place; one that fails is deleted.
        var failure: String?
        try out.finish(describing: descriptions) { url throws(MediaIOError) in
            guard copying else { return true }
            failure = try ExportSession.probeDecode(url, parts: parts, mapping: self.mapping)
            return failure == nil
        }
        if let failure { return .unavailable(failure) }
        session.progress.map { $0.completedUnitCount = $0.totalUnitCount }

        let reencoded = parts.filter(\.reencoded).reduce(0) { $0 + $1.frames }
        let total = parts.reduce(0) { $0 + $1.frames }
        let start = mapping.time(ofTimestamp: plans[0].keepStart)
        let size = lanes.shared.size
        return .written(ExportResult.made(
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
}
