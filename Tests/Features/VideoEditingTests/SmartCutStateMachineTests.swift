import Foundation
import MediaIO
import Testing
import ViewfinderCore

@testable import VideoEditing

/// Each transition of the smart cut's state machine, on the made-up indexes of
/// `SmartCutPlanTests`: which packets are copied, fed to the head or the tail, held and released.
@Suite("Smart cut: the state machine")
struct SmartCutStateMachineTests {
    typealias Machine = SmartCutStateMachine

    /// A machine for `[start, end)` of `index`, its stretches open where the plan has them.
    static func machine(_ index: PacketIndex, _ start: Int64, _ end: Int64, audio: Machine.AudioWindow? = nil) -> Machine {
        let plan = index.plan(keepStart: start, keepEnd: end, outputStart: 0, copying: true)
        return Machine(plan: plan, head: plan.hasHead ? .open : .absent, tail: plan.hasTail ? .open : .absent, audioWindow: audio)
    }

    /// Feeds the packets at `positions` to a head they do not finish: each is fed, then the next is read.
    static func feedHead(_ machine: inout Machine, _ positions: ClosedRange<Int>, sourceLocation: SourceLocation = #_sourceLocation) {
        for position in positions {
            #expect(machine.videoPacket(at: position) == .feed(.head, holding: false), sourceLocation: sourceLocation)
            #expect(machine.fed(.head, finished: false) == .readPacket, sourceLocation: sourceLocation)
        }
    }

