import Foundation
import HUD
import ViewfinderUI
import StudioKit

/// Plays a script of user actions against the running app (a `ScriptedApp`; `--script FILE`), one per line, so
/// tests drive every screen through the same handlers the gestures and buttons call and take
/// screenshots of what GTK draws. `#` starts a comment. The steps are listed in `ScriptSteps`
/// (which `pick --help` and the README show); a line naming no step fails before any runs. A
/// failed step prints a `script-failed` event, sets the exit status to 1 and quits.
@MainActor
public final class Automation {
    /// The app the steps act on.
    let app: any ScriptedApp
    private let script: URL
    private var consumed: [String: Int] = [:]

    /// A driver that will play the script at `script` against `app`.
    public init(app: any ScriptedApp, script: URL) {
        self.app = app
        self.script = script
    }

    /// Plays the script in a task of its own on the main actor (the app's loop keeps running).
    public func start() {
        Task { await play() }
    }

    /// Reads the script and plays it (see `play(_:)`); a script that cannot be read fails as a
    /// step does.
    public func play() async {
        let parsed: Script
        do {
            parsed = try Script(contentsOf: script)
        } catch {
            fail(error)
            app.quit()
            return
        }
        await play(parsed)
    }

    /// Plays `script` to its end or its first failure, then quits the app. A failure is
    /// printed (a `script-failed` event and a line on stderr) and sets the exit status to 1.
    public func play(_ script: Script) async {
        for step in script.lines {
            app.emit("step", ["line": step.number, "command": step.command])
            do {
                try await run(step.command, step.arguments)
            } catch {
                fail(ScriptError("line \(step.number) (\(step.command)): \(error)"))
                break
            }
        }
        app.quit()
    }

    private func fail(_ error: ScriptError) {
        app.emit("script-failed", ["message": "\(error)"])
        FileHandle.standardError.write(Data("viewfinder-studio: script: \(error)\n".utf8))
        app.exitStatus = 1
    }

    private func run(_ command: String, _ args: [String]) async throws {
        switch command {
        case "wait":
            let name = try word(args, 0)
            let timeout = try args.count > 1 ? seconds(args, 1) : 60
            try await until(timeout, "event \(name)") { [unowned self] in
                guard self.app.eventCount(name) > self.consumed[name, default: 0] else { return false }
                self.consumed[name, default: 0] += 1
                return true
            }
        case "wait-hud":
            let phase = try word(args, 0)
            let hud = try self.hud()
            try await until(try args.count > 1 ? seconds(args, 1) : 60, "HUD \(phase)") {
                "\(hud.shownPhase)" == phase
            }
        case "wait-any":
            // `wait-any A B … [SECONDS]`: the next of any of these events not yet waited for.
            var names = args
            var timeout = 60.0
            if let last = names.last, Double(last) != nil {
                timeout = try seconds(names, names.count - 1)
                names.removeLast()
            }
            guard !names.isEmpty else { throw ScriptError("wait-any needs event names") }
            try await until(timeout, "any of \(names.joined(separator: ", "))") { [unowned self] in
                guard let name = names.first(where: { self.app.eventCount($0) > self.consumed[$0, default: 0] }) else {
                    return false
                }
                self.consumed[name, default: 0] += 1
                return true
            }
        case "wait-exact":
            let screen: CoverChooser = try top()
            try await until(30, "the exact frame") {
                guard let shown = screen.session.preview else { return false }
                return shown.isExact && shown.sliderValue == screen.session.sliderValue
            }
        case "sleep":
            try await Task.sleep(for: .milliseconds(Int(try seconds(args, 0) * 1000)))
        case "screenshot":
            let path = try word(args, 0)
            let target: Widget
            if args.count > 1, args[1] == "hud" {
                target = try hud().area
            } else if args.count > 1 {
                guard let part = app.current?.part(named: args[1]) else {
                    throw ScriptError("\(app.current?.title ?? "this screen") has no part '\(args[1])'")
                }
                target = part
            } else {
                guard let content = app.scriptedContent else { throw ScriptError("the app has no window to show") }
                target = content
            }
            // Let GTK lay out and paint the last change first (a few frames, well inside the
            // HUD's grace time).
            try await Task.sleep(for: .milliseconds(50))
            // GTK keeps a widget's drawing only from its last paint until something in it
            // changes; with a live preview that can be most of the time, so try for a while.
            var attempts = 0
            while true {
                do {
                    try target.renderPNG(to: path)
                    break
                } catch {
                    attempts += 1
                    guard attempts < 200 else {
                        throw ScriptError("cannot render \(args.count > 1 ? args[1] : "the window") to \(path): \(error)")
                    }
                    try await Task.sleep(for: .milliseconds(5))
                }
            }
            var fields: [String: Any] = ["path": path, "width": target.width, "height": target.height]
            if let cover = app.current as? CoverChooser, let rect = cover.previewImageRect {
                fields["image"] = [rect.minX, rect.minY, rect.width, rect.height]
            }
            app.emit("screenshot", fields)
        case "press":
            try await press(try word(args, 0))
        case "theme":
            Application.prefersDarkTheme = try word(args, 0) == "dark"
        case "toggle-theme":
            app.toggleTheme()
        case "hud":
            try showHUD(args)
        case "hud-hide":
            try hud().hide()
        case "quit":
            app.quit()
        case "action":
            let name = try word(args, 0)
            guard app.activateAction(name) else { throw ScriptError("the app has no action '\(name)'") }
        case "slider", "drag-slider":
            let screen: CoverChooser = try top()
            let from = try number(args, 0)
            screen.beginDrag(atX: screen.thumbCentre(forValue: from))
            if command == "drag-slider" {
                let to = try number(args, 1)
                for step in 1...10 {
                    let value = from + (to - from) * Double(step) / 10
                    screen.continueDrag(by: screen.thumbCentre(forValue: value) - screen.thumbCentre(forValue: from))
                    try await Task.sleep(for: .milliseconds(16))
                }
            }
        case "pan":
            let screen: AvatarPicker = try top()
            let dx = try number(args, 0), dy = try number(args, 1)
            for step in 1...8 {
                screen.dragged(toOffset: .init(x: dx * Double(step) / 8, y: dy * Double(step) / 8))
            }
            screen.dragEnded()
        case "zoom":
            let screen: AvatarPicker = try top()
            screen.zoom(by: try number(args, 0), at: .init(x: try number(args, 1), y: try number(args, 2)))
        case "scroll":
            let screen: AvatarPicker = try top()
            screen.pointerMoved(to: .init(x: try number(args, 1), y: try number(args, 2)))
            _ = screen.scrolled(try number(args, 0))
        case "double-click":
            let screen: AvatarPicker = try top()
            screen.reset()
        case "straighten":
            let screen: AvatarPicker = try top()
            screen.straighten.value = try number(args, 0)
        default:
            try await runMore(command, args)
        }
    }

