import Testing

@testable import ViewfinderCore

@Suite("Clocks")
struct ClockSourceTests {
    @Test("a virtual clock moves only forward, only when told")
    func virtualClock() {
        let clock = VirtualClock(startingAt: 10)
        #expect(clock.now == 10)
        clock.advance(by: 0.25)
        #expect(clock.now == 10.25)
        clock.advance(by: -5)
        #expect(clock.now == 10.25)
    }

    @Test("the system clock is monotonic")
    func systemClock() {
        let clock = SystemClock()
        let a = clock.now
        let b = clock.now
        #expect(b >= a)
    }
}