    /// Copies the packets at `positions`, none held, none ending the range: each is written, then the next is read.
    static func copy(_ machine: inout Machine, _ positions: ClosedRange<Int>, startingAt start: Int? = nil,
                     sourceLocation: SourceLocation = #_sourceLocation) {
        for position in positions {
            #expect(machine.videoPacket(at: position) == .copy(startsStretch: position == start, holding: false),
                    sourceLocation: sourceLocation)
            #expect(machine.copied() == .readPacket, sourceLocation: sourceLocation)
        }
    }

    @Test("a range starting on an IDR: packets before it are dropped, the rest copied as they come, the first as a stretch start")
    func startsOnKeyframe() {
        var machine = Self.machine(closedGOPs, 4, 8)
        #expect(machine.videoPacket(at: 3) == .readPacket)
        Self.copy(&machine, 4...6, startingAt: 4)
        #expect(machine.videoPacket(at: 7) == .copy(startsStretch: false, holding: false))
        #expect(machine.copied() == .finish(copied: 4))
        #expect(machine.state == .finished)
    }

    @Test("a range without a keyframe: every packet from the keyframe before is fed to the head until it has its frames")
    func withoutKeyframe() {
        var machine = Self.machine(closedGOPs, 1, 3)
        Self.feedHead(&machine, 0...2)
        #expect(machine.videoPacket(at: 3) == .feed(.head, holding: false))
        #expect(machine.fed(.head, finished: true) == .finish(copied: 0))
    }

    @Test("a head before a copy is drained at its last packet, then the copy starts")
    func headThenCopy() {
        var machine = Self.machine(closedGOPs, 5, 12)
        Self.feedHead(&machine, 4...6)
        #expect(machine.videoPacket(at: 7) == .feed(.head, holding: false))
        #expect(machine.fed(.head, finished: false) == .flush(.head, holding: false))
        #expect(machine.fed(.head, finished: true) == .readPacket)
        #expect(machine.videoPacket(at: 8) == .copy(startsStretch: true, holding: false))
        #expect(machine.copied() == .readPacket)
    }

    @Test("a range ending mid-GOP: the tail's decoder reads before the copy is written, its pictures held until the copy ends")
    func endsMidGOP() {
        var machine = Self.machine(closedGOPs, 4, 10)
        Self.copy(&machine, 4...7, startingAt: 4)
        #expect(machine.videoPacket(at: 8) == .feed(.tail, holding: true))
        #expect(machine.fed(.tail, finished: false) == .copy(startsStretch: false, holding: false))
        #expect(machine.copied() == .writeHeldTail)
        #expect(machine.released() == .readPacket)
        #expect(machine.videoPacket(at: 9) == .feed(.tail, holding: false))
        #expect(machine.fed(.tail, finished: false) == .readPacket)
        #expect(machine.videoPacket(at: 10) == .feed(.tail, holding: false))
        #expect(machine.fed(.tail, finished: true) == .finish(copied: 5))
    }

    @Test("HEVC CRA: the CRA is copied as a stretch start (a BLA) and held while the head decodes its leading pictures, then released")
    func cleanRandomAccess() {
        var machine = Self.machine(craGOPs, 2, 8)
        Self.feedHead(&machine, 0...2)
        #expect(machine.videoPacket(at: 3) == .feed(.head, holding: false))
        #expect(machine.fed(.head, finished: false) == .copy(startsStretch: true, holding: true))
        #expect(machine.copied() == .readPacket)
        // The leading pictures go to the head only.
        #expect(machine.videoPacket(at: 4) == .feed(.head, holding: false))
        #expect(machine.fed(.head, finished: false) == .readPacket)
        #expect(machine.videoPacket(at: 5) == .feed(.head, holding: false))
        #expect(machine.fed(.head, finished: false) == .flush(.head, holding: false))
        #expect(machine.fed(.head, finished: true) == .writeHeldCopies)
        #expect(machine.released() == .readPacket)
        #expect(machine.videoPacket(at: 6) == .copy(startsStretch: false, holding: false))
        #expect(machine.copied() == .readPacket)
        #expect(machine.videoPacket(at: 7) == .copy(startsStretch: false, holding: false))
        #expect(machine.copied() == .finish(copied: 3))
    }

    @Test("joins: each range's machine reads from its own first packet, so packets of the range before it are dropped")
    func joins() {
        let plans = closedGOPs.plans(for: [(4, 8), (1, 3)], copying: true)
        var second = Machine(plan: plans[1], head: .open, tail: .absent, audioWindow: nil)
        #expect(plans[1].firstPosition == 0)
        #expect(second.videoPacket(at: 0) == .feed(.head, holding: false))
        var first = Machine(plan: plans[0], head: .absent, tail: .absent, audioWindow: nil)
        #expect(first.videoPacket(at: 0) == .readPacket && first.videoPacket(at: 2) == .readPacket)
    }

    @Test("audio inside the range is written, before it dropped; the range ends once video and audio have both passed its end")
    func audio() {
        let window = Machine.AudioWindow(start: MediaTime(value: 4, timescale: 1), end: MediaTime(value: 8, timescale: 1))
        var machine = Self.machine(closedGOPs, 4, 8, audio: window)
        #expect(machine.audioPacket(at: MediaTime(value: 3, timescale: 1)) == .readPacket)
        #expect(machine.audioPacket(at: MediaTime(value: 4, timescale: 1)) == .writeAudio)
        #expect(machine.audioPacket(at: nil) == .readPacket)
        // The copy's last packet does not end the range: the audio is not done yet.
        Self.copy(&machine, 4...7, startingAt: 4)
        #expect(machine.videoPacket(at: 8) == .readPacket, "video past the range is dropped")
        #expect(machine.audioPacket(at: MediaTime(value: 7, timescale: 1)) == .writeAudio)
        #expect(machine.audioPacket(at: MediaTime(value: 8, timescale: 1)) == .finish(copied: 4))
    }

    @Test("the end of the file drains the open stretches: the tail's last pictures are held, then written with the rest")
    func endOfFile() {
        var machine = Self.machine(closedGOPs, 4, 10)
        Self.copy(&machine, 4...7, startingAt: 4)
        #expect(machine.endOfStream() == .flush(.tail, holding: true))
        #expect(machine.fed(.tail, finished: true) == .writeHeldTail)
        #expect(machine.released() == .finish(copied: 4))
    }

    @Test("the end of the file with the head open drains it and releases the copies it held")
    func endOfFileWithHead() {
        var machine = Self.machine(craGOPs, 2, 8)
        Self.feedHead(&machine, 0...2)
        _ = machine.videoPacket(at: 3)
        #expect(machine.fed(.head, finished: false) == .copy(startsStretch: true, holding: true))
        #expect(machine.copied() == .readPacket)
        #expect(machine.endOfStream() == .flush(.head, holding: false))
        #expect(machine.fed(.head, finished: true) == .writeHeldCopies)
        #expect(machine.released() == .finish(copied: 1))
    }

    @Test("cancelling stops the range: the action is to abandon it, and nothing more is asked for")
    func cancellation() {
        var machine = Self.machine(closedGOPs, 1, 3)
        Self.feedHead(&machine, 0...0)
        #expect(machine.cancel() == .abandon)
        #expect(machine.state == .cancelled)
        guard case .fail(.unexpected) = machine.videoPacket(at: 1) else {
            Issue.record("a packet after cancelling is not handled")
            return
        }
    }

    @Test("a video packet the index does not know fails the range; once its video is done it is dropped")
    func unknownPacket() {
        var failing = Self.machine(closedGOPs, 4, 8)
        #expect(failing.videoPacket(at: nil) == .fail(.packetMoved))
        var done = Self.machine(closedGOPs, 4, 8, audio: Machine.AudioWindow(start: .zero, end: MediaTime(value: 8, timescale: 1)))
        Self.copy(&done, 4...7, startingAt: 4)
        #expect(done.videoPacket(at: nil) == .readPacket)
    }

    @Test("an event the state does not expect is a failure, not a crash")
    func unexpectedEvent() {
        var machine = Self.machine(closedGOPs, 4, 8)
        guard case .fail(.unexpected(let what)) = machine.fed(.head, finished: true) else {
            Issue.record("fed without a feed was accepted")
            return
        }
        #expect(what.contains("head"))
        #expect(machine.state == .failed)
    }
}
