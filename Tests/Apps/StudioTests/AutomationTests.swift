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
}
