import CommandLineKit
import Foundation
import Testing
import ViewfinderCore

/// The options both programs share, each parsed in one place: `--max-duration`, `--dark` and
/// `--light`, `--library`, `--script`.
@Suite("Shared options")
struct SharedOptionTests {
    static func parse<Value>(_ arguments: [String], _ option: TypedOption<Value>) throws(UsageError) -> Value {
        try ParsedArguments(arguments, options: option.specs, positionalCount: 0...0, command: "test")[option]
    }

    static let noLimitAllowed = SharedOption.maxDuration(help: "Refuse longer ones (0 = no limit).", zeroMeansNoLimit: true)
    static let positiveOnly = SharedOption.maxDuration(help: "Stop after S seconds.", zeroMeansNoLimit: false)

    @Test("--max-duration S: absent, 0 where it lifts the limit, and seconds read exactly; the command's help as given")
    func maxDuration() throws {
        #expect(Self.noLimitAllowed.specs == [OptionSpec("max-duration", value: "S", help: "Refuse longer ones (0 = no limit).")])
        #expect(try Self.parse([], Self.noLimitAllowed) == .absent)
        #expect(try Self.parse(["--max-duration", "0"], Self.noLimitAllowed) == .unlimited)
        #expect(try Self.parse(["--max-duration", "2.5"], Self.noLimitAllowed) == .atMost(MediaTime(value: 5, timescale: 2)))
        #expect(try Self.parse(["--max-duration=1:30"], Self.positiveOnly) == .atMost(MediaTime(value: 90, timescale: 1)))
    }

    @Test("what --max-duration asked for, as the longest accepted: the command's default when absent")
    func maximum() {
        let thirty = MediaTime(value: 30, timescale: 1)
        #expect(DurationLimitChoice.absent.maximum(default: thirty) == thirty)
        #expect(DurationLimitChoice.absent.maximum(default: nil) == nil)
        #expect(DurationLimitChoice.unlimited.maximum(default: thirty) == nil)
        #expect(DurationLimitChoice.atMost(MediaTime(value: 4, timescale: 1)).maximum(default: thirty) == MediaTime(value: 4, timescale: 1))
    }

    @Test("--max-duration refuses what is no span of time, and 0 where only more is accepted, in one line",
          arguments: [
              (["--max-duration", "soon"], true, "--max-duration: expected seconds, not 'soon'"),
              (["--max-duration", "-1"], true, "--max-duration: expected seconds, not '-1'"),
              (["--max-duration", "0"], false, "--max-duration: expected seconds above 0, not '0'"),
              (["--max-duration", "frame:3"], false, "--max-duration: expected seconds, not 'frame:3'"),
          ])
    func maxDurationRefused(_ arguments: [String], _ zeroMeansNoLimit: Bool, _ message: String) {
        let option = zeroMeansNoLimit ? Self.noLimitAllowed : Self.positiveOnly
        #expect(throws: UsageError(message: message, command: "test")) { try Self.parse(arguments, option) }
    }

    static let theme = SharedOption.theme(dark: "Dark.", light: "Light.")

    @Test("--dark or --light chooses the theme, neither leaves it to the desktop; both declared, in that order")
    func theme() throws {
        #expect(Self.theme.specs == [OptionSpec("dark", help: "Dark."), OptionSpec("light", help: "Light.")])
        #expect(try Self.parse(["--dark"], Self.theme) == .dark)
        #expect(try Self.parse(["--light"], Self.theme) == .light)
        #expect(try Self.parse([], Self.theme) == nil)
    }

    @Test("--dark with --light is a usage error, in either order")
    func bothThemes() {
        for arguments in [["--dark", "--light"], ["--light", "--dark"]] {
            #expect(throws: UsageError(message: "choose --dark or --light, not both", command: "test"), "\(arguments)") {
                try Self.parse(arguments, Self.theme)
            }
        }
    }

    @Test("--library DIR as given; absent, $VIEWFINDER_LIBRARY, else $XDG_DATA_HOME/viewfinder/Library, read when parsed")
    func library() throws {
        let explicit = SharedOption.library(help: "Where.", environment: { ["VIEWFINDER_LIBRARY": "/lib/a", "XDG_DATA_HOME": "/data"] })
        #expect(explicit.specs == [OptionSpec("library", value: "DIR", help: "Where.")])
        #expect(try Self.parse(["--library", "/given"], explicit).path == "/given")
        #expect(try Self.parse([], explicit).path == "/lib/a")
        let xdg = SharedOption.library(help: "Where.", environment: { ["XDG_DATA_HOME": "/data"] })
        #expect(try Self.parse([], xdg).path == "/data/viewfinder/Library")
    }

    @Test("--script FILE as given, nil when absent")
    func script() throws {
        let script = SharedOption.script(help: "Steps.")
        #expect(script.specs == [OptionSpec("script", value: "FILE", help: "Steps.")])
        #expect(try Self.parse(["--script", "/steps.txt"], script)?.path == "/steps.txt")
        #expect(try Self.parse([], script) == nil)
    }
}
