import Testing

@testable import Motion

@Suite("Keyframes")
struct KeyframesTests {
    @Test("evenly spaced values are reached at even fractions, linear in between")
    func evenlySpaced() {
        let track = Keyframes<Double>([0, 10, 30]).track
        #expect(track.times == [0, 0.5, 1])
        #expect(track.value(at: 0.25, duration: 1) == .number(5))
        #expect(track.value(at: 0.75, duration: 1) == .number(20))
        #expect(track.value(at: 1, duration: 1) == .number(30))
        #expect(track.value(at: -1, duration: 1) == .number(0))
    }

    @Test("explicit times and a per-stretch curve")
    func timesAndCurves() {
        let track = Keyframes<Double>([0, 100, 0], times: [0, 0.2, 1], curves: [.linear, .easeIn]).track
        #expect(track.value(at: 0.1, duration: 1) == .number(50))
        // Half-way through the second stretch (0.2…1) with easeIn: 100 − 100·0.31535681…
        guard case .number(let value)? = track.value(at: 0.6, duration: 1) else {
            Issue.record("no number")
            return
        }
        #expect(isClose(value, 100 - 100 * 0.3153568125725393, 1e-4))
    }

    @Test("bad times fall back to even spacing; missing curves are linear")
    func repairs() {
        let track = Keyframes<Double>([0, 1, 2], times: [0, 0.9, 0.1], curves: [.easeIn]).track
        #expect(track.times == [0, 0.5, 1])
        #expect(track.curves == [.easeIn, .linear])
    }
}
