import Foundation
import ViewfinderCore

/// What a smart cut does with each packet of one kept range, as swift-nio writes protocol
/// logic: a `State`, packet events in, write actions out. It decides; the driver
/// (`SmartCutDriver.writeRange`) reads packets, decodes, encodes and writes, and tells it what
/// came of each action it asked for. Nothing here touches FFmpeg, so every transition is tested
/// on its own (`SmartCutStateMachineTests`).
///
/// The order it keeps, for one range of a `SmartRangePlan`:
/// - The head's decoder is fed every packet from its keyframe up to `headLast`, then drained.
///   Copied packets read while the head is still being encoded are held back: the head's
///   pictures come first in decode order.
/// - The tail's decoder is fed from its keyframe before the copy's packet is written (writing a
///   copy retimes the packet in place); what it encodes is held back until the copy is written.
/// - The range's audio (`audioWindow`, times of the input) is written as it comes.
/// - Once every stretch is done and the audio has passed the end, or at the end of the file,
///   the stretches still open are drained and the range is finished.
struct SmartCutStateMachine {
    /// One of a range's two re-encoded stretches.
    enum Stretch: Equatable, Sendable {
        /// The frames before the copy (or the whole range when nothing is copied).
        case head
        /// The frames after the copy.
        case tail
    }

    /// Where a re-encoded stretch stands.
    enum StretchState: Equatable, Sendable {
        /// The range has no such stretch.
        case absent
        /// It still wants packets.
        case open
        /// It has encoded all its frames (or its input ended).
        case finished
    }

    /// Why a range cannot go on.
    enum Failure: Equatable, Sendable {
        /// A video packet the index does not know: the file changed between two reads.
        case packetMoved
        /// An event the current state does not expect (a driver bug, named for the message).
        case unexpected(String)
    }

    /// What the driver does next.
    enum Action: Equatable, Sendable {
        /// Read the next packet and report it (`videoPacket`, `audioPacket`, or `endOfStream`).
        case readPacket
        /// Write the audio packet just read, moved onto the output's timeline; then read on.
        case writeAudio
        /// Decode the packet just read in the stretch, writing what its encoder makes (or
        /// holding it back, `holding`); then report `fed(_:finished:)`.
        case feed(Stretch, holding: Bool)
        /// Drain the stretch's decoder (its input has ended), writing or holding as for `feed`;
        /// then report `fed(_:finished:)`.
        case flush(Stretch, holding: Bool)
        /// Copy the packet just read (a CRA that `startsStretch` becomes a BLA), writing it or
        /// holding it back for the head (`holding`); then report `copied()`.
        case copy(startsStretch: Bool, holding: Bool)
        /// Write the copied packets held back for the head, in order; then report `released()`.
        case writeHeldCopies
        /// Write the tail's packets held back for the copy, in order; then report `released()`.
        case writeHeldTail
        /// The range is written, with `copied` packets copied: check the stretches and report.
        case finish(copied: Int)
        /// The export was cancelled: write nothing more, leave nothing behind.
        case abandon
        /// The range cannot be written.
        case fail(Failure)
    }

    /// The input times of the audio kept with a range: packets shown in `[start, end)`.
    struct AudioWindow: Equatable, Sendable {
        let start: MediaTime
        let end: MediaTime
    }

    /// What is known of the range between actions.
    struct Status: Equatable, Sendable {
        var head: StretchState
        var tail: StretchState
        /// Whether every packet to copy is written or held (true when nothing is copied).
        var copyDone: Bool
        var audioDone: Bool
        /// Whether every video packet the range needs has been handled; looked at after a video
        /// packet of the range only, as the range then ends once its audio has too.
        var videoDone = false
        var copied = 0
        /// Copied packets held back for the head.
        var heldCopies = 0
        /// Whether some of the tail's packets may be held back for the copy.
        var heldTail = false
    }

    /// Which part of one packet's handling the machine waits to hear about.
    enum Step: Equatable, Sendable {
        case headFed, headFlushed, heldCopiesWritten, tailFed, tailFlushed, copied, heldTailWritten
    }

