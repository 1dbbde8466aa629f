import Foundation
import Testing
import ViewfinderTestSupport

@Suite("Studio: command line")
struct StudioCommandLineTests {
    @Test("--help describes the app and exits 0; --version prints it")
    func help() async throws {
        let help = try Subprocess.run(TestPaths.studio, ["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.hasPrefix("usage: viewfinder-studio [OPTIONS]"))
        for option in ["--library DIR", "--device ID", "--cover VIDEO", "--avatar PHOTO", "--trim VIDEO", "--camera", "--script FILE"] {
            #expect(help.stdout.contains(option), "--help does not mention \(option)")
        }
        let version = try Subprocess.run(TestPaths.studio, ["--version"])
        #expect(version.status == 0 && version.stdout.hasPrefix("viewfinder-studio "))
    }

    @Test("bad usage exits 2 with one clear line and the usage", arguments: [
        (["--frobnicate"], "unknown option '--frobnicate'"),
        (["--library"], "--library needs a value"),
        (["https://example.com/clip.mp4"], "'https://example.com/clip.mp4' is not a local file"),
        (["--cover", "a.mp4", "b.mp4"], "open FILEs or one of --cover"),
        (["--cover", "a.mp4", "--avatar", "b.jpg"], "open one file at a time"),
        (["--portal", "a.jpg"], "--portal opens no window of its own"),
        (["--portal", "--camera"], "--portal opens no window of its own"),
    ])
    func usage(arguments: [String], message: String) async throws {
        let result = try Subprocess.run(TestPaths.studio, arguments)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("viewfinder-studio: \(message)"))
        #expect(result.stderr.contains("usage: viewfinder-studio"))
    }

    @Test("without a display it says so in one line and exits 1, without crashing")
    func noDisplay() async throws {
        let result = try Subprocess.run("env", ["-u", "DISPLAY", "-u", "WAYLAND_DISPLAY", TestPaths.studio.path])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("viewfinder-studio: cannot open a display"))
        #expect(result.stderr.contains("xvfb-run"))
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test("an unreadable script is refused before anything opens")
    func missingScript() async throws {
        let result = try Subprocess.run(TestPaths.studio, ["--script", "/nonexistent/script.txt"])
        #expect(result.status == 1)
        #expect(result.stderr == "viewfinder-studio: cannot read the script /nonexistent/script.txt\n")
    }

    /// The step names the script player handles, read from its `switch` (the HUD's KEY=VALUE
    /// options live in Automation+HUD.swift and are no steps).
    static func handledSteps() throws -> Set<String> {
        var names = Set<String>()
        for file in ["Automation.swift", "Automation+Steps.swift"] {
            let source = try String(contentsOf: TestPaths.repository.appendingPathComponent("Sources/Apps/StudioAutomation/\(file)"), encoding: .utf8)
            for line in source.split(separator: "\n") where line.trimmingCharacters(in: .whitespaces).hasPrefix("case \"") {
                for part in line.split(separator: "\"").enumerated() where part.offset % 2 == 1 { names.insert(String(part.element)) }
            }
        }
        return names
    }

    @Test("the script steps pick --help and the README list are the steps the player handles, each once")
    func scriptSteps() throws {
        let help = try Subprocess.run(TestPaths.studio, ["pick", "--help"])
        #expect(help.status == 0)
        let section = try #require(help.stdout.components(separatedBy: "script steps").last)
        let listed = section.split(separator: "\n").dropFirst(2).compactMap { line -> String? in
            guard line.hasPrefix("  ") else { return nil }
            return line.split(separator: " ").first.map(String.init)
        }
        #expect(Set(listed).count == listed.count, "a step is listed twice: \(listed)")
        #expect(Set(listed) == (try Self.handledSteps()))
        let readme = try String(contentsOf: TestPaths.repository.appendingPathComponent("README.md"), encoding: .utf8)
        for line in section.split(separator: "\n").dropFirst(2) where line.hasPrefix("  ") {
            let syntax = line.dropFirst(2).components(separatedBy: "  ").first ?? ""
            #expect(readme.contains("`\(syntax.trimmingCharacters(in: .whitespaces))`"), "the README does not list `\(syntax)`")
        }
    }

    @Test("a script naming no step fails before any step runs: exit 1, the line named")
    func misspeltStep() async throws {
        let folder = TestPaths.scratchFolder("studio-misspelt")
        let run = try await StudioHarness.run(["sleep 0.1", "pres done"], arguments: ["--library", folder.appendingPathComponent("lib").path], in: folder)
        #expect(run.status == 1)
        #expect(run.events("step").isEmpty)
        #expect(run.stderr.contains("line 2: no step 'pres'"), "\(run.stderr)")
    }
}
