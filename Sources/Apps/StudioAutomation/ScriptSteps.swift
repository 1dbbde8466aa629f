import ViewfinderCore

/// The steps a `--script FILE` may hold, one per line (`#` starts a comment): the one list that
/// `pick --help`, the README and the script player's check of each line share. Each step acts
/// as a user would, through the handlers the buttons and gestures call; what happens is printed
/// as JSON lines (events). A step that fails ends the run with exit 1, except after a pick has
/// ended, whose own status stands.
public enum ScriptSteps {
    /// One step: how it is written and what it does (marked for translation, translated where
    /// `--help` shows it; the syntax stays as it is).
    public struct Step: Sendable {
        /// How the step is written: its name, then its arguments.
        public let syntax: String
        /// What it does, in English (translated where shown).
        public let help: String
        /// The step's name, the syntax's first word.
        public var name: String { String(syntax.prefix { $0 != " " }) }
    }

    /// Every step, in the order help lists them.
    public static let all: [Step] = [
        Step(syntax: "wait EVENT [SECONDS]", help: N_("Until an EVENT not yet waited for has been printed (default 60 s).")),
        Step(syntax: "wait-any EVENT… [SECONDS]", help: N_("Until any of these events not yet waited for has been printed.")),
        Step(syntax: "wait-hud PHASE [SECONDS]", help: N_("Until the HUD is in PHASE (hidden, waitingForGraceTime, appearing, visible, disappearing).")),
        Step(syntax: "wait-exact", help: N_("Until the cover chooser shows the exact frame at its slider.")),
        Step(syntax: "wait-file PATH [SECONDS]", help: N_("Until the file PATH exists.")),
        Step(syntax: "sleep SECONDS", help: N_("Waits SECONDS.")),
        Step(syntax: "signal FILE", help: N_("Writes the display and where the screen's parts are to FILE (for tests sending real input).")),
        Step(syntax: "screenshot PATH [hud|PART]", help: N_("Writes a PNG of the window (or the HUD, or a named part of the screen).")),
        Step(syntax: "controls FILE NAME…", help: N_("Writes the window's size and where each named button or part is to FILE.")),
        Step(syntax: "window-size W H", help: N_("Resizes the window.")),
        Step(syntax: "press BUTTON", help: N_("Clicks the screen's button by name (done, back, cover-1, hud…).")),
        Step(syntax: "activate INDEX", help: N_("Activates the picker grid's item INDEX (from 0), as a click does.")),
        Step(syntax: "back", help: N_("Leaves the screen shown, as Escape does.")),
        Step(syntax: "quit", help: N_("Ends the app.")),
        Step(syntax: "action NAME", help: N_("Activates the app's action NAME (about, shortcuts, import, theme, done, back, quit), as its menu entry or key does.")),
        Step(syntax: "theme dark|light", help: N_("Chooses the style.")),
        Step(syntax: "toggle-theme", help: N_("Switches between dark and light, as Ctrl+Shift+D does.")),
        Step(syntax: "open-cover VIDEO", help: N_("Opens the cover chooser on VIDEO.")),
        Step(syntax: "open-avatar PHOTO", help: N_("Opens the avatar editor on PHOTO.")),
        Step(syntax: "open-trim VIDEO", help: N_("Opens the trimmer on VIDEO.")),
        Step(syntax: "open-camera", help: N_("Opens the camera screen.")),
        Step(syntax: "open-motion SCENE", help: N_("Plays a Motion scene (JSON).")),
        Step(syntax: "motion-at SECONDS", help: N_("Holds the scene playing at that time.")),
        Step(syntax: "motion-button LAYER", help: N_("Puts a real button on the scene's layer LAYER.")),
        Step(syntax: "open-asset INDEX [trim]", help: N_("Opens the library grid's item INDEX (in the trimmer with 'trim').")),
        Step(syntax: "info INDEX", help: N_("Opens the info panel of the library grid's item INDEX.")),
        Step(syntax: "import PATH…", help: N_("Imports files into the library.")),
        Step(syntax: "filter all|photos|videos", help: N_("Shows those kinds in the grid.")),
        Step(syntax: "group TITLE", help: N_("Selects the sidebar's group or album TITLE.")),
        Step(syntax: "order newest|oldest|name", help: N_("Orders the grid.")),
        Step(syntax: "scroll-grid SECONDS", help: N_("Scrolls the grid top to bottom over SECONDS, reporting frame gaps.")),
        Step(syntax: "scroll-to FRACTION", help: N_("Scrolls the grid to FRACTION (0 top, 1 bottom).")),
        Step(syntax: "slider VALUE", help: N_("Puts the cover strip's thumb at VALUE (0 to 1).")),
        Step(syntax: "drag-slider FROM TO", help: N_("Drags the cover strip's thumb from FROM to TO.")),
        Step(syntax: "trim-start VALUE", help: N_("Moves the trimmer's start handle to VALUE (0 to 1).")),
        Step(syntax: "trim-end VALUE", help: N_("Moves the trimmer's end handle to VALUE (0 to 1).")),
        Step(syntax: "pan DX DY", help: N_("Drags the photo under the crop by DX, DY points.")),
        Step(syntax: "zoom FACTOR X Y", help: N_("Zooms the crop by FACTOR about the point X, Y.")),
        Step(syntax: "scroll DY X Y", help: N_("Scrolls the crop by DY steps with the pointer at X, Y.")),
        Step(syntax: "double-click", help: N_("Resets the crop.")),
        Step(syntax: "straighten DEGREES", help: N_("Sets the crop's straightening.")),
        Step(syntax: "hud MODE ANIMATION BACKGROUND [button] [KEY=VALUE…]", help: N_("Shows the HUD in MODE with ANIMATION on BACKGROUND (and a button, KEY=VALUE styles).")),
        Step(syntax: "hud-hide", help: N_("Hides the HUD.")),
        Step(syntax: "hud-flash success|error|text LABEL…", help: N_("Flashes the HUD with LABEL.")),
    ]

    /// The step called `name`, if there is one.
    public static func named(_ name: String) -> Step? {
        all.first { $0.name == name }
    }

    /// The steps as help lists them: an aligned line each.
    public static var helpLines: String {
        let width = min(36, all.map(\.syntax.count).max() ?? 0)
        return all.map { step in
            let pad = max(2, width + 2 - step.syntax.count)
            return "  " + step.syntax + String(repeating: " ", count: pad) + tr(step.help)
        }.joined(separator: "\n")
    }
}
