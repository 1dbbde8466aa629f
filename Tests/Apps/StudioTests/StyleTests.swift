import Foundation
import Testing
import ViewfinderTestSupport

extension StudioWindowTests {
    /// libadwaita's style manager: the app follows the desktop's light or dark preference
    /// (`ADW_DEBUG_COLOR_SCHEME` stands in for the desktop's setting), its own toggle still
    /// wins, and short confirmations are toasts.
    @Suite("Studio: GNOME style (libadwaita)")
    struct StyleTests {
        @Test("a desktop that prefers dark starts the app dark; the toggle turns it light with a toast", arguments: [
            ("prefer-dark", true), ("prefer-light", false),
        ])
        func followsDesktop(_ scheme: String, _ dark: Bool) async throws {
            let folder = TestPaths.scratchFolder("studio-style-\(scheme)")
            let run = try await StudioHarness.run(["wait library", "toggle-theme", "wait toast"],
                                                  arguments: ["--library", folder.appendingPathComponent("lib").path], in: folder,
                                                  environment: ["ADW_DEBUG_COLOR_SCHEME=\(scheme)"])
            #expect(run.status == 0, "stderr: \(run.stderr)")
            #expect(try run.event("started")["dark"] as? Bool == dark)
            #expect(try run.event("theme")["dark"] as? Bool == !dark)
            #expect(try run.event("toast")["title"] as? String == (dark ? "Light style" : "Dark style"))
        }

        @Test("--light wins over a desktop that prefers dark")
        func flagWins() async throws {
            let folder = TestPaths.scratchFolder("studio-style-flag")
            let run = try await StudioHarness.run(["wait library"], arguments: ["--light", "--library", folder.appendingPathComponent("lib").path],
                                                  in: folder, environment: ["ADW_DEBUG_COLOR_SCHEME=prefer-dark"])
            #expect(run.status == 0, "stderr: \(run.stderr)")
            #expect(try run.event("started")["dark"] as? Bool == false)
        }
    }
}
