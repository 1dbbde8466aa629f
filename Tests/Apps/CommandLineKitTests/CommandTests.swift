import CommandLineKit
import Testing

@Suite("Command defaults")
struct CommandTests {
    enum Greet: Command {
        static let toolName = "tool"
        static let name = "greet"
        static let summary = "Says hello."
        static let synopsis = "NAME [OPTIONS]"
        static let positionalCount = 1...1
        static let options = [OptionSpec("loud", short: "l", help: "Shout."),
                              OptionSpec("a-very-long-option-name", value: "VALUE", help: "Wide.")]
        static func run(_ arguments: ParsedArguments) throws -> Int32 { 0 }
    }

    @Test("usage lists the options aligned, and --help last")
    func usage() {
        #expect(Greet.usage == """
            usage: tool greet NAME [OPTIONS]

            Says hello.

            options:
              -l, --loud              Shout.
              --a-very-long-option-name VALUE  Wide.
              -h, --help              Show this help.

            """)
    }

    @Test("parse uses the command's table and name")
    func parse() throws {
        #expect(try Greet.parse(["ann", "-l"]).flag("loud"))
        #expect(throws: UsageError(message: "missing argument", command: "greet")) { try Greet.parse([]) }
    }
}
