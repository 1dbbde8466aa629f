import CommandLineKit
import Testing
import ViewfinderCore

/// The one reader of options that take seconds (`--max-duration`, `--at`, `--duration`).
@Suite("Seconds options")
struct SecondsTests {
    static func seconds(_ text: String?, _ range: SecondsRange) throws(UsageError) -> MediaTime? {
        let arguments = text.map { ["--limit", $0] } ?? []
        let parsed = try ParsedArguments(arguments, options: [OptionSpec("limit", value: "S", help: "A limit.")],
                                         positionalCount: 0...0, command: "test")
        return try parsed.seconds("limit", range)
    }

    @Test("absent is nil; seconds, m:ss and h:mm:ss are read exactly")
    func accepted() throws {
        #expect(try Self.seconds(nil, .positive()) == nil)
        #expect(try Self.seconds("2.5", .positive()) == MediaTime(value: 5, timescale: 2))
        #expect(try Self.seconds("1:02", .positive()) == MediaTime(value: 62, timescale: 1))
        #expect(try Self.seconds("1:00:00", .positive(upTo: 3600)) == MediaTime(value: 3600, timescale: 1))
        #expect(try Self.seconds("0", .nonNegative()) == .zero)
    }

    @Test("what is not a span of time, 0 where more is needed, and too long each say so in one line",
          arguments: [
              ("soon", SecondsRange.positive(), "--limit: expected seconds, not 'soon'"),
              ("-1", .nonNegative(), "--limit: expected seconds, not '-1'"),
              ("frame:3", .positive(), "--limit: expected seconds, not 'frame:3'"),
              ("0", .positive(), "--limit: expected seconds above 0, not '0'"),
              ("0:00", .positive(upTo: 10), "--limit: expected seconds above 0, not '0:00'"),
              ("3600.5", .nonNegative(upTo: 3600), "--limit: 3600.5 is out of range (0…3600 seconds)"),
          ])
    func refused(_ text: String, _ range: SecondsRange, _ message: String) {
        #expect(throws: UsageError(message: message, command: "test")) { try Self.seconds(text, range) }
    }
}
