import CommandLineKit
import Foundation
import Testing
import ViewfinderCore

/// The kinds of option every command declares: each reads its value typed from the one
/// declaration `--help` shows, and refuses a bad value with the one wording of its kind.
@Suite("Option kinds")
struct OptionKindTests {
    enum Speed: String, CaseIterable, Sendable {
        case slow, fast
    }

    static let loud = TypedOption.flag("loud", short: "l", help: "Shout.")
    static let count = TypedOption.integer("count", help: "How many.", in: 1...9, default: 3)
    static let limit = TypedOption<Int?>.integer("limit", help: "At most.", in: 1...100)
    static let speed = TypedOption<Speed>.choice("speed", value: "S", help: "How fast.", default: .slow)
    static let name = TypedOption.text("name", value: "N", help: "Called.")
    static let output = TypedOption.requiredPath("output", short: "o", value: "OUT", help: "Where.")
    static let folder = TypedOption.path("folder", value: "DIR", help: "From.")
    static let at = TypedOption.position("at", help: "When.")
    static let wait = TypedOption.seconds("wait", help: "How long.", .positive(upTo: 60))
    static let keep = TypedOption.repeated("keep", value: "A-B", help: "Ranges.")
    static let all: [any OptionDeclaration] = [loud, count, limit, speed, name, output, folder, at, wait, keep]

    static func parse(_ words: [String]) throws(UsageError) -> ParsedArguments {
        try ParsedArguments(words, options: all.flatMap(\.specs), positionalCount: 0...0, command: "test")
    }

    @Test("OptionSpec.list joins the declarations in order, as --help lists them")
    func list() {
        let specs = OptionSpec.list(Self.loud, Self.count, Self.speed)
        #expect(specs == [OptionSpec("loud", short: "l", help: "Shout."), OptionSpec("count", value: "N", help: "How many."),
                          OptionSpec("speed", value: "S", help: "How fast.")])
        #expect(Self.speed.name == "speed")
    }

    @Test("absent options read as their defaults, and none is given")
    func absent() throws {
        let parsed = try Self.parse([])
        #expect(try parsed[Self.loud] == false)
        #expect(try parsed[Self.count] == 3)
        #expect(try parsed[Self.limit] == nil)
        #expect(try parsed[Self.speed] == .slow)
        #expect(try parsed[Self.name] == nil)
        #expect(try parsed[Self.folder] == nil)
        #expect(try parsed[Self.at] == nil)
        #expect(try parsed[Self.wait] == nil)
        #expect(try parsed[Self.keep] == [])
        for option in Self.all { #expect(!option.isGiven(in: parsed), "\(option.specs[0].name)") }
        #expect(throws: UsageError(message: "--output is required", command: "test")) { try parsed[Self.output] }
        #expect(throws: UsageError(message: "--folder is required", command: "test")) { try parsed.required(Self.folder) }
    }

    @Test("given options read typed")
    func given() throws {
        let parsed = try Self.parse(["-l", "--count", "7", "--limit=40", "--speed", "fast", "--name", "Ann", "-o", "/tmp/x.png",
                                     "--folder", "/srv", "--at", "frame:12", "--wait", "0:30", "--keep", "1-2", "--keep", "5-6"])
        #expect(try parsed[Self.loud])
        #expect(try parsed[Self.count] == 7)
        #expect(try parsed[Self.limit] == 40)
        #expect(try parsed[Self.speed] == .fast)
        #expect(try parsed[Self.name] == "Ann")
        #expect(try parsed[Self.output] == URL(fileURLWithPath: "/tmp/x.png"))
        #expect(try parsed.required(Self.folder) == URL(fileURLWithPath: "/srv"))
        #expect(try parsed[Self.at] == .frame(12))
        #expect(try parsed[Self.wait] == MediaTime(value: 30, timescale: 1))
        #expect(try parsed[Self.keep] == ["1-2", "5-6"])
        for option in Self.all { #expect(option.isGiven(in: parsed), "\(option.specs[0].name)") }
    }

    @Test("a bad value is refused with its kind's wording, after the option's name", arguments: [
        (["--count", "0"], "--count must be a whole number from 1 to 9, not '0'"),
        (["--limit", "x"], "--limit must be a whole number from 1 to 100, not 'x'"),
        (["--speed", "warp"], "--speed: expected slow or fast, not 'warp'"),
        (["--at", "soon"], "--at: invalid time 'soon': expected seconds (2.5), m:ss.fff or frame:N"),
        (["--wait", "0"], "--wait: expected seconds above 0, not '0'"),
    ])
    func refused(_ words: [String], _ message: String) throws {
        let parsed = try Self.parse(words)
        let option = try #require(Self.all.first { $0.isGiven(in: parsed) })
        #expect(throws: UsageError(message: message, command: "test")) {
            switch option {
            case let typed as TypedOption<Int>: _ = try parsed[typed]
            case let typed as TypedOption<Int?>: _ = try parsed[typed]
            case let typed as TypedOption<Speed>: _ = try parsed[typed]
            case let typed as TypedOption<TimePosition?>: _ = try parsed[typed]
            case let typed as TypedOption<MediaTime?>: _ = try parsed[typed]
            default: Issue.record("no case for \(option.specs[0].name)")
            }
        }
    }

    @Test("invalid(option:) names the option as the usage error does")
    func invalid() throws {
        let parsed = try Self.parse([])
        #expect(parsed.invalid(Self.count, "too many") == UsageError(message: "--count: too many", command: "test"))
    }

    @Test("withHelp can change the value's placeholder, the name and reader stay")
    func placeholder() throws {
        let other = Self.folder.withHelp("Into.", value: "PATH")
        #expect(other.specs == [OptionSpec("folder", value: "PATH", help: "Into.")])
        let parsed = try ParsedArguments(["--folder", "/a"], options: other.specs, positionalCount: 0...0, command: "test")
        #expect(try parsed[other] == URL(fileURLWithPath: "/a"))
    }
}
