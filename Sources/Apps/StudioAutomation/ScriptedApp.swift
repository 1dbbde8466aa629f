import Foundation
import MediaLibrary
import StudioKit
import ViewfinderUI

/// What the script driver asks of the app it drives: its events, its screens, its HUD and the
/// flows a person starts from its menus. The app conforms (`Studio+Automation.swift`); a test
/// conforms with a fake that records what it was asked, so the driver is tested without GTK.
/// The GTK parts are optional: a fake has none, and a step that needs one fails saying so.
@MainActor
public protocol ScriptedApp: AnyObject {
    /// How many events called `name` the app has emitted so far (the driver waits on them).
    func eventCount(_ name: String) -> Int
    /// Emits the event `name` with `fields`, as the app's own events are printed.
    func emit(_ name: String, _ fields: [String: Any])
    /// The status the app exits with; a failed script sets it to 1.
    var exitStatus: Int32 { get set }
    /// Ends the app.
    func quit()
    /// Activates the app's action `name`, as its menu entry or key does; false if it has none.
    func activateAction(_ name: String) -> Bool
    /// Switches between the dark and the light style.
    func toggleTheme()
    /// Leaves the screen shown, as Escape does.
    func back()

    /// The screen shown, if any.
    var current: (any Component)? { get }
    /// The app's window, once it has one.
    var window: Window? { get }
    /// What a screenshot without a part shows: the window's content.
    var scriptedContent: Widget? { get }
    /// The HUD over the window.
    var scriptedHUD: HUDOverlay? { get }
    /// The header's Back button, the one a person sees.
    var scriptedBackButton: Widget? { get }
    /// The header's main menu button (the `widget` HUD mode shows it live).
    var scriptedMenuButton: Widget? { get }
    /// The app's library, if it has one open.
    var library: LibraryBrowser? { get }
    /// What the grid browses: the library or a folder being picked from.
    var browser: (any AssetBrowser)? { get }

    /// Opens the cover chooser on the video at `file`.
    func showCover(of file: URL)
    /// Opens the avatar editor on the photo at `file`.
    func showAvatarEditor(for file: URL)
    /// Opens the trimmer on the video at `file`.
    func showTrimmer(for file: URL)
    /// Opens the trimmer on the library's `asset`, whose original is at `original`.
    func showTrimmer(for asset: Asset, original: URL)
    /// Opens the library's `asset` as a click in the grid does.
    func show(_ asset: Asset)
    /// Opens the camera screen.
    func showCamera()
    /// Plays the Motion scene (JSON) at `scene`.
    func showMotion(_ scene: URL)
    /// Imports `files` into the library.
    func importFiles(_ files: [URL])
}
