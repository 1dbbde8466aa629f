import Foundation
import Testing
import ViewfinderCore
import ViewfinderTestSupport

extension StudioWindowTests {
    /// The camera screen on a PipeWire camera, in a PipeWire session of the test's own.
    @Suite("Studio: the camera screen previews a PipeWire camera")
    struct PipeWireCameraScreenTests {
        @Test("a PipeWire camera is offered and previewed: its size in the event, its colour on the screen")
        func preview() async throws {
            let session = try PipeWireSession()
            defer { session.stop() }
            // A colour no part of the app's own look has.
            try session.publishCamera(
                name: "vf-studio-cam", description: "Studio Test Camera",
                source: "videotestsrc is-live=true pattern=solid-color foreground-color=0xff2050c0 ! video/x-raw,format=YUY2,width=320,height=240,framerate=15/1")
            let folder = TestPaths.scratchFolder("studio-pipewire")
            let shot = folder.appendingPathComponent("camera.png")
            let run = try await StudioHarness.run(["wait camera-preview", "screenshot \(shot.path) preview"],
                                                  arguments: ["--library", folder.appendingPathComponent("lib").path, "--camera"],
                                                  in: folder, environment: session.environmentArguments)
            #expect(run.status == 0, "stderr: \(run.stderr.suffix(1500))")
            let preview = try run.event("camera-preview")
            #expect(preview["device"] as? String == "pipewire:vf-studio-cam")
            #expect(preview["width"] as? Int == 320 && preview["height"] as? Int == 240)
            let screen = try StudioHarness.pixels(of: shot)
            var matching = 0
            for y in 0..<screen.height {
                for x in 0..<screen.width {
                    let p = screen[x, y]
                    let r = Int(p[p.startIndex]), g = Int(p[p.startIndex + 1]), b = Int(p[p.startIndex + 2])
                    if abs(r - 32) <= 8 && abs(g - 80) <= 8 && abs(b - 192) <= 8 { matching += 1 }
                }
            }
            // The preview part, drawn alone, is the camera's colour over at least the camera's
            // own 320×240 pixels' worth (the whole window, shot as the page appears, showed it
            // blended lighter).
            #expect(matching >= 320 * 240, "\(matching) pixels of the camera's colour in a \(screen.width)×\(screen.height) screenshot")
        }
    }
}
