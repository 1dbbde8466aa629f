import StudioKit
import ViewfinderCore

/// One component an app presents: what it shows, its title, and what happens when it is left.
/// Each component hands its result back through a completion with a `PickerOutcome`. The host
/// keeps a reference to the component for as long as its `page` is on screen: the widgets call
/// back into it and do not keep it alive themselves.
@MainActor
public protocol Component: AnyObject {
    /// The component's widget tree, for the app to place in a window, a stack or a dialog.
    var page: Widget { get }
    /// A title for the window or header bar while the component shows.
    var title: String { get }
    /// Done from the keyboard (Ctrl+Return); components without one ignore it.
    func done()
    /// The component is going away: stop decoding, previews, playback.
    func leave()
    /// The button a script presses by this name ("done", "back", "export"…).
    func button(named name: String) -> Widget?
    /// A part a script takes a screenshot of by this name ("preview", "editor"…).
    func part(named name: String) -> Widget?
}

// MARK: - Defaults

extension Component {
    /// Nothing to finish.
    public func done() {}
    /// Nothing to stop.
    public func leave() {}
    /// No buttons by name.
    public func button(named name: String) -> Widget? { nil }
    /// No parts by name.
    public func part(named name: String) -> Widget? { nil }
}

/// How a component finished: with its typed result, or cancelled (Back, Escape, the window
/// closed), or failed (the file could not be opened, the work failed), with why.
public enum PickerOutcome<Value: Sendable>: Sendable {
    /// The user finished; here is what they chose.
    case done(Value)
    /// The user left without choosing.
    case cancelled
    /// The component could not do its work.
    case failed(PickerError)
}

/// Why a component failed: what it was doing, in the user's words, and the error's message.
public struct PickerError: Error, Sendable, CustomStringConvertible {
    /// What failed, as a HUD title ("Cannot open the video").
    public let what: String
    /// The underlying error's message (one line).
    public let message: String

    /// A failure of `what`, with `error`'s description as its message.
    public init(_ what: String, _ error: any Error) {
        self.what = what
        message = "\(error)"
    }

    /// A one-line message: what failed, then why.
    public var description: String {
        // TRANSLATORS: {what} is what failed ("Cannot open the video"), {message} why.
        tr("{what}: {message}", ["what": what, "message": message])
    }
}

extension PickerError: ReadableError {}
