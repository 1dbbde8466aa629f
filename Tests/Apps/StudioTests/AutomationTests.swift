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
}
