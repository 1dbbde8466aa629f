import Foundation
import Testing
import ViewfinderTestSupport

extension StudioWindowTests {
    /// Under load xvfb-run once could not remove its temporary folder and exited 5, which the
    /// harness read as the app's status. Here its clean-up is made to fail (an `rm` that refuses
    /// its folder, first on PATH): the app's own status must still come through.
    @Test("the harness reports the app's exit status, not xvfb-run's when its clean-up fails")
    func statusIsTheApps() async throws {
        let folder = TestPaths.scratchFolder("studio-harness-status")
        let bin = folder.appendingPathComponent("bin"), temporary = folder.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        let refusing = bin.appendingPathComponent("rm")
        try """
            #!/bin/sh
            case "$*" in *xvfb-run.*) echo "rm: refused by the test" >&2; exit 1;; esac
            exec /bin/rm "$@"

            """.write(to: refusing, atomically: true, encoding: .utf8)
        chmod(refusing.path, 0o755)
        let path = bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let run = try await StudioHarness.run(["quit"], arguments: ["--library", folder.appendingPathComponent("lib").path], in: folder,
                                              timeout: 60, environment: ["PATH=\(path)", "TMPDIR=\(temporary.path)"])
        // xvfb-run exits before it stops its Xvfb when the clean-up fails: that one is ended here.
        let processes = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        for entry in processes {
            guard let id = pid_t(entry), let line = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline") else { continue }
            let words = String(decoding: line, as: UTF8.self)
            if words.hasPrefix("Xvfb"), words.contains(temporary.path) { kill(id, SIGTERM) }
        }
        #expect(run.stderr.contains("problem while cleaning up temporary directory"), "xvfb-run's clean-up did not fail: \(run.stderr)")
        #expect(run.status == 0, "stderr: \(run.stderr)")
    }

    /// `sleep 1e308` was converted to milliseconds with `Int(…)` unchecked: a trap (exit 132).
    @Test("a script's sleep or wait beyond an hour is a one-line script error, not a crash", arguments: [
        "sleep 1e308", "sleep -1", "wait library 1e308",
    ])
    func scriptSecondsOutOfRange(line: String) async throws {
        let folder = TestPaths.scratchFolder("studio-script-range")
        let run = try await StudioHarness.run([line, "quit"], arguments: ["--library", folder.appendingPathComponent("lib").path],
                                              in: folder, timeout: 60)
        #expect(run.status == 1, "stderr: \(run.stderr)")
        let words = line.split(separator: " ").map(String.init)
        let expected = "viewfinder-studio: script: line 1 (\(words[0])): '\(words[words.count - 1])' is out of range (0…3600 seconds)"
        #expect(run.stderr.contains(expected), "stderr: \(run.stderr)")
    }

    /// `activate 1e300` and the like were converted with `Int(…)` unchecked: a trap (SIGILL).
    @Test("a script's index or size beyond its range is a one-line script error, not a crash", arguments: [
        "activate 1e300", "info 99999999999999999999", "window-size 1e300 100", "activate 2.5", "activate -1",
    ])
    func scriptIntegersOutOfRange(line: String) async throws {
        let folder = TestPaths.scratchFolder("studio-script-integers")
        let run = try await StudioHarness.run([line, "quit"], arguments: ["--library", folder.appendingPathComponent("lib").path],
                                              in: folder, timeout: 60)
        #expect(run.status == 1, "stderr: \(run.stderr)")
        let words = line.split(separator: " ").map(String.init)
        #expect(run.stderr.contains("viewfinder-studio: script: line 1 (\(words[0])): '\(words[1])' is not a whole number from"),
                "stderr: \(run.stderr)")
    }

    /// Foundation's own text was shown: "Error Domain=NSCocoaErrorDomain Code=259 …".
    @Test("a script that is not UTF-8 text, or cannot be read, is named in one plain line")
    func unreadableScript() async throws {
        try #require(StudioHarness.available, "\(StudioHarness.unavailableReason)")
        let folder = TestPaths.scratchFolder("studio-script-unreadable")
        let latin1 = folder.appendingPathComponent("latin1.txt")
        try Data([0x71, 0x75, 0x69, 0x74, 0x20, 0xE9, 0xFF, 0x0A]).write(to: latin1)
        for (script, expected) in [(latin1.path, "latin1.txt is not UTF-8 text"), (folder.path, "it is missing, unreadable or a folder")] {
            let run = try await StudioHarness.offThePool {
                try Subprocess.run(URL(fileURLWithPath: "/usr/bin/env"), [
                    "GSK_RENDERER=cairo", "GDK_BACKEND=x11", "NO_AT_BRIDGE=1", "xvfb-run", "-a", TestPaths.studio.path,
                    "--library", folder.appendingPathComponent("lib").path, "--script", script], timeout: 60)
            }
            #expect(run.status == 1, "\(run.stderr)")
            #expect(run.stderr.contains("viewfinder-studio: script: ") && run.stderr.contains(expected), "\(run.stderr)")
            #expect(!run.stderr.contains("NSCocoaErrorDomain"), "\(run.stderr)")
        }
    }
}
