import Foundation
import Testing
import ViewfinderCore
import ViewfinderTestSupport

extension StudioWindowTests {
    @Suite("Studio: the HUD overlay")
    struct HUDOverlayTests {
        static let modes = ["indeterminate", "determinate", "annular", "bar", "checkmark", "text"]

        @Test("all six modes draw a box of their own; solid, blur and dim backgrounds; the button is clickable")
        func modesAndBackgrounds() async throws {
            let folder = TestPaths.scratchFolder("studio-hud")
            func shot(_ name: String) -> URL { folder.appendingPathComponent("\(name).png") }
            var script = ["wait library", "screenshot \(shot("plain").path)"]
            for mode in Self.modes {
                script += ["hud \(mode) fade blur", "wait-hud visible", "screenshot \(shot(mode).path) hud"]
            }
            script += [
                "hud-hide", "wait-hud hidden",
                "hud text fade dim", "wait-hud visible", "screenshot \(shot("dim").path)",
                "hud-hide", "wait-hud hidden",
                "hud bar fade solid button", "wait-hud visible", "screenshot \(shot("solid").path) hud",
                "press hud", "wait hud-button",
            ]
            let run = try await StudioHarness.run(script, arguments: ["--library", folder.appendingPathComponent("lib").path], in: folder)
            #expect(run.status == 0, "stderr: \(run.stderr)")

            var renders: [[UInt8]] = []
            for mode in Self.modes {
                let image = try StudioHarness.pixels(of: shot(mode))
                #expect(image.channels == 4)
                // The overlay alone: the box in the middle is opaque, the corners are empty.
                let middle = image[image.width / 2, image.height / 2]
                #expect(middle[middle.startIndex + 3] == 255, "\(mode): the box is not drawn")
                #expect(image[2, 2][image[2, 2].startIndex + 3] == 0)
                renders.append(image.bytes)
            }
            #expect(Set(renders).count == Self.modes.count, "two modes drew the same picture")

            // Dimming darkens the whole view, far from the box too.
            let plain = try StudioHarness.pixels(of: shot("plain"))
            let dim = try StudioHarness.pixels(of: shot("dim"))
            let away = Rect(x: Double(plain.width) - 120, y: Double(plain.height) - 80, width: 40, height: 20)
            let before = plain.meanColour(away), after = dim.meanColour(away)
            #expect(after.r < before.r - 30 && after.r > before.r * 0.6, "dimmed \(before.r) → \(after.r)")

            // The solid box is the dark grey asked for (0.2 at 90 %), with light content.
            let solid = try StudioHarness.pixels(of: shot("solid"))
            let corner = solid.meanColour(Rect(x: Double(solid.width) / 2 - 60, y: Double(solid.height) / 2 - 2, width: 6, height: 4))
            #expect(abs(corner.r - 51) < 6 && abs(corner.g - 51) < 6)
            #expect(run.events("hud-button").count == 1)
        }

        @Test("show and hide animations run on Motion, frame by frame, and agree with the HUD model",
              arguments: [("fade", 1.0, 1.0), ("zoom", 0.5, 0.5), ("zoomIn", 0.5, 1.5), ("zoomOut", 1.5, 0.5)])
        func animations(animation: String, appearFrom: Double, disappearTo: Double) async throws {
            let folder = TestPaths.scratchFolder("studio-hud-\(animation)")
            let run = try await StudioHarness.run([
                "wait library",
                "hud checkmark \(animation) blur duration=1.2", "wait-hud visible",
                "hud-hide", "wait-hud hidden",
            ], arguments: ["--library", folder.appendingPathComponent("lib").path], in: folder)
            #expect(run.status == 0, "stderr: \(run.stderr)")
            let times = run.events("hud").reduce(into: [String: Double]()) { times, event in
                if let phase = event["phase"] as? String, times[phase] == nil { times[phase] = StudioRun.time(event) }
            }
            let appearing = try #require(times["appearing"]), visible = try #require(times["visible"])
            let disappearing = try #require(times["disappearing"]), hidden = try #require(times["hidden"])
            let frames = run.events("hud-frame")
            let appear = frames.filter { StudioRun.time($0) < visible }
            let disappear = frames.filter { StudioRun.time($0) > disappearing && StudioRun.time($0) < hidden }
            // 1.2 s each way at the frame clock's pace: many frames, and still several beside a
            // CPU hog (the default 0.3 s gave two there; what is tested is each frame, not the rate).
            #expect(appear.count >= 3 && disappear.count >= 3, "\(appear.count) / \(disappear.count) frames")
            #expect(visible - appearing >= 1.18 && visible - appearing < 2.4)
            func values(_ list: [[String: Any]], _ key: String) -> [Double] { list.compactMap { $0[key] as? Double } }
            let opacityIn = values(appear, "opacity"), opacityOut = values(disappear, "opacity")
            #expect(zip(opacityIn, opacityIn.dropFirst()).allSatisfy { $0 <= $1 } && opacityIn.allSatisfy { (0...1).contains($0) })
            #expect(zip(opacityOut, opacityOut.dropFirst()).allSatisfy { $0 >= $1 })
            let scaleIn = values(appear, "scale"), scaleOut = values(disappear, "scale")
            let inRange = min(appearFrom, 1)...max(appearFrom, 1), outRange = min(disappearTo, 1)...max(disappearTo, 1)
            #expect(scaleIn.allSatisfy { inRange.contains($0) } && scaleOut.allSatisfy { outRange.contains($0) })
            if appearFrom != 1 { #expect(scaleIn.contains { $0 != 1 }) } else { #expect(scaleIn.allSatisfy { $0 == 1 }) }
            // Motion picks up from the model's state and ends with it: each frame agrees with
            // the model read a moment later (a few microseconds of a 1.2 s animation).
            for frame in appear + disappear {
                for (drawn, modelled) in [("opacity", "modelOpacity"), ("scale", "modelScale")] {
                    let motion = frame[drawn] as? Double ?? .nan, model = frame[modelled] as? Double ?? .nan
                    #expect(abs(motion - model) < 0.01, "\(drawn): Motion \(motion) vs model \(model)")
                }
            }
        }
    }
}
