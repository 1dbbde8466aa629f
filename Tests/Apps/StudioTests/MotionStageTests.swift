import Foundation
import Testing
import ViewfinderCore
import ViewfinderTestSupport

extension StudioWindowTests {
    /// Motion in the app: `--motion SCENE` plays a scene on a stage of GTK widgets, each layer
    /// placed by the renderer's own mapping, turned in 3D by GTK's GL renderer.
    @Suite("Studio: Motion on widgets, 3D in GTK")
    struct MotionStageTests {
        static let card = ##"""
        {"size": [320, 240], "background": "#000000", "layers": [{"name": "card", "position": [160, 120],
          "bounds": [0, 0, 120, 80], "backgroundColor": "#ff0000", "rotation": [0.3, 0.8, 0.1], "perspective": 300}]}
        """##

        /// The stage at `time`, drawn by GTK's `renderer`: the `motion` event and the picture's RGB bytes.
        static func stage(_ json: String, at time: Double, renderer: String,
                          in folder: URL) async throws -> (event: [String: Any], rgb: [UInt8]) {
            let scene = folder.appendingPathComponent("scene.json")
            try json.write(to: scene, atomically: true, encoding: .utf8)
            let shot = folder.appendingPathComponent("stage.png")
            let run = try await StudioHarness.run(["motion-at \(time)", "screenshot \(shot.path) stage"],
                                                  arguments: ["--library", folder.appendingPathComponent("lib").path, "--motion", scene.path],
                                                  in: folder, environment: ["GSK_RENDERER=\(renderer)"])
            #expect(run.status == 0, "stderr: \(run.stderr)")
            let screenshot = try run.event("screenshot")
            #expect(screenshot["width"] as? Int == 320 && screenshot["height"] as? Int == 240, "\(screenshot)")
            let raw = try Subprocess.run("ffmpeg", ["-v", "error", "-i", shot.path, "-f", "rawvideo", "-pix_fmt", "rgb24", "-"])
            return (try run.event("motion"), [UInt8](raw.stdoutData))
        }

        /// The card drawn by GTK's `renderer` covers exactly the quad the matrices give for
        /// the viewer at `distance` (infinity: the orthographic view).
        static func expectCard(renderer: String, drawsPerspective: Bool, distance: Double) async throws {
            let (event, pixels) = try await stage(card, at: 0, renderer: renderer, in: TestPaths.scratchFolder("studio-motion-\(renderer)"))
            #expect(event["perspective"] as? Bool == drawsPerspective)
            try #require(pixels.count == 320 * 240 * 3)
            let corners = [(0.0, 0.0), (120.0, 0.0), (120.0, 80.0), (0.0, 80.0)].map {
                PerspectiveOracle.project($0.0, $0.1, rotation: (0.3, 0.8, 0.1), perspective: distance, anchor: (60, 40), position: (160, 120))
            }
            let (wrong, inside) = PerspectiveOracle.mismatches(rgb: pixels, width: 320, height: 240, quad: corners, fill: (255, 0, 0))
            #expect(inside > 3000)
            #expect(wrong.isEmpty, "\(wrong.count) pixels off, e.g. \(wrong.prefix(6))")
        }

        @Test("GL: a card turned about x, y and z in perspective lands on the corners the 4×4 matrices give")
        func perspectiveInGL() async throws {
            try await Self.expectCard(renderer: "gl", drawsPerspective: true, distance: 300)
        }

        @Test("Cairo, which cannot draw 3D: the same card flattened to the orthographic view, no pink box")
        func orthographicInCairo() async throws {
            try await Self.expectCard(renderer: "cairo", drawsPerspective: false, distance: .infinity)
        }

        @Test("an animated scene with a sublayer perspective, a shadow and a border: the app's frame at 0.5 s is the renderer's PNG")
        func matchesRenderer() async throws {
            let json = ##"""
            {"size": [320, 240], "background": "#102030", "layers": [
              {"name": "stage", "position": [160, 120], "bounds": [0, 0, 240, 180], "backgroundColor": "#334455",
               "sublayerPerspective": 400, "sublayers": [
                {"name": "card", "position": [120, 90], "bounds": [0, 0, 100, 70], "backgroundColor": "#ffcc00",
                 "borderWidth": 4, "borderColor": "#0000ff", "cornerRadius": 8, "shadowOpacity": 0.8, "shadowRadius": 4, "shadowOffset": [6, 8],
                 "sprites": [{"kind": "rotate", "axis": "y", "to": 1.0, "duration": 1},
                             {"kind": "move", "to": [150, 100], "duration": 1}]},
                {"name": "dot", "position": [40, 40], "bounds": [0, 0, 30, 30], "backgroundColor": "#ff00ff",
                 "sprites": [{"kind": "fade", "from": 1, "to": 0, "duration": 1}]}]}]}
            """##
            let folder = TestPaths.scratchFolder("studio-motion-renderer")
            let (event, pixels) = try await Self.stage(json, at: 0.5, renderer: "gl", in: folder)
            #expect(event["perspective"] as? Bool == true)
            let png = folder.appendingPathComponent("cli.png")
            let cli = try Subprocess.run(TestPaths.tool.path, ["animate", folder.appendingPathComponent("scene.json").path,
                                                                     "--at", "0.5", "-o", png.path])
            #expect(cli.status == 0, "\(cli.stderr)")
            let reference = [UInt8](try Subprocess.run("ffmpeg", ["-v", "error", "-i", png.path, "-f", "rawvideo", "-pix_fmt", "rgb24", "-"]).stdoutData)
            try #require(pixels.count == reference.count && pixels.count == 320 * 240 * 3)
            // Edges are antialiased by two different rasterizers: count the pixels that differ
            // by more than a rounding; they lie along edges only.
            let differing = stride(from: 0, to: pixels.count, by: 3).filter { i in
                (0..<3).contains { abs(Int(pixels[i + $0]) - Int(reference[i + $0])) > 24 }
            }.count
            #expect(differing < 320 * 240 / 50, "\(differing) of \(320 * 240) pixels differ")
            // And the animation is really at 0.5 s: the dot is half faded over the stage colour.
            let dot = (55 * 320 + 75) * 3
            #expect(abs(Int(pixels[dot]) - (0x33 + 0xff) / 2) <= 6 && abs(Int(pixels[dot + 2]) - (0x55 + 0xff) / 2) <= 6,
                    "dot \(pixels[dot]),\(pixels[dot + 1]),\(pixels[dot + 2])")
        }

        @Test("any widget on a layer: a button turned in perspective takes a click where it is drawn, not where it would be flat")
        func buttonOnLayer() async throws {
            let folder = TestPaths.scratchFolder("studio-motion-button")
            let scene = folder.appendingPathComponent("scene.json")
            try ##"""
            {"size": [320, 240], "background": "#000000", "layers": [{"name": "card", "position": [160, 120],
              "bounds": [0, 0, 160, 80], "rotation": [0, 1.0, 0], "perspective": 250}]}
            """##.write(to: scene, atomically: true, encoding: .utf8)
            let ready = folder.appendingPathComponent("ready.json"), go = folder.appendingPathComponent("go")
            func at(_ x: Double, _ y: Double) -> Point {
                PerspectiveOracle.project(x, y, rotation: (0, 1.0, 0), perspective: 250, anchor: (80, 40), position: (160, 120))
            }
            // Bounds point (5, 40): by the edge that turned towards the viewer, which perspective
            // draws further out than the flat (orthographic) view's edge at x = 160 − 80·cos 1:
            // a click there hits only a button really drawn in perspective.
            let near = at(5, 40)
            let flatEdge = 160 - 80 * cos(1.0)
            #expect(flatEdge - near.x > 4, "\(near) vs the flat edge at \(flatEdge)")
            // Just beyond the projected edge: outside the button.
            let outside = at(-6, 40)
            let run = try await StudioHarness.runInteractive([
                "motion-button card", "motion-at 0", "sleep 0.3",
                "signal \(ready.path) stage", "wait-file \(go.path)", "sleep 0.3",
            ], arguments: ["--library", folder.appendingPathComponent("lib").path, "--motion", scene.path],
               in: folder, readyFile: ready, environment: ["GSK_RENDERER=gl"]) { signal in
                let frame = try #require(signal["frame"] as? [Double])
                func click(_ p: Point) -> [String] {
                    ["mousemove", "\(Int((frame[0] + p.x).rounded()))", "\(Int((frame[1] + p.y).rounded()))", "sleep", "0.2", "click", "1", "sleep", "0.3"]
                }
                try StudioHarness.xdotool(signal, click(outside) + click(near))
                try Data().write(to: go)
                return frame
            }
            #expect(run.status == 0, "stderr: \(run.run.stderr)")
            #expect(try run.event("motion")["perspective"] as? Bool == true)
            let clicks = run.run.events("motion-clicked")
            #expect(clicks.count == 1 && clicks.first?["layer"] as? String == "card", "\(clicks)")
        }

        @Test("a scene that is not a scene: the HUD's cross and an error event naming the key")
        func badScene() async throws {
            let folder = TestPaths.scratchFolder("studio-motion-bad")
            let scene = folder.appendingPathComponent("bad.json")
            try #"{"size": [320, 240], "layers": [{"nmae": "x"}]}"#.write(to: scene, atomically: true, encoding: .utf8)
            let run = try await StudioHarness.run(["wait error"], arguments: ["--library", folder.appendingPathComponent("lib").path,
                                                                              "--motion", scene.path], in: folder)
            let error = try run.event("error")
            #expect(error["what"] as? String == "Cannot play the scene")
            #expect((error["message"] as? String ?? "").contains("layers[0].nmae"), "\(error)")
        }
    }
}
