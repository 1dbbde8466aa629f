import Foundation
import Testing
import ViewfinderCore

@Suite("Media time fractions")
struct MediaTimeFractionsTests {
    @Test("even steps are i·d/N exactly, whatever the timescale")
    func evenSteps() {
        let duration = MediaTime(value: 1001, timescale: 30000)
        #expect(duration.evenSteps(4) == (0..<4).map { MediaTime(value: 1001 * Int64($0), timescale: 120_000) })
        #expect(duration.evenSteps(0).isEmpty)
    }

    @Test("a fraction is clamped and rounded to a millionth; non-finite values count as zero")
    func fraction() {
        let duration = MediaTime(seconds: 2)
        #expect(duration.fraction(0.26) == MediaTime(value: 13, timescale: 25))
        #expect(duration.fraction(1.5) == duration)
        #expect(duration.fraction(-1) == .zero)
        #expect(duration.fraction(.nan) == .zero)
        #expect(duration.fraction(0.1234567) == MediaTime(value: 246_914, timescale: 1_000_000))
    }

    @Test("a time's place along a whole, for a slider")
    func place() {
        let whole = MediaTime(seconds: 4)
        #expect(MediaTime(seconds: 1).fraction(of: whole) == 0.25)
        #expect(MediaTime(seconds: 9).fraction(of: whole) == 1)
        #expect(MediaTime(seconds: 1).fraction(of: .zero) == 0)
    }
}
