import Testing
import ViewfinderCore

@testable import Motion

@Suite("The ticker")
struct MotionTickerTests {
    @Test("ticks follow the clock, deliver stops and give the frame to draw")
    func ticks() {
        let clock = VirtualClock(startingAt: 100)
        let root = Layer(name: "root")
        let ticker = MotionTicker(root: root, clock: clock)
        let log = StopLog()
        root.motion.fade.to(0).duration(1).didStop(log.handler("fade")).activate()
        clock.advance(by: 0.5)
        #expect(ticker.frame().state.opacity == 0.5)
        clock.advance(by: 0.5)
        #expect(ticker.tick() == 101 && log.entries == ["fade:finished"])
    }

    @Test("a layer taken out of its tree still delivers its own stops")
    func detached() {
        let clock = VirtualClock()
        let root = Layer(name: "root"), child = Layer(name: "child")
        root.clock = clock
        root.addSublayer(child)
        let log = StopLog()
        child.motion.fade.to(0).duration(1).didStop(log.handler("child")).activate()
        child.removeFromSuperlayer()
        child.advance(to: 2)
        #expect(log.entries == ["child:finished"])
    }
}
