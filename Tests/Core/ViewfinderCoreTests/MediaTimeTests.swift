import Foundation
import Testing

@testable import ViewfinderCore

@Suite("MediaTime")
struct MediaTimeTests {
    @Test("reduces to lowest terms and compares exactly")
    func reduction() {
        let t = MediaTime(value: 2002, timescale: 1000)
        #expect(t.value == 1001 && t.timescale == 500)
        #expect(MediaTime(value: 1001, timescale: 30000) < MediaTime(value: 1, timescale: 29))
        #expect(MediaTime(value: 1, timescale: 3) == MediaTime(value: 2, timescale: 6))
        #expect(MediaTime(value: 5, timescale: 0).timescale == 1, "a zero timescale is treated as 1")
    }

    @Test("floors to ticks of a rate without rounding through Double")
    func ticks() {
        let t = MediaTime(value: 1001, timescale: 30000)
        #expect(t.ticks(atRate: MediaTime(value: 30000, timescale: 1)) == 1001)
        // 0.1 s at 90 kHz is exactly 9000 ticks; a Double would give 8999.999...
        #expect(MediaTime(value: 1, timescale: 10).ticks(atRate: MediaTime(value: 90000, timescale: 1)) == 9000)
        #expect(MediaTime(value: -1, timescale: 3).ticks(atRate: MediaTime(seconds: 1)) == -1, "floor, not truncation")
    }

    @Test("exact arithmetic, nil on overflow")
    func arithmetic() {
        let a = MediaTime(value: 1, timescale: 3), b = MediaTime(value: 1, timescale: 6)
        #expect(a.adding(b) == MediaTime(value: 1, timescale: 2))
        #expect(a.subtracting(b) == b)
        #expect(a.scaled(by: 3, over: 2) == MediaTime(value: 1, timescale: 2))
        #expect(a.scaled(by: 1, over: 0) == nil)
        #expect(MediaTime(value: .max, timescale: 1).adding(MediaTime(seconds: 1)) == nil)
    }

    @Test("decimal and rational strings")
    func strings() {
        #expect(MediaTime(value: 1001, timescale: 30000).decimalString == "0.033367")
        #expect(MediaTime(value: 5, timescale: 2).decimalString == "2.5")
        #expect(MediaTime(seconds: 3).decimalString == "3")
        #expect(MediaTime(value: -1, timescale: 4).decimalString == "-0.25")
        #expect(MediaTime(value: 2002, timescale: 1000).rationalString == "1001/500")
    }
}

@Suite("TIME arguments")
struct TimePositionTests {
    @Test("seconds, m:ss.fff, h:mm:ss and frame:N parse exactly", arguments: [
        ("2.5", TimePosition.time(MediaTime(value: 5, timescale: 2))),
        ("2.002", .time(MediaTime(value: 2002, timescale: 1000))),
        ("0", .time(.zero)),
        (".5", .time(MediaTime(value: 1, timescale: 2))),
        ("7.", .time(MediaTime(seconds: 7))),
        ("1:02.5", .time(MediaTime(value: 125, timescale: 2))),
        ("01:00:03.25", .time(MediaTime(value: 14413, timescale: 4))),
        ("frame:0", .frame(0)),
        ("frame:120", .frame(120)),
    ])
    func parses(_ text: String, _ expected: TimePosition) throws {
        #expect(try TimePosition(parsing: text) == expected)
    }

    @Test("malformed times are refused with a reason", arguments: [
        "", "-1", "abc", "1:2:3:4", "1:60", "1:75:00", "frame:", "frame:-2", "frame:x", "2.5s", "1e3", "..", "1234567890",
    ])
    func refuses(_ text: String) {
        #expect(throws: TimeParseError.self) { try TimePosition(parsing: text) }
    }
}