    private func press(_ name: String) async throws {
        if name == "hud" {
            // The button can be clicked once it has been drawn (the frame after the HUD shows).
            let hud = try self.hud()
            try await until(2, "the HUD's button") { hud.clickButton() }
            return
        }
        guard let screen = app.current else { throw ScriptError("no screen") }
        // "back" is the header's Back, the one a user sees (the screen's own is hidden).
        guard let button = name == "back" ? control(named: name) : screen.button(named: name) else {
            throw ScriptError("\(screen.title) has no button '\(name)'")
        }
        guard button.isSensitive else { throw ScriptError("the \(name) button is disabled") }
        button.activate()
    }

    /// Waits, a frame at a time, until `condition` holds.
    func until(_ seconds: Double, _ what: String, _ condition: @escaping @MainActor () -> Bool) async throws {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition() {
            guard Date() < deadline else { throw ScriptError("timed out after \(seconds) s waiting for \(what)") }
            try await Task.sleep(for: .milliseconds(15))
        }
    }

    /// The app's HUD; a fake app without GTK has none.
    func hud() throws -> HUDOverlay {
        guard let hud = app.scriptedHUD else { throw ScriptError("the app has no HUD") }
        return hud
    }

    func top<S>() throws -> S {
        guard let screen = app.current as? S else {
            throw ScriptError("the screen shown is \(app.current?.title ?? "none"), not \(S.self)")
        }
        return screen
    }

    func word(_ args: [String], _ index: Int) throws -> String {
        guard index < args.count else { throw ScriptError("missing argument \(index + 1)") }
        return args[index]
    }

    /// The longest a script may sleep or wait for one thing, in seconds.
    static let longestWait = 3600.0

    /// A number of seconds from 0 to `longestWait`, checked before it becomes milliseconds
    /// (`Int(1e308 * 1000)` traps).
    func seconds(_ args: [String], _ index: Int) throws -> Double {
        let value = try number(args, index)
        guard (0...Self.longestWait).contains(value) else {
            throw ScriptError("'\(args[index])' is out of range (0…\(Int(Self.longestWait)) seconds)")
        }
        return value
    }

    /// The largest grid index a script may name (far beyond any grid, far below `Int`'s limit).
    static let largestIndex = 10_000_000

    /// A whole number within `range`, checked before it becomes an `Int` (`Int(1e300)` traps).
    func integer(_ args: [String], _ index: Int, in range: ClosedRange<Int>) throws -> Int {
        let value = try number(args, index)
        guard value == value.rounded(), Double(range.lowerBound) <= value, value <= Double(range.upperBound) else {
            throw ScriptError("'\(args[index])' is not a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return Int(value)
    }

    func number(_ args: [String], _ index: Int) throws -> Double {
        let text = try word(args, index)
        guard let value = Double(text), value.isFinite else { throw ScriptError("'\(text)' is not a number") }
        return value
    }
}
