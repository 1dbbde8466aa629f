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
}
