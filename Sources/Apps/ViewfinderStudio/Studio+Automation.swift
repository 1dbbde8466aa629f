import Foundation
import MediaLibrary
import StudioAutomation
import StudioKit
import ViewfinderUI

/// What the script driver (`--script`, the StudioAutomation module) works the app through:
/// the same flows, screens and HUD a person's clicks and keys reach.
extension Studio: ScriptedApp {
    func eventCount(_ name: String) -> Int { events.counts[name, default: 0] }
    func emit(_ name: String, _ fields: [String: Any]) { events.emit(name, fields) }
    func quit() { application.quit() }
    func activateAction(_ name: String) -> Bool { application.activateAction(name) }

    var scriptedContent: Widget? { content }
    var scriptedHUD: HUDOverlay? { hudOverlay }
    var scriptedBackButton: Widget? { backButton }
    var scriptedMenuButton: Widget? { menuButton }

    func showCover(of file: URL) { openCover(.file(file)) }
    func showAvatarEditor(for file: URL) { openAvatar(.file(file)) }
    func showTrimmer(for file: URL) { openTrim(.file(file)) }
    func showTrimmer(for asset: Asset, original: URL) { openTrim(.library(asset, original)) }
    func show(_ asset: Asset) { open(asset) }
    func showCamera() { openCamera() }
    func showMotion(_ scene: URL) { openMotion(scene) }
}
