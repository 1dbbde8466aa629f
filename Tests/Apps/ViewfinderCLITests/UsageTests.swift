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

    /// The option rows of the README's budgets table: command, option, lowest, highest.
    static func budgetRows() throws -> [(command: String, option: String, low: Int, high: Int)] {
        let readme = try String(contentsOf: TestPaths.repository.appendingPathComponent("README.md"), encoding: .utf8)
        return readme.split(separator: "\n").compactMap { line -> (String, String, Int, Int)? in
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 2, cells[0].hasPrefix("`"), cells[0].hasSuffix("`") else { return nil }
            let words = cells[0].dropFirst().dropLast().split(separator: " ").map(String.init)
            let range = cells[1].split(separator: "–").map { Int($0.trimmingCharacters(in: .whitespaces)) }
            guard words.count == 2, words[1].hasPrefix("--"), range.count == 2, let low = range[0], let high = range[1] else { return nil }
            return (words[0], words[1], low, high)
        }
    }

    @Test("every option range in the README's budgets table is what the command takes: one past either end is a usage error")
    func budgetsTable() throws {
        let rows = try Self.budgetRows()
        #expect(rows.count >= 12, "the table was not read: \(rows)")
        for row in rows {
            let base: [String]
            switch row.command {
            case "avatar": base = ["avatar", "in.jpg", "-o", "out.png"]
            case "cover": base = row.option == "--count" ? ["cover", "in.mp4", "--suggest"] : ["cover", "in.mp4", "-o", "out.jpg"]
            case "filmstrip": base = ["filmstrip", "in.mp4", "-o", "out.jpg"]
            case "animate": base = ["animate", "scene.json", "-o", "out.mp4"]
            case "sample": base = ["sample", "-o", "out.mp4"]
            case "thumbnail": base = ["thumbnail", "in.mp4", "out.png"]
            default: Issue.record("no arguments known for \(row.command)"); continue
            }
            for value in [row.low - 1, row.high + 1] {
                let result = try viewfinder(base + [row.option, String(value)])
                #expect(result.status == 2, "\(row.command) \(row.option) \(value): \(result.stderr)")
                #expect(result.stderr.contains(row.option) && result.stderr.contains("\(row.low)") && result.stderr.contains("\(row.high)"),
                        "\(row.command) \(row.option) \(value) names the range: \(result.stderr)")
            }
            let help = try viewfinder(row.command, "--help").stdout
            #expect(help.contains(row.option), "\(row.command) --help lists \(row.option)")
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
