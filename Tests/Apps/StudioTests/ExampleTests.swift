import Foundation
import Testing
import ViewfinderTestSupport

extension StudioWindowTests {
    /// Examples/PickerExample, the program that embeds MediaPicker and the HUD, run as built and
    /// driven by keys on its own virtual display.
    @Suite("Examples: the picker example")
    struct ExampleTests {
        @Test("Space, →, Space, Enter picks the first two items (newest first); the example prints their ids in that order and ends")
        func picksTwo() async throws {
            try #require(StudioHarness.available, "\(StudioHarness.unavailableReason)")
            try #require(StudioHarness.hasXdotool, "\(StudioHarness.noXdotoolReason)")
            let folder = TestPaths.scratchFolder("example-picker")
            let library = try await PickTests.library(in: folder)
            let example = TestPaths.executable(named: "picker-example")
            // The example and xdotool share one display: xvfb-run runs both through a shell.
            let keys = "xdotool mousemove 500 12 sleep 0.3 key space sleep 0.3 key Right sleep 0.3 key space sleep 0.3 key Return"
            // After the pick the example flashes its HUD and quits by itself: wait for that (a
            // kill could lose what it printed, which stdout buffers on a pipe).
            let script = "'\(example.path)' '\(library.folder.path)' & pid=$!; sleep 3; \(keys); wait $pid"
            let run = try await StudioHarness.offThePool {
                try Subprocess.run("env", ["GSK_RENDERER=cairo", "GDK_BACKEND=x11", "NO_AT_BRIDGE=1", "GTK_A11Y=none",
                                           "xvfb-run", "-a", "-s", "-screen 0 1280x1024x24", "sh", "-c", script], timeout: 60)
            }
            let ids = run.stdout.split(separator: "\n").compactMap { $0.split(separator: " ").first.flatMap { Int64($0) } }
            // Newest first is the reverse of the oldest-first list.
            #expect(ids == [library.ids[2], library.ids[1]], "stdout: \(run.stdout) stderr: \(run.stderr.suffix(500))")
            #expect(run.status == 0, "the example ends by itself once its HUD has gone")
        }
    }
}
