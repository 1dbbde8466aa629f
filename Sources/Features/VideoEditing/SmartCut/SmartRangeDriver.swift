import Foundation
import MediaIO
import ViewfinderCore

extension SmartCutDriver {
    /// How writing one range of a smart cut ended.
    enum RangeOutcome {
        /// Written, in these parts; `carried`: the encoder of its last stretch, left unflushed
        /// for the next range's head to go on with.
        case written([ExportPart], carried: VideoEncoder?)
        /// The export was cancelled; the output is to be abandoned.
        case cancelled
    }

    /// Writes one range of a smart cut: the driver of `SmartCutStateMachine`, which decides what
    /// each packet is for; this reads the packets, feeds the decoders, copies, holds and writes.
    ///
    /// `carried`: the encoder the range before left unflushed, which the head goes on with (one
    /// encoding across the join, no second IDR). `goesOn`: the range's last stretch is
    /// re-encoded and the next range starts with one; its encoder is then left unflushed and
    /// handed back.
    func writeRange(_ range: SmartRangePlan, index: PacketIndex, lanes: EncoderLanes, writer: SmartWriter,
                    sound: SmartAudio?, carried: VideoEncoder? = nil, goesOn: Bool = false) throws(MediaIOError) -> RangeOutcome {
        let tb = mapping.timeBase
        let audioStart = MediaTime.ticks(range.keepStart, timeBase: tb.num, tb.den) ?? .zero
        let audioEnd = MediaTime.ticks(range.keepEnd, timeBase: tb.num, tb.den) ?? .zero
        // The audio is read from its decoder's pre-roll before the range on.
        let audioFrom = sound.flatMap { audioStart.subtracting($0.preRoll) } ?? audioStart
        let first = index.entries[range.firstPosition]
        let audioSeek = audioFrom.ticks(atRate: MediaTime(value: tb.den, timescale: tb.num)) ?? first.dts
        session.seekVideo(toDecodeTime: min(first.dts, audioSeek))
        try sound?.begin(start: audioStart, end: audioEnd,
                         outputStart: MediaTime.ticks(range.keepStart + range.offset, timeBase: tb.num, tb.den) ?? .zero)
        guard carried == nil || range.hasHead, !goesOn || range.endsReencoded else {
            throw .encodeFailed(path: output.path, detail: "smart cut: an encoder carried to a range that does not start re-encoded")
        }
        var headLane = carried
        if headLane == nil, range.hasHead { headLane = try lanes.lane() }
        let head = try range.hasHead
            ? ReencodedStretch(session: session, lane: try Self.required(headLane, "an encoder", path: path), first: range.keepStart, end: range.headEnd,
                               offset: range.offset, expected: index.shownCount(from: range.keepStart, to: range.headEnd),
                               flushes: lanes.perStretch && !(goesOn && range.copy == nil))
            : nil
        let tail = try range.hasTail
            ? ReencodedStretch(session: session, lane: try lanes.lane(), first: range.tailStart, end: range.keepEnd,
                               offset: range.offset, expected: index.shownCount(from: range.tailStart, to: range.keepEnd),
                               flushes: lanes.perStretch && !goesOn)
            : nil
        var machine = SmartCutStateMachine(
            plan: range, head: Self.state(of: head), tail: Self.state(of: tail),
            audioWindow: sound == nil ? nil : SmartCutStateMachine.AudioWindow(start: audioFrom, end: audioEnd))

        // What the machine's actions act on: the packet last read (and its decode position),
        // and the packets held back.
        var packet: OwnedPacket?
        var position: Int?
        var copyHeld: [(packet: OwnedPacket, own: Bool)] = []
        var tailHeld: [OwnedPacket] = []
        var action = SmartCutStateMachine.Action.readPacket
        while true {
            switch action {
            case .readPacket:
                packet = try session.readPacket()
                guard let packet else {
                    action = machine.endOfStream()
                    continue
                }
                if session.cancellationRequested() {
                    action = machine.cancel()
                } else if session.isVideo(packet) {
                    position = index.position(of: packet)
                    action = machine.videoPacket(at: position)
                } else {
                    action = machine.audioPacket(at: session.audioTime(of: packet))
                }
            case .writeAudio:
                if let packet { try sound?.write(packet) }
                action = .readPacket
            case .feed(let which, let holding), .flush(let which, let holding):
                let stretch = try Self.required(which == .head ? head : tail, "the \(which)", path: path)
                let input: OwnedPacket?
                if case .feed = action { input = try Self.required(packet, "a packet", path: path) } else { input = nil }
                let made = try stretch.feed(input)
                if holding { tailHeld += made } else { try writer.writeEncoded(made, lanes: lanes) }
                action = machine.fed(which, finished: stretch.finished)
            case .copy(let startsStretch, let holding):
                let read = try Self.required(packet, "a packet", path: path)
                guard let (stored, own) = lanes.copied(read, startsStretch: startsStretch) else {
                    guard lanes.renumberingFailed else { throw .encodeFailed(path: output.path, detail: tr("out of memory")) }
                    writer.fail(tr("a copied picture after an open GOP's keyframe could not be renumbered"))
                    action = machine.copied()
                    continue
                }
                if holding {
                    copyHeld.append((stored, own))
                } else {
                    try writer.writeCopy(stored, shift: range.offset, ownParameterSets: own)
                }
                action = machine.copied()
            case .writeHeldCopies:
                for held in copyHeld { try writer.writeCopy(held.packet, shift: range.offset, ownParameterSets: held.own) }
                copyHeld = []
                action = machine.released()
            case .writeHeldTail:
                try writer.writeEncoded(tailHeld, lanes: lanes)
                tailHeld = []
                action = machine.released()
            case .finish(let copied):
                return .written(try parts(of: range, head: head, tail: tail, copied: copied),
                                carried: goesOn ? (tail ?? head)?.encoder : nil)
            case .abandon:
                return .cancelled
            case .fail(.packetMoved):
                throw .corrupt(path: path, detail: tr("a video packet moved between two reads"))
            case .fail(.unexpected(let what)):
                throw .encodeFailed(path: output.path, detail: "smart cut: " + what)
            }
        }
    }

