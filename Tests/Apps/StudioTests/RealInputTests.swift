import AvatarCrop
import Foundation
import Testing
import ViewfinderCore
import ViewfinderTestSupport

extension StudioWindowTests {
    /// Real pointer input: X events sent with xdotool travel through GTK's own gesture
    /// controllers and signal handlers into the screen, rather than the script calling them.
    @Suite("Studio: real pointer input (xdotool)")
    struct RealInputTests {
        @Test("a mouse drag and three wheel notches on the avatar editor give CropSession's crop for the same gestures")
        func dragAndWheel() async throws {
            let folder = TestPaths.scratchFolder("studio-xdotool")
            let photo = try StudioHarness.copy(media: "images/exif_orient6_samsung_galaxyS.jpg", to: folder, as: "face.jpg")
            let ready = folder.appendingPathComponent("ready.json"), go = folder.appendingPathComponent("go")
            let run = try await StudioHarness.runInteractive([
                "wait avatar-ready",
                "sleep 0.3",
                "signal \(ready.path) editor",
                "wait-file \(go.path)",
                "sleep 0.3",
                "press done",
                "wait avatar-saved",
            ], arguments: ["--library", folder.appendingPathComponent("lib").path, "--avatar", photo.path],
               in: folder, readyFile: ready) { signal in
                let frame = try #require(signal["frame"] as? [Double])
                // Press at the editor's middle, drag by (60, -40) in small steps, then three
                // wheel notches up (zoom in) with the pointer where the drag ended.
                let (x0, y0) = (Int(frame[0] + frame[2] / 2), Int(frame[1] + frame[3] / 2))
                let wheel = ["click", "4", "sleep", "0.1"]
                try StudioHarness.xdotool(signal, StudioHarness.drag(from: (x0, y0), to: (x0 + 60, y0 - 40), steps: 12)
                                          + ["sleep", "0.2"] + wheel + wheel + wheel + ["sleep", "0.1"])
                try Data().write(to: go)
                return frame
            }
            #expect(run.status == 0, "stderr: \(run.stderr)")
            let frame = run.interaction

            // The pointer ended at the editor's middle + (60, -40), give or take the half point
            // of an odd-sized editor; the crop's viewport is the whole editor.
            let end = Point(x: (frame[2] / 2).rounded(.down) + 60, y: (frame[3] / 2).rounded(.down) - 40)
            let viewport = try AvatarScreenTests.viewport(run.run)
            #expect(viewport == Size(width: frame[2], height: frame[3]))
            let (initial, expected, _) = try await AvatarScreenTests.model(photo, viewport: viewport, pan: Point(x: 60, y: -40),
                                                                           zoom: pow(1.1, 3), at: end)
            let saved = try run.event("avatar-saved")
            let spec = try CropSpec.parse(Data(try #require(saved["spec"] as? String).utf8))
            #expect(spec.rect != initial.rect, "the real drag did not move the crop")
            #expect(abs(spec.rect.minX - expected.rect.minX) < 0.01, "x \(spec.rect.minX) vs \(expected.rect.minX)")
            #expect(abs(spec.rect.minY - expected.rect.minY) < 0.01, "y \(spec.rect.minY) vs \(expected.rect.minY)")
            #expect(abs(spec.rect.width - expected.rect.width) < 0.01, "side \(spec.rect.width) vs \(expected.rect.width)")
        }
    
        @Test("a mouse drag along the cover strip moves the thumb; the preview ends on the exact frame there")
        func stripDrag() async throws {
            let folder = TestPaths.scratchFolder("studio-xdotool-cover")
            let video = try await CoverScreenTests.clip(in: folder)
            let ready = folder.appendingPathComponent("ready.json"), go = folder.appendingPathComponent("go")
            let run = try await StudioHarness.runInteractive([
                "wait cover-ready",
                "sleep 0.3",
                "signal \(ready.path) strip",
                "wait-file \(go.path)",
                "wait-exact",
            ], arguments: ["--library", folder.appendingPathComponent("lib").path, "--cover", video.path],
               in: folder, readyFile: ready) { signal in
                let frame = try #require(signal["frame"] as? [Double])
                // From the thumb's centre at the start to where the middle of the track is.
                let thumb = frame[2] / 6
                let y = Int(frame[1] + frame[3] / 2)
                let from = frame[0] + thumb / 2, to = from + 0.5 * (frame[2] - thumb)
                try StudioHarness.xdotool(signal, StudioHarness.drag(from: (Int(from), y), to: (Int(to), y), steps: 10))
                try Data().write(to: go)
                return frame
            }
            #expect(run.status == 0, "stderr: \(run.stderr)")
            let previews = run.run.events("cover-preview")
            // Several moves arrived through GTK's drag gesture, and the last one is exact.
            #expect(Set(previews.compactMap { $0["slider"] as? Double }).count >= 3)
            let last = try #require(previews.last)
            let slider = try #require(last["slider"] as? Double)
            #expect(abs(slider - 0.5) < 0.01, "the thumb ended at \(slider)")
            #expect(last["exact"] as? Bool == true)
            // 6 s at 30 fps: the frame shown at the requested time.
            let requested = try #require(last["requested"] as? Double)
            #expect(last["time"] as? Double == (requested * 30).rounded(.down) / 30)
        }
    
        @Test("a click on a suggestion's mark above the cover strip jumps to its exact frame; Done saves it")
        func suggestionMark() async throws {
            let folder = TestPaths.scratchFolder("studio-xdotool-suggest")
            let clip = try await StudioHarness.offThePool { try SuggestionClip.make(in: folder) }
            let ready = folder.appendingPathComponent("ready.json"), go = folder.appendingPathComponent("go")
            let shot = folder.appendingPathComponent("strip.png")
            let run = try await StudioHarness.runInteractive([
                "wait cover-ready",
                "wait cover-suggestions",
                "sleep 0.3",
                "screenshot \(shot.path) strip",
                "signal \(ready.path) strip",
                "wait-file \(go.path)",
                "wait-exact",
                "press done",
                "wait cover-saved",
            ], arguments: ["--library", folder.appendingPathComponent("lib").path, "--cover", clip.path],
               in: folder, readyFile: ready) { signal in
                let frame = try #require(signal["frame"] as? [Double])
                let marks = try #require(signal["marks"] as? [Double])
                let mark = try #require(marks.count == 3 ? marks.last : nil, "the last (third) suggestion's mark, of \(marks)")
                let (x, y) = (Int((frame[0] + mark).rounded()), Int(frame[1] + frame[3] / 2))
                try StudioHarness.xdotool(signal, ["mousemove", "\(x)", "\(y)", "sleep", "0.1", "click", "1", "sleep", "0.2"])
                try Data().write(to: go)
                return frame
            }
            #expect(run.status == 0, "stderr: \(run.stderr)")
            let suggested = try #require(try run.run.event("cover-suggestions")["times"] as? [Double])
            #expect(suggested.count == 3)
            let last = try #require(run.run.events("cover-preview").last)
            #expect(last["exact"] as? Bool == true && last["time"] as? Double == suggested[2])
            #expect(try run.run.event("cover-saved")["time"] as? Double == suggested[2])
        }

        @Test("keyboard shortcuts: Ctrl+Shift+D turns the theme dark, Escape goes back to the library")
        func shortcuts() async throws {
            let folder = TestPaths.scratchFolder("studio-xdotool-keys")
            let video = try await CoverScreenTests.clip(in: folder, seconds: 2)
            let ready = folder.appendingPathComponent("ready.json"), go = folder.appendingPathComponent("go")
            let dark = folder.appendingPathComponent("dark.png")
            let run = try await StudioHarness.runInteractive([
                "wait cover-ready",
                "signal \(ready.path) preview",
                "wait-file \(go.path)",
                "wait theme",
                "sleep 0.3",
                "screenshot \(dark.path)",
            ], arguments: ["--library", folder.appendingPathComponent("lib").path, "--cover", video.path, "--light"],
               in: folder, readyFile: ready) { signal in
                let frame = try #require(signal["frame"] as? [Double])
                // Keys go to the window under the pointer (there is no window manager).
                try StudioHarness.xdotool(signal, ["mousemove", "\(Int(frame[0] + 20))", "\(Int(frame[1] + 20))", "sleep", "0.2",
                                                   "key", "ctrl+shift+d", "sleep", "0.2", "key", "Escape", "sleep", "0.3"])
                try Data().write(to: go)
            }
            #expect(run.status == 0, "stderr: \(run.stderr)")
            #expect(try run.event("theme")["dark"] as? Bool == true)
            #expect(run.run.events("screen").compactMap { $0["name"] as? String } == ["Library", "Set cover", "Library"])
            // The dark theme: the library's sidebar and grid are dark now.
            let image = try StudioHarness.pixels(of: dark)
            let sidebar = image.meanColour(Rect(x: 20, y: Double(image.height) - 120, width: 120, height: 40))
            #expect(sidebar.r < 90 && sidebar.g < 90 && sidebar.b < 90, "not dark: \(sidebar)")
        }
    }
}