    /// The state of the range.
    enum State: Equatable, Sendable {
        /// Between packets.
        case reading(Status)
        /// Handling the video packet at decode position `position`, waiting on `step`.
        case handling(Status, position: Int, step: Step)
        /// Every packet read (or none more needed): draining what is still open, waiting on `step`.
        case ending(Status, step: Step)
        /// Written.
        case finished
        /// Cancelled: nothing more is written.
        case cancelled
        /// Stopped by a failure.
        case failed
    }

    private(set) var state: State
    /// Decode positions the range reads from, and what it does with each.
    private let firstPosition: Int
    private let headLast: Int
    private let tailDecodeFrom: Int?
    private let copy: Range<Int>?
    private let leading: Range<Int>
    /// The input times of the audio kept with the range; nil when the output has no audio.
    private let audioWindow: AudioWindow?

    /// A machine for `plan`, whose stretches stand as `head` and `tail` (a stretch with no
    /// frames to encode is finished from the start).
    init(plan: SmartRangePlan, head: StretchState, tail: StretchState, audioWindow: AudioWindow?) {
        firstPosition = plan.firstPosition
        // The last packet the head needs: before the copy, or the last leading picture of the
        // CRA it starts at (whose frames are the head's). The head is drained right after it.
        headLast = plan.copy.map { plan.leading.isEmpty ? $0.lowerBound - 1 : plan.leading.upperBound - 1 } ?? Int.max
        tailDecodeFrom = plan.tailDecodeFrom
        copy = plan.copy
        leading = plan.leading
        self.audioWindow = audioWindow
        state = .reading(Status(head: head, tail: tail, copyDone: plan.copy == nil, audioDone: audioWindow == nil))
    }

    // MARK: - Packet events

    /// A video packet at decode position `position` (nil when the index has no such packet).
    mutating func videoPacket(at position: Int?) -> Action {
        guard case .reading(let status) = state else { return unexpected("a video packet") }
        if status.videoDone || position.map({ $0 < firstPosition }) == true { return .readPacket }
        guard let position else {
            state = .failed
            return .fail(.packetMoved)
        }
        if status.head == .open {
            return handling(status, position, position <= headLast ? .headFed : .headFlushed)
        }
        return tailStep(status, position)
    }

    /// An audio packet shown at `time` of the input (nil when it carries no time).
    mutating func audioPacket(at time: MediaTime?) -> Action {
        guard case .reading(var status) = state else { return unexpected("an audio packet") }
        guard let window = audioWindow, !status.audioDone, let time else { return .readPacket }
        if time >= window.end {
            status.audioDone = true
            return betweenPackets(status)
        }
        return time >= window.start ? .writeAudio : .readPacket
    }

    /// The file has no more packets.
    mutating func endOfStream() -> Action {
        guard case .reading(let status) = state else { return unexpected("the end of the file") }
        return ending(status, after: nil)
    }

    /// The export was cancelled.
    mutating func cancel() -> Action {
        state = .cancelled
        return .abandon
    }

    // MARK: - Results of actions

    /// The stretch took the packet (or was drained) and now stands `finished` or not.
    mutating func fed(_ stretch: Stretch, finished: Bool) -> Action {
        switch state {
        case .handling(var status, let position, let step):
            switch (stretch, step) {
            case (.head, .headFed):
                status.head = finished ? .finished : .open
                if !finished && position >= headLast { return handling(status, position, .headFlushed) }
                return afterHead(status, position)
            case (.head, .headFlushed):
                status.head = finished ? .finished : .open
                return afterHead(status, position)
            case (.tail, .tailFed):
                status.tail = finished ? .finished : .open
                return copyStep(status, position)
            default:
                return unexpected("the \(stretch) fed")
            }
        case .ending(var status, let step):
            switch (stretch, step) {
            case (.head, .headFlushed):
                status.head = .finished
                return ending(status, after: .headFlushed)
            case (.tail, .tailFlushed):
                status.tail = .finished
                status.heldTail = true
                return ending(status, after: .tailFlushed)
            default:
                return unexpected("the \(stretch) drained")
            }
        default:
            return unexpected("the \(stretch) fed")
        }
    }

    /// The packet asked for by `copy` is written or held.
    mutating func copied() -> Action {
        guard case .handling(var status, let position, .copied) = state, let copy else { return unexpected("a copy") }
        status.copied += 1
        if status.head == .open { status.heldCopies += 1 }
        guard position == copy.upperBound - 1 else { return packetDone(status) }
        status.copyDone = true
        return status.heldTail ? handling(status, position, .heldTailWritten) : packetDone(status)
    }

