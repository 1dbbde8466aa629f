import StudioKit

/// One page of the app: what it shows, its title, and what happens when it is left.
@MainActor
protocol Screen: AnyObject {
    /// The page's widget tree.
    var page: Widget { get }
    /// The header bar's title while the page shows.
    var title: String { get }
    /// Done from the keyboard (Ctrl+Return); screens without one ignore it.
    func done()
    /// The page is going away: stop decoding, previews, playback.
    func leave()
    /// The button a script presses by this name ("done", "back", "export"…).
    func button(named name: String) -> Widget?
    /// A part a script takes a screenshot of by this name ("preview", "editor"…).
    func part(named name: String) -> Widget?
}

extension Screen {
    func done() {}
    func leave() {}
    func button(named name: String) -> Widget? { nil }
    func part(named name: String) -> Widget? { nil }
}
