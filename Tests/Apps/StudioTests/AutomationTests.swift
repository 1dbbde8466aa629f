import Foundation
import Testing
import ViewfinderTestSupport

extension StudioWindowTests {
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
