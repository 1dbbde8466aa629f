import Foundation
import Testing
import ViewfinderCore

@testable import HUD

@Suite("Terminal HUD sink")
@MainActor
struct HUDTerminalSinkTests {
    @Test("refresh ticks the HUD and writes what the renderer gives; finish writes the last line")
    func writes() {
        let clock = VirtualClock()
        let hud = ProgressHUD(clock: clock, label: "Copying")
        let work = Progress(totalUnitCount: 4)
        hud.follow(work, cancelTitle: nil)
        let renderer = HUDTerminalRenderer(hud: hud, isTerminal: true, environment: ["NO_COLOR": "1"], barWidth: 4)
        var output: [String] = []
        let sink = HUDTerminalSink(renderer: renderer) { output.append($0) }
        sink.refresh()
        work.completedUnitCount = 2
        clock.advance(by: 0.01)
        sink.refresh()
        clock.advance(by: 0.99)
        sink.refresh()
        sink.finish(.done)
        #expect(output == [
            "\r○ Copying [░░░░]   0%\u{1B}[K",
            "\r◑ Copying [██░░]  50% 2.0 items/s ETA 0:01\u{1B}[K",
            "\r✔ Copying: done in 1.0 s\u{1B}[K\n",
        ])
        #expect(hud.progress == 0.5)
    }

    @Test("the file-handle sink writes the same bytes to the handle")
    func fileHandle() throws {
        let hud = ProgressHUD(clock: VirtualClock(), mode: .text, label: "Done")
        let renderer = HUDTerminalRenderer(hud: hud, isTerminal: false, environment: [:])
        let pipe = Pipe()
        let sink = HUDTerminalSink(renderer: renderer, handle: pipe.fileHandleForWriting)
        sink.refresh()
        sink.finish(.cancelled)
        try pipe.fileHandleForWriting.close()
        let bytes = pipe.fileHandleForReading.readDataToEndOfFile()
        #expect(String(decoding: bytes, as: UTF8.self) == "Done: cancelled after 0.0 s\n")
    }
}
