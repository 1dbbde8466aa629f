import StudioKit

/// The app's keyboard shortcuts: the one table that the Keyboard Shortcuts window and `--help`
/// show. (The keys themselves are bound where they act: the app's actions in `Studio`, the
/// grid, strip, crop and trim keys in their components.)
enum StudioShortcuts {
    /// One shortcut: GTK's accelerators (space-separated), how `--help` writes them, what it does.
    struct Key {
        let accelerator: String
        let keys: String
        let title: String
    }

    static let groups: [(title: String, keys: [Key])] = [
        ("General", [
            Key(accelerator: "<Control>i", keys: "Ctrl+I", title: "Import photos and videos"),
            Key(accelerator: "Return <Control>Return", keys: "Enter or Ctrl+Return", title: "Done"),
            Key(accelerator: "Escape", keys: "Escape", title: "Back"),
            Key(accelerator: "<Control><Shift>d", keys: "Ctrl+Shift+D", title: "Dark or light style"),
            Key(accelerator: "F10", keys: "F10", title: "Main menu"),
            Key(accelerator: "<Control>question", keys: "Ctrl+?", title: "Keyboard shortcuts"),
            Key(accelerator: "<Control>q", keys: "Ctrl+Q", title: "Quit"),
        ]),
        ("Library grid", [
            Key(accelerator: "Left Right Up Down", keys: "arrows", title: "Move"),
            Key(accelerator: "space", keys: "Space", title: "Mark an item (a multiple pick)"),
            Key(accelerator: "Return", keys: "Enter", title: "Choose (or finish a multiple pick)"),
            Key(accelerator: "i", keys: "I", title: "Info (with Export without location)"),
        ]),
        ("Cover strip", [
            Key(accelerator: "Left Right", keys: "←/→", title: "One frame"),
            Key(accelerator: "<Shift>Left <Shift>Right", keys: "Shift+←/→", title: "One strip cell"),
            Key(accelerator: "Home End", keys: "Home/End", title: "First and last frame"),
        ]),
        ("Avatar crop", [
            Key(accelerator: "Left Right Up Down", keys: "arrows", title: "Pan"),
            Key(accelerator: "plus minus", keys: "+/−", title: "Zoom about the middle"),
            Key(accelerator: "0", keys: "0", title: "Reset"),
            Key(accelerator: "bracketleft bracketright", keys: "[/]", title: "Straighten (with Shift: quarter turns)"),
        ]),
        ("Trim", [
            Key(accelerator: "space", keys: "Space", title: "Play the kept range"),
            Key(accelerator: "Left Right", keys: "←/→", title: "Move the focused handle a tenth of a second"),
            Key(accelerator: "Page_Up Page_Down", keys: "Page Up/Down", title: "Move it a second"),
            Key(accelerator: "Home End", keys: "Home/End", title: "Move it to the start or the end"),
            Key(accelerator: "Tab", keys: "Tab", title: "The other handle"),
        ]),
    ]

    /// The groups as the Keyboard Shortcuts window takes them.
    static var windowGroups: [ShortcutGroup] {
        groups.map { group in ShortcutGroup(title: group.title, shortcuts: group.keys.map { ($0.accelerator, $0.title) }) }
    }

    /// The `keys:` paragraph of `--help`: a line per group.
    static var helpText: String {
        groups.map { group in
            "  \(group.title.lowercased()): " + group.keys.map { "\($0.keys) \($0.title.lowercased())" }.joined(separator: ", ")
        }.joined(separator: "\n")
    }
}