    /// The parts a written range is made of, after checking that each stretch encoded all its frames.
    private func parts(of range: SmartRangePlan, head: ReencodedStretch?, tail: ReencodedStretch?,
                       copied: Int) throws(MediaIOError) -> [ExportPart] {
        for stretch in [head, tail].compactMap({ $0 }) where stretch.encoded != stretch.expected {
            throw .endsEarly(path: path, at: mapping.time(ofTimestamp: stretch.first), expected: mapping.time(ofTimestamp: stretch.end))
        }
        func part(_ reencoded: Bool, _ from: Int64, _ to: Int64, _ frames: Int) -> ExportPart? {
            guard frames > 0 else { return nil }
            return ExportPart(reencoded: reencoded, start: mapping.time(ofTimestamp: from),
                              duration: mapping.time(ofTimestamp: to).subtracting(mapping.time(ofTimestamp: from)) ?? .zero,
                              frames: frames)
        }
        return [part(true, range.keepStart, range.headEnd, head?.encoded ?? 0),
                range.copy == nil ? nil : part(false, range.copyShown.lowerBound, range.copyShown.upperBound, copied),
                part(true, range.tailStart, range.keepEnd, tail?.encoded ?? 0)].compactMap { $0 }
    }

    private static func state(of stretch: ReencodedStretch?) -> SmartCutStateMachine.StretchState {
        guard let stretch else { return .absent }
        return stretch.finished ? .finished : .open
    }

    /// What an action acts on; missing, it is the machine's mistake (not the input's), said plainly.
    private static func required<Value>(_ value: Value?, _ what: String, path: String) throws(MediaIOError) -> Value {
        guard let value else { throw .encodeFailed(path: path, detail: "smart cut: an action needed \(what), and there was none") }
        return value
    }
}