    /// The packets held back, asked for by `writeHeldCopies` or `writeHeldTail`, are written.
    mutating func released() -> Action {
        switch state {
        case .handling(var status, let position, .heldCopiesWritten):
            status.heldCopies = 0
            return tailStep(status, position)
        case .handling(var status, _, .heldTailWritten):
            status.heldTail = false
            return packetDone(status)
        case .ending(var status, .heldCopiesWritten):
            status.heldCopies = 0
            return ending(status, after: .heldCopiesWritten)
        case .ending(var status, .heldTailWritten):
            status.heldTail = false
            return ending(status, after: .heldTailWritten)
        default:
            return unexpected("held packets written")
        }
    }

    // MARK: - Steps of one video packet

    /// Waits on `step` of the packet at `position`, asking for the action it needs.
    private mutating func handling(_ status: Status, _ position: Int, _ step: Step) -> Action {
        state = .handling(status, position: position, step: step)
        switch step {
        case .headFed: return .feed(.head, holding: false)
        case .headFlushed: return .flush(.head, holding: false)
        case .heldCopiesWritten: return .writeHeldCopies
        case .tailFed: return .feed(.tail, holding: !status.copyDone)
        case .tailFlushed: return .flush(.tail, holding: true)
        case .copied: return .copy(startsStretch: position == copy?.lowerBound, holding: status.head == .open)
        case .heldTailWritten: return .writeHeldTail
        }
    }

    /// Once the head has had the packet: the copies it held go out when it has just finished.
    private mutating func afterHead(_ status: Status, _ position: Int) -> Action {
        if status.head == .finished && status.heldCopies > 0 { return handling(status, position, .heldCopiesWritten) }
        return tailStep(status, position)
    }

    private mutating func tailStep(_ status: Status, _ position: Int) -> Action {
        guard status.tail == .open, let from = tailDecodeFrom, position >= from else { return copyStep(status, position) }
        var status = status
        // Until the copy is written, what the tail encodes waits: it follows the copy.
        if !status.copyDone { status.heldTail = true }
        return handling(status, position, .tailFed)
    }

    private mutating func copyStep(_ status: Status, _ position: Int) -> Action {
        if let copy, copy.contains(position), !leading.contains(position) { return handling(status, position, .copied) }
        return packetDone(status)
    }

    /// The packet is handled: the range reads on, or ends when nothing more is wanted.
    private mutating func packetDone(_ status: Status) -> Action {
        var status = status
        status.videoDone = status.head != .open && status.copyDone && status.tail != .open
        return betweenPackets(status)
    }

    private mutating func betweenPackets(_ status: Status) -> Action {
        if status.videoDone && status.audioDone { return ending(status, after: nil) }
        state = .reading(status)
        return .readPacket
    }

    // MARK: - The end of the range

    /// The steps of the end, in order: drain the head and release the copies it held, drain
    /// the tail and write what it held.
    private static let endSteps: [Step] = [.headFlushed, .heldCopiesWritten, .tailFlushed, .heldTailWritten]

    /// The first step of the end after `step` (nil: from the start) that has work to do, or
    /// the finish.
    private mutating func ending(_ status: Status, after step: Step?) -> Action {
        let start = step.flatMap { Self.endSteps.firstIndex(of: $0) }.map { $0 + 1 } ?? 0
        for next in Self.endSteps[start...] {
            let needed = switch next {
            case .headFlushed: status.head == .open
            case .heldCopiesWritten: status.heldCopies > 0
            case .tailFlushed: status.tail == .open
            default: status.heldTail
            }
            guard needed else { continue }
            state = .ending(status, step: next)
            return switch next {
            case .headFlushed: .flush(.head, holding: false)
            case .heldCopiesWritten: .writeHeldCopies
            case .tailFlushed: .flush(.tail, holding: true)
            default: .writeHeldTail
            }
        }
        state = .finished
        return .finish(copied: status.copied)
    }

    private mutating func unexpected(_ event: String) -> Action {
        let failure = Failure.unexpected("\(event) while \(state)")
        state = .failed
        return .fail(failure)
    }
}
