import Foundation
import Testing
import ViewfinderTestSupport

@Suite("Usage and help")
struct UsageTests {
    @Test("--help lists every command")
    func mainHelp() throws {
        let result = try viewfinder("--help")
        #expect(result.status == 0)
        for command in UsageTests.commands {
            #expect(result.stdout.contains("  \(command) "), "missing \(command)")
        }
    }

    static let commands = ["info", "cover", "filmstrip", "thumbnail", "convert", "trim", "avatar", "library", "devices", "capture",
                           "animate", "sample"]

    @Test("every command has --help", arguments: commands)
    func commandHelp(_ command: String) throws {
        let result = try viewfinder(command, "--help")
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("usage: viewfinder \(command) "))
        #expect(result.stdout.contains("--help"))
    }

    @Test("bad usage exits 2 with the usage on stderr", arguments: [
        [String](), ["frobnicate"], ["cover"], ["cover", "clip.mp4"], ["cover", "a.mp4", "-o", "x.jpg", "--at", "soon"],
        ["cover", "a.mp4", "-o", "x.jpg", "--max-size", "12"], ["cover", "a.mp4", "-o", "x.gif"],
        ["cover", "a.mp4", "-o", "x.jpg", "--bogus"], ["filmstrip", "a.mp4", "-o", "d", "--count", "0"],
        ["filmstrip", "a.mp4", "-o", "d", "--height", "tall"], ["info"], ["info", "a", "b"],
        ["cover", "a.mp4", "-o", "x.jpg", "--max-duration", "-3"], ["sample", "-o", "s.mp4", "--size", "33x33"],
    ])
    func badUsage(_ arguments: [String]) throws {
        let result = try viewfinder(arguments)
        #expect(result.status == 2, "\(arguments)")
        #expect(result.stderr.contains("usage: viewfinder"), "\(arguments)")
        #expect(result.stdout.isEmpty)
        // The error, the usage line and where the help is: not the whole help (a few lines at most).
        if arguments.count > 1 {
            #expect(result.stderr.split(separator: "\n").count <= 4 && !result.stderr.contains("options:"), "\(result.stderr)")
            #expect(result.stderr.contains("--help' for its options"), "\(result.stderr)")
        }
    }

    @Test("--version: both programs say the one version")
    func version() throws {
        let result = try viewfinder("--version")
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("viewfinder "))
        let studio = try Subprocess.run(TestPaths.studio, ["--version"])
        #expect(studio.status == 0)
        let number = result.stdout.dropFirst("viewfinder ".count)
        #expect(!number.isEmpty && studio.stdout == "viewfinder-studio " + number, "\(result.stdout) / \(studio.stdout)")
    }
}

@Suite("Help from the tables")
struct HelpFromTablesTests {
    @Test("convert and trim list the presets, boxes and qualities of the preset table; capture its qualities")
    func presets() throws {
        for command in ["convert", "trim"] {
            let help = try viewfinder(command, "--help").stdout
            #expect(help.contains("auto, passthrough, highest, medium, low or WxH (default auto)"), "\(command)")
            #expect(help.contains("medium fits 960×540 (CRF 21)"), "\(command)")
        }
        #expect(try viewfinder("capture", "--help").stdout.contains("high, medium or low (default high)"))
        let bad = try viewfinder("convert", "x.mp4", "--preset", "huge", "-o", "/tmp/y.mp4")
        #expect(bad.status == 2 && bad.stderr.contains("expected auto, passthrough, highest, medium, low or WxH, not 'huge'"))
    }

    @Test("engine errors carry no flags; the tool adds its hint")
    func hints() throws {
        let folder = TestPaths.scratchFolder("hints")
        let result = try viewfinder("capture", "photo", "--device", "no-such-camera", "-o", folder.appendingPathComponent("p.jpg").path)
        #expect(result.status == 1)
        #expect(result.stderr == "viewfinder: no camera 'no-such-camera'; 'viewfinder devices' lists them\n")
    }
}
