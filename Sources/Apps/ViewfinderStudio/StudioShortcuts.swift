import StudioKit
import ViewfinderCore

/// The app's keyboard shortcuts: the one table that the Keyboard Shortcuts window and `--help`
/// show. (The keys themselves are bound where they act: the app's actions in `Studio`, the
/// grid, strip, crop and trim keys in their components.)
enum StudioShortcuts {
    /// One shortcut: GTK's accelerators (space-separated), how `--help` writes them, what it does.
    /// The titles are marked for translation (`N_`) and translated where shown; so are the few
    /// `keys` that hold words ("arrows"), while key names (Ctrl+I, Space) stay as they are.
    struct Key {
        let accelerator: String
        let keys: String
        let title: String
    }

    static let groups: [(title: String, keys: [Key])] = [
        (N_("General"), [
            Key(accelerator: "<Control>i", keys: "Ctrl+I", title: N_("Import photos and videos")),
            Key(accelerator: "Return <Control>Return", keys: N_("Enter or Ctrl+Return"), title: N_("Done")),
            Key(accelerator: "Escape", keys: "Escape", title: N_("Back")),
            Key(accelerator: "<Control><Shift>d", keys: "Ctrl+Shift+D", title: N_("Dark or light style")),
            Key(accelerator: "F10", keys: "F10", title: N_("Main menu")),
            Key(accelerator: "<Control>question", keys: "Ctrl+?", title: N_("Keyboard shortcuts")),
            Key(accelerator: "<Control>q", keys: "Ctrl+Q", title: N_("Quit")),
        ]),
        (N_("Library grid"), [
            Key(accelerator: "Left Right Up Down", keys: N_("arrows"), title: N_("Move")),
            Key(accelerator: "space", keys: "Space", title: N_("Mark an item (a multiple pick)")),
            Key(accelerator: "Return", keys: "Enter", title: N_("Choose (or finish a multiple pick)")),
            Key(accelerator: "i", keys: "I", title: N_("Info (with Export without location)")),
        ]),
        (N_("Cover strip"), [
            Key(accelerator: "Left Right", keys: "←/→", title: N_("One frame")),
            Key(accelerator: "<Shift>Left <Shift>Right", keys: "Shift+←/→", title: N_("One strip cell")),
            Key(accelerator: "Home End", keys: "Home/End", title: N_("First and last frame")),
        ]),
        (N_("Avatar crop"), [
            Key(accelerator: "Left Right Up Down", keys: N_("arrows"), title: N_("Pan")),
            Key(accelerator: "plus minus", keys: "+/−", title: N_("Zoom about the middle")),
            Key(accelerator: "0", keys: "0", title: N_("Reset")),
            Key(accelerator: "bracketleft bracketright", keys: "[/]", title: N_("Straighten (with Shift: quarter turns)")),
        ]),
        (N_("Trim"), [
            Key(accelerator: "space", keys: "Space", title: N_("Play the kept range")),
            Key(accelerator: "Left Right", keys: "←/→", title: N_("Move the focused handle a tenth of a second")),
            Key(accelerator: "Page_Up Page_Down", keys: "Page Up/Down", title: N_("Move it a second")),
            Key(accelerator: "Home End", keys: "Home/End", title: N_("Move it to the start or the end")),
            Key(accelerator: "Tab", keys: "Tab", title: N_("The other handle")),
        ]),
    ]

    /// The groups as the Keyboard Shortcuts window takes them.
    static var windowGroups: [ShortcutGroup] {
        groups.map { group in
            ShortcutGroup(title: tr(group.title), shortcuts: group.keys.map { ($0.accelerator, tr($0.title)) })
        }
    }

    /// The `keys:` paragraph of `--help`: a line per group.
    static var helpText: String {
        groups.map { group in
            // TRANSLATORS: what separates the shortcuts ("Ctrl+I import photos and videos") on a
            // line of the "keys:" paragraph of `viewfinder-studio --help`.
            let shortcuts = group.keys.map { "\(tr($0.keys)) \(tr($0.title).lowercased())" }.joined(separator: tr(", "))
            // TRANSLATORS: a line of the "keys:" paragraph of `viewfinder-studio --help`: a group
            // of shortcuts ("general"), then its shortcuts.
            return "  " + tr("{group}: {shortcuts}", ["group": tr(group.title).lowercased(), "shortcuts": shortcuts])
        }.joined(separator: "\n")
    }
}
