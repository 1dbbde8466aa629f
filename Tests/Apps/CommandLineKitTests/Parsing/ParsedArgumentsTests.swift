import CommandLineKit
import Testing

@Suite("Parsed arguments")
struct ParsedArgumentsTests {
    static let options = [
        OptionSpec("output", short: "o", value: "OUT", help: "Where."),
        OptionSpec("quiet", short: "q", help: "Hush."),
        OptionSpec("count", value: "N", help: "How many."),
    ]

    func parse(_ arguments: [String], positionals: ClosedRange<Int> = 1...1) throws(UsageError) -> ParsedArguments {
        try ParsedArguments(arguments, options: ParsedArgumentsTests.options, positionalCount: positionals, command: "test")
    }

    @Test("long, inline, short and flag forms")
    func forms() throws {
        let parsed = try parse(["in", "--output", "a", "--count=3", "-q"])
        #expect(parsed.positionals == ["in"])
        #expect(parsed.value("output") == "a")
        #expect(try parsed.integer("count", in: 1...9, default: 1) == 3)
        #expect(parsed.flag("quiet"))
        #expect(try parse(["-o", "b", "in"]).value("output") == "b")
    }

    @Test("-- ends the options and - alone is a positional")
    func positionalsOnly() throws {
        #expect(try parse(["--", "-o", "x"], positionals: 0...2).positionals == ["-o", "x"])
        #expect(try parse(["-"]).positionals == ["-"])
    }

    @Test("help skips the positional count")
    func help() throws {
        #expect(try parse(["-h"]).wantsHelp)
        #expect(try parse(["a", "b", "--help"]).wantsHelp)
    }

    @Test("mistakes are usage errors that name the command", arguments: [
        (["in", "--bogus"], "unknown option '--bogus'"), (["in", "-x"], "unknown option '-x'"),
        (["in", "-qo"], "unknown option '-qo'"), (["in", "--quiet=yes"], "--quiet takes no value"),
        (["in", "--output"], "--output needs a value (OUT)"), ([], "missing argument"),
        (["a", "b"], "unexpected argument 'b'"), (["in", "--=1"], "unknown option '--'"),
    ])
    func mistakes(_ arguments: [String], _ message: String) {
        #expect(throws: UsageError(message: message, command: "test")) { try parse(arguments) }
    }

    @Test("integer and required options check their values")
    func values() throws {
        let parsed = try parse(["in", "--count", "0"])
        #expect(throws: UsageError(message: "--count must be a whole number from 1 to 9, not '0'", command: "test")) {
            try parsed.integer("count", in: 1...9, default: 1)
        }
        #expect(throws: UsageError(message: "--output is required", command: "test")) { try parsed.required("output") }
    }
}
