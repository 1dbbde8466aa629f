import Foundation
import MediaLibrary
import StudioAutomation
import StudioKit
import ViewfinderUI

/// An app without GTK that records what the script driver asks of it.
@MainActor
final class FakeApp: ScriptedApp {
    /// Everything asked, in order, one line each ("quit", "action about", "cover /a.mov", …).
    private(set) var calls: [String] = []
    /// The events emitted, with their fields.
    private(set) var emitted: [(name: String, fields: [String: Any])] = []
    /// The actions the app has.
    var actions: Set<String> = ["about"]
    var exitStatus: Int32 = 0

    func eventCount(_ name: String) -> Int { emitted.filter { $0.name == name }.count }
    func emit(_ name: String, _ fields: [String: Any]) { emitted.append((name, fields)) }
    func quit() { calls.append("quit") }
    func activateAction(_ name: String) -> Bool {
        calls.append("action \(name)")
        return actions.contains(name)
    }
    func toggleTheme() { calls.append("toggle-theme") }
    func back() { calls.append("back") }

    var current: (any Component)? { nil }
    var window: Window? { nil }
    var scriptedContent: Widget? { nil }
    var scriptedHUD: HUDOverlay? { nil }
    var scriptedBackButton: Widget? { nil }
    var scriptedMenuButton: Widget? { nil }
    var library: LibraryBrowser? { nil }
    var browser: (any AssetBrowser)? { nil }

    func showCover(of file: URL) { calls.append("cover \(file.path)") }
    func showAvatarEditor(for file: URL) { calls.append("avatar \(file.path)") }
    func showTrimmer(for file: URL) { calls.append("trim \(file.path)") }
    func showTrimmer(for asset: Asset, original: URL) { calls.append("trim \(original.path)") }
    func show(_ asset: Asset) { calls.append("asset") }
    func showCamera() { calls.append("camera") }
    func showMotion(_ scene: URL) { calls.append("motion \(scene.path)") }
    func importFiles(_ files: [URL]) { calls.append("import " + files.map(\.path).joined(separator: " ")) }

    /// The messages of the `script-failed` events.
    var failures: [String] { emitted.filter { $0.name == "script-failed" }.compactMap { $0.fields["message"] as? String } }
    /// The lines of the `step` events, in order.
    var stepLines: [Int] { emitted.filter { $0.name == "step" }.compactMap { $0.fields["line"] as? Int } }
}
