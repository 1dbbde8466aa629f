import Foundation
import Testing
import ViewfinderCore
import ViewfinderTestSupport

extension StudioWindowTests {
    /// GNOME's conventions (libadwaita 1.2): one Back, in the header bar; a primary menu with
    /// Keyboard Shortcuts and About; a status page for an empty library; a folder's grid titled
    /// with the folder's name.
    @Suite("Studio: GNOME conventions")
    struct GnomeConventionsTests {
        @Test("an empty library shows a status page instead of the grid; the shortcuts window shows every shortcut --help lists; About opens; a folder pick is titled with the folder's name")
        func chrome() async throws {
            let folder = TestPaths.scratchFolder("gnome-chrome")
            let empty = folder.appendingPathComponent("empty.json")
            let run = try await StudioHarness.run([
                "wait library", "sleep 0.2", "controls \(empty.path) empty grid",
                "action shortcuts", "action about", "quit",
            ], arguments: ["--library", folder.appendingPathComponent("lib").path], in: folder)
            #expect(run.status == 0, "\(run.stderr.suffix(800))")
            let layout = try NarrowWindowTests.layout(empty)
            #expect(layout.frames["empty"] != nil && layout.frames["empty"]! != nil, "\(layout.frames)")
            #expect(layout.frames["grid"] == .some(nil), "the grid still shows: \(layout.frames)")
            // The window shows what --help's keys: paragraph lists, entry for entry.
            let help = try Subprocess.run(TestPaths.studio, ["--help"]).stdout
            let keys = try #require(help.components(separatedBy: "keys:\n").last)
            let listed = keys.split(separator: "\n").filter { $0.hasPrefix("  ") }
                .map { $0.split(separator: ":", maxSplits: 1).last?.split(separator: ",").count ?? 0 }.reduce(0, +)
            #expect(listed >= 15)
            #expect(try run.event("shortcuts")["shown"] as? Int == listed)
            #expect(run.events("about").count == 1)

            let shots = folder.appendingPathComponent("shots")
            _ = try await StudioHarness.offThePool { try FixtureFactory.shotFolder(shots, count: 2, brokenAfter: 1) }
            let pick = try await StudioHarness.pick(["wait probed", "back", "wait pick-ended"],
                                                    arguments: ["pick", "media", "--folder", shots.path], in: folder)
            #expect(pick.status == 3)
            #expect(pick.events("screen").first?["name"] as? String == "shots")
        }

        @Test("one Back: the screen's own Back is hidden and the header's shows; the header's Back on a pick's first screen cancels it")
        func oneBack() async throws {
            let folder = TestPaths.scratchFolder("gnome-back")
            let video = try await CoverScreenTests.clip(in: folder, seconds: 2, size: "320x180")
            let controls = folder.appendingPathComponent("controls.json")
            let run = try await StudioHarness.run([
                "wait cover-ready", "controls \(controls.path) back screen-back done", "quit",
            ], arguments: ["--cover", video.path, "--library", folder.appendingPathComponent("lib").path], in: folder)
            #expect(run.status == 0, "\(run.stderr.suffix(800))")
            let layout = try NarrowWindowTests.layout(controls)
            let back = try #require(layout.frames["back"] ?? nil, "no header Back: \(layout.frames)")
            #expect(back.minY < 50, "Back is not in the header bar: \(back)")
            #expect(layout.frames["screen-back"] == .some(nil), "the screen's own Back still shows")
            #expect(layout.frames["done"] != nil)

            let pick = try await StudioHarness.runInteractive([
                "wait cover-ready", "signal \(folder.path)/ready.json back", "wait pick-ended",
            ], arguments: ["pick", "cover", video.path, "--library", folder.appendingPathComponent("lib").path], in: folder,
               readyFile: folder.appendingPathComponent("ready.json"), pick: true) { signal in
                let frame = try #require(signal["frame"] as? [Double], "\(signal)")
                try StudioHarness.xdotool(signal, ["mousemove", "\(Int(frame[0] + frame[2] / 2))", "\(Int(frame[1] + frame[3] / 2))", "sleep", "0.2"])
                // The click ends the pick, and the display with it, while xdotool may still be
                // connected: the exit status below says whether it worked.
                try? StudioHarness.xdotool(signal, ["click", "1"])
            }
            #expect(pick.status == 3, "\(pick.stderr.suffix(800))")
            #expect(pick.stdout.isEmpty)
        }
    }
}
