import Testing

@testable import Motion

@Suite("Sprite timing")
struct SpriteTimingTests {
    @Test("nothing before the begin time; exactly the end state at the end; nothing after unless held")
    func window() {
        let timing = SpriteTiming(begin: 1, duration: 2)
        #expect(timing.phase(at: 0.999) == nil)
        #expect(timing.phase(at: 1) == 0)
        #expect(timing.phase(at: 2) == 0.5)
        #expect(timing.phase(at: 3) == 1)
        #expect(timing.phase(at: 3.001) == nil)
        var held = timing
        held.keepsAlive = true
        #expect(held.phase(at: 100) == 1)
    }

    @Test("repeats restart at each cycle boundary and end on the end value")
    func repeats() {
        let timing = SpriteTiming(begin: 0, duration: 1, repetition: 3)
        #expect(timing.activeDuration == 3)
        #expect(timing.phase(at: 0.5) == 0.5)
        #expect(timing.phase(at: 1) == 0)
        #expect(timing.phase(at: 2.25) == 0.25)
        #expect(timing.phase(at: 3) == 1)
        #expect(timing.phase(at: 3.5) == nil)
    }

    @Test("autoreverse goes out and back: at the turn it is at the end, at the finish back at the start")
    func autoreverse() {
        let timing = SpriteTiming(begin: 0, duration: 1, autoreverses: true, keepsAlive: true)
        #expect(timing.activeDuration == 2)
        #expect(timing.phase(at: 0.5) == 0.5)
        #expect(timing.phase(at: 1) == 1)
        #expect(timing.phase(at: 1.25) == 0.75)
        #expect(timing.phase(at: 2) == 0)
        #expect(timing.phase(at: 9) == 0)
    }

    @Test("a fractional count stops part-way through the last cycle", arguments: [
        (2.5, false, 0.5), (1.25, false, 0.25), (1.5, true, 1.0), (1.25, true, 0.5), (0.75, true, 0.5), (2, true, 0.0),
    ])
    func fractionalRepeat(count: Double, autoreverses: Bool, expectedEnd: Double) {
        let timing = SpriteTiming(begin: 0, duration: 1, repetition: Repetition(count), autoreverses: autoreverses, keepsAlive: true)
        #expect(timing.activeDuration == count * (autoreverses ? 2 : 1))
        #expect(timing.endPhase == expectedEnd)
        #expect(timing.phase(at: timing.end) == expectedEnd)
        #expect(timing.phase(at: timing.end + 1) == expectedEnd)
    }

    @Test("forever never ends")
    func forever() {
        let timing = SpriteTiming(begin: 0, duration: 0.5, repetition: .forever)
        #expect(timing.end == .infinity)
        #expect(timing.phase(at: 1_000_000.25) == 0.5)
    }

    @Test("repeat counts: 0 and NaN play once, negative means forever (as in the original)")
    func repetitionCounts() {
        #expect(Repetition(0).count == 1 && Repetition(.nan).count == 1)
        #expect(Repetition(-1).isForever)
        let literal: Repetition = 2.5
        #expect(literal.count == 2.5)
    }

    @Test("a zero duration jumps to the end state at its begin time")
    func instant() {
        let timing = SpriteTiming(begin: 2, duration: 0)
        #expect(timing.phase(at: 1.9) == nil)
        #expect(timing.phase(at: 2) == 1)
        #expect(timing.phase(at: 2.1) == nil)
        #expect(SpriteTiming(begin: 0, duration: -3).duration == 0)
    }

    @Test("progress applies the curve to the phase")
    func progressUsesCurve() throws {
        let timing = SpriteTiming(begin: 0, duration: 2, curve: .easeInEaseOut)
        let progress = try #require(timing.progress(at: 0.5))
        #expect(isClose(progress, 0.12916193104731982, 1e-6))
    }
}
