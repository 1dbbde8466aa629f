// The progress HUD's model drawn in a terminal: an annular HUD with the README's style, as its
// work goes from a quarter to done. Run: swift run hud-example
import Foundation
import HUD
import ViewfinderCore

let hud = ProgressHUD(mode: .annularDeterminate, label: "Exporting")
hud.background = HUDBackground(style: .blur(.dark), view: .solidColor(.hudDimming))
hud.contentColor = RGBA(hex: "#ff8000")
hud.detailsFont = HUDFont(family: "Monospace", size: 10)
hud.show()

let terminal = HUDTerminalRenderer(hud: hud, isTerminal: true)
for step in 1...4 {
    hud.progress = Double(step) / 4
    if let line = terminal.frame(at: hud.clock.now + Double(step)) { print(line) }
}
print("\(hud.label): \(Int(hud.progress * 100)) %")
