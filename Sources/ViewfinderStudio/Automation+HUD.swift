import Foundation
import ViewfinderCore
import HUD

extension Automation {
    /// `hud MODE ANIMATION BACKGROUND [button]` shows the HUD as configured (progress 0.6), so
    /// every mode, animation and background can be looked at; `hud-hide` hides it.
    func showHUD(_ args: [String]) throws {
        let modes: [String: HUDMode] = [
            "indeterminate": .indeterminate, "determinate": .determinate, "annular": .annularDeterminate,
            "bar": .determinateHorizontalBar, "checkmark": .customView(.checkmark), "text": .text,
        ]
        let backgrounds: [String: HUDBackground] = [
            "blur": HUDBackground(style: .blur),
            "solid": HUDBackground(style: .solidColor(RGBA(clampingRed: 0.2, green: 0.2, blue: 0.2, alpha: 0.9))),
            "dim": HUDBackground(style: .blur, dimming: .hudDimming),
        ]
        let modeName = try word(args, 0)
        guard let mode = modes[modeName] else {
            throw StepError(description: "mode is one of \(modes.keys.sorted().joined(separator: ", "))")
        }
        guard let animation = HUDAnimation(rawValue: args.count > 1 ? args[1] : "fade") else {
            throw StepError(description: "animation is one of \(HUDAnimation.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard let background = backgrounds[args.count > 2 ? args[2] : "blur"] else {
            throw StepError(description: "background is one of \(backgrounds.keys.sorted().joined(separator: ", "))")
        }
        let hud = studio.hudOverlay.hud
        hud.mode = mode
        hud.animation = animation
        hud.background = background
        hud.label = modeName.capitalized
        hud.detailsLabel = "\(animation.rawValue), \(args.count > 2 ? args[2] : "blur")"
        hud.progress = 0.6
        hud.observedProgress = nil
        hud.button = args.contains("button") ? HUDButton(title: "Cancel") { [studio] in studio.events.emit("hud-button") } : nil
        studio.hudOverlay.show(graceTime: 0)
    }
}
