import Foundation

/// The thin part that does touch the outside world: ticks the HUD, asks the renderer for what
/// is due and writes it (to stderr by default). A tool calls `refresh()` from its progress loop
/// and `finish(_:)` once at the end.
@MainActor
public final class HUDTerminalSink {
    /// What decides the bytes.
    public let renderer: HUDTerminalRenderer
    private let write: (String) -> Void

    /// A sink that hands each piece of output to `write`.
    public init(renderer: HUDTerminalRenderer, write: @escaping (String) -> Void) {
        self.renderer = renderer
        self.write = write
    }

    /// A sink that writes to `handle`, standard error by default.
    public convenience init(renderer: HUDTerminalRenderer, handle: FileHandle = .standardError) {
        self.init(renderer: renderer) { text in
            handle.write(Data(text.utf8))
        }
    }

    /// Ticks the HUD and writes the frame due now, if any.
    public func refresh() {
        renderer.hud.tick()
        if let text = renderer.frame(at: renderer.hud.clock.now) { write(text) }
    }

    /// Writes the final line for `outcome`, once.
    public func finish(_ outcome: HUDTerminalRenderer.Outcome) {
        renderer.hud.tick()
        if let text = renderer.finish(outcome, at: renderer.hud.clock.now) { write(text) }
    }
}
