import CommandLineKit
import Testing

/// An option declared once with its reader: the declaration for help, the value typed, and a
/// refusal worded in one place.
@Suite("Typed options")
struct TypedOptionTests {
    /// `--level N`: a whole number from 1 to 9, 5 when absent.
    static let level = TypedOption<Int>("level", short: "l", value: "N", help: "How much.", absent: { 5 }) { text throws(InvalidValueError) in
        guard let number = Int(text), (1...9).contains(number) else { throw InvalidValueError("1 to 9, not '\(text)'") }
        return number
    }

    static func parse(_ arguments: [String], _ option: TypedOption<Int> = level) throws(UsageError) -> ParsedArguments {
        try ParsedArguments(arguments, options: option.specs, positionalCount: 0...0, command: "test")
    }

    @Test("the declaration is what --help lists")
    func declaration() {
        #expect(Self.level.specs == [OptionSpec("level", short: "l", value: "N", help: "How much.")])
        #expect(OptionSpec.helpLines(Self.level.specs) == "  -l, --level N           How much.\n")
    }

    @Test("a value given is read typed, by subscript and by value(of:), in every form; absent is the default")
    func read() throws {
        #expect(try Self.parse(["--level", "7"])[Self.level] == 7)
        #expect(try Self.parse(["--level=2"]).value(of: Self.level) == 2)
        #expect(try Self.parse(["-l", "9"])[Self.level] == 9)
        let absent = try Self.parse([])
        #expect(try absent[Self.level] == 5)
        #expect(!absent.isGiven(Self.level))
        #expect(try Self.parse(["-l", "1"]).isGiven(Self.level))
    }

    @Test("a value the reader refuses is a usage error about the command, the option's name before the reason")
    func refused() throws {
        let parsed = try Self.parse(["--level", "12"])
        #expect(throws: UsageError(message: "--level: 1 to 9, not '12'", command: "test")) { try parsed[Self.level] }
    }

    @Test("withHelp changes the help line only: the same name, value and reader")
    func withHelp() throws {
        let other = Self.level.withHelp("Here, how loud.")
        #expect(other.specs == [OptionSpec("level", short: "l", value: "N", help: "Here, how loud.")])
        #expect(try Self.parse(["--level", "3"], other)[other] == 3)
        #expect(throws: UsageError(message: "--level: 1 to 9, not 'x'", command: "test")) { try Self.parse(["--level", "x"], other)[other] }
    }
}
