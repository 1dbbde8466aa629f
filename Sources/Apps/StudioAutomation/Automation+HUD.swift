import Foundation
import ViewfinderCore
import HUD
import ViewfinderUI

extension Automation {
    /// `hud MODE ANIMATION BACKGROUND [button] [KEY=VALUE…]` shows the HUD as configured
    /// (progress 0.6), so every mode, animation, style and option can be looked at; `hud-hide`
    /// hides it. Modes: the six (`checkmark` for a custom view), `image` (a picture the script
    /// makes), `icon` (an icon-theme symbol), `widget` (the header's main menu button, live).
    /// Backgrounds: `blur` (light), `dark`, `solid`, `dim`, `blurview` (the whole view blurred).
    /// Options: `content=`, `label-color=`, `details-color=`, `progress=`, `track=`, `line=`
    /// (colours as rrggbb[aa]: a script line's # starts a comment); `label-font=`, `details-font=` (FAMILY:SIZE[:bold]);
    /// `icon=NAME` (the icon-theme symbol shown, for any mode); `duration=SECONDS` (each show and
    /// hide animation; 0.3 unless given).
    func showHUD(_ args: [String]) throws {
        let modes: [String: HUDMode] = [
            "indeterminate": .indeterminate, "determinate": .determinate, "annular": .annularDeterminate,
            "bar": .determinateHorizontalBar, "checkmark": .customView(.checkmark), "text": .text,
            "image": .customView(.image(Self.customPicture)), "icon": .customView(.named("camera-photo-symbolic")),
            "widget": .customView(.named("widget")),
        ]
        let backgrounds: [String: HUDBackground] = [
            "blur": HUDBackground(style: .blur(.light)),
            "dark": HUDBackground(style: .blur(.dark)),
            "solid": HUDBackground(style: .solidColor(RGBA(clampingRed: 0.2, green: 0.2, blue: 0.2, alpha: 0.9))),
            "dim": HUDBackground(style: .blur(.light), view: .solidColor(.hudDimming)),
            "blurview": HUDBackground(style: .blur(.light), view: .blur(.light)),
        ]
        let positional = args.filter { !$0.contains("=") && $0 != "button" }
        let modeName = try word(positional, 0)
        guard let mode = modes[modeName] else {
            throw ScriptError("mode is one of \(modes.keys.sorted().joined(separator: ", "))")
        }
        guard let animation = HUDAnimation(rawValue: positional.count > 1 ? positional[1] : "fade") else {
            throw ScriptError("animation is one of \(HUDAnimation.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let backgroundName = positional.count > 2 ? positional[2] : "blur"
        guard let background = backgrounds[backgroundName] else {
            throw ScriptError("background is one of \(backgrounds.keys.sorted().joined(separator: ", "))")
        }
        let overlay = try hud()
        let hud = overlay.hud
        overlay.followsTheme = false
        overlay.customWidget = modeName == "widget" ? app.scriptedMenuButton : nil
        hud.mode = mode
        hud.animation = animation
        hud.background = background
        hud.layout = HUDLayout()
        hud.label = modeName.capitalized
        hud.detailsLabel = "\(animation.rawValue), \(backgroundName)"
        hud.progress = 0.6
        hud.observedProgress = nil
        hud.button = args.contains("button") ? HUDButton(title: "Cancel") { [app] in app.emit("hud-button", [:]) } : nil
        try applyHUDOptions(args.filter { $0.contains("=") }, to: hud)
        overlay.show(graceTime: 0)
    }

    /// A 64 × 48 picture of four coloured quarters, for the image custom view.
    static let customPicture: RasterImage = {
        let quarters: [[UInt8]] = [[220, 40, 40, 255], [40, 160, 60, 255], [40, 80, 220, 255], [240, 200, 30, 255]]
        var bytes: [UInt8] = []
        for y in 0..<48 {
            for x in 0..<64 { bytes += quarters[(y < 24 ? 0 : 2) + (x < 32 ? 0 : 1)] }
        }
        return RasterImage(width: 64, height: 48, channels: 4, bytes: bytes) ?? RasterImage(PixelBuffer(width: 1, height: 1))
    }()

    /// Sets the colours and fonts given as KEY=VALUE words; every value resets first, so one
    /// script step says the whole look.
    private func applyHUDOptions(_ options: [String], to hud: ProgressHUD) throws {
        hud.restoreDefaultAppearance()
        hud.animationDuration = HUDAnimation.defaultDuration
        for option in options {
            let parts = option.split(separator: "=", maxSplits: 1).map(String.init)
            let key = parts[0], value = parts.count > 1 ? parts[1] : ""
            func colour() throws -> RGBA {
                guard let colour = RGBA(hex: value) else { throw ScriptError("\(key): '\(value)' is not rrggbb[aa]") }
                return colour
            }
            func font() throws -> HUDFont {
                let fields = value.split(separator: ":").map(String.init)
                guard fields.count >= 2, let size = Double(fields[1]), size > 0 else {
                    throw ScriptError("\(key): '\(value)' is not FAMILY:SIZE[:bold]")
                }
                return HUDFont(family: fields[0], size: size, isBold: fields.count > 2 && fields[2] == "bold")
            }
            switch key {
            case "content": hud.contentColor = try colour()
            case "label-color": hud.labelColor = try colour()
            case "details-color": hud.detailsColor = try colour()
            case "progress": hud.indicatorColors.progressTint = try colour()
            case "track": hud.indicatorColors.backgroundTint = try colour()
            case "line": hud.indicatorColors.lineColor = try colour()
            case "label-font": hud.labelFont = try font()
            case "details-font": hud.detailsFont = try font()
            case "icon": hud.mode = .customView(.named(value))
            case "duration":
                guard let seconds = Double(value), (0...10).contains(seconds) else {
                    throw ScriptError("duration: '\(value)' is not a number of seconds from 0 to 10")
                }
                hud.animationDuration = seconds
            default:
                throw ScriptError("option is one of content, label-color, details-color, progress, track, line, label-font, details-font, icon, duration")
            }
        }
    }
}
