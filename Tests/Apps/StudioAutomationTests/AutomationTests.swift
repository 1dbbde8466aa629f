import Foundation
import StudioAutomation
import Testing

/// The driver played against a fake app: what it asks, what it prints, when it stops.
@Suite("Automation against a fake app")
@MainActor
struct AutomationTests {
    static func play(_ text: String, on app: FakeApp = FakeApp()) async throws -> FakeApp {
        let script = try Script(parsing: text)
        await Automation(app: app, script: URL(fileURLWithPath: "/unused")).play(script)
        return app
    }

    @Test("steps reach the app's flows in order, each announced with its line, then the app quits")
    func flows() async throws {
        let app = try await Self.play("""
            open-cover /m/clip.mov
            open-avatar /m/face.jpg
            # a comment
            open-trim /m/clip.mov
            open-camera
            open-motion /m/scene.json
            import /m/a.jpg /m/b.mov
            toggle-theme
            action about
            back
            """)
        #expect(app.calls == ["cover /m/clip.mov", "avatar /m/face.jpg", "trim /m/clip.mov", "camera", "motion /m/scene.json",
                              "import /m/a.jpg /m/b.mov", "toggle-theme", "action about", "back", "quit"])
        #expect(app.stepLines == [1, 2, 4, 5, 6, 7, 8, 9, 10])
        #expect(app.failures.isEmpty)
        #expect(app.exitStatus == 0)
    }

    @Test("a failing step stops the script with exit 1 and a one-line message naming its line")
    func failure() async throws {
        let app = try await Self.play("open-camera\naction fly\nback")
        #expect(app.failures == ["line 2 (action): the app has no action 'fly'"])
        #expect(app.calls == ["camera", "action fly", "quit"])
        #expect(app.exitStatus == 1)
    }

    @Test("a step's arguments are checked", arguments: [
        ("sleep", "line 1 (sleep): missing argument 1"),
        ("sleep 1e308", "line 1 (sleep): '1e308' is out of range (0…3600 seconds)"),
        ("wait ready nan", "line 1 (wait): 'nan' is not a number"),
        ("wait-any 5", "line 1 (wait-any): wait-any needs event names"),
        ("import", "line 1 (import): import needs files"),
        ("open-asset 0", "line 1 (open-asset): no library"),
        ("hud-flash party", "line 1 (hud-flash): hud-flash is success, error or text"),
        ("hud-hide", "line 1 (hud-hide): the app has no HUD"),
        ("window-size 10 10", "line 1 (window-size): no window"),
        ("press done", "line 1 (press): no screen"),
        ("slider 0.5", "line 1 (slider): the screen shown is none, not CoverChooser"),
    ])
    func arguments(line: String, message: String) async throws {
        let app = try await Self.play(line)
        #expect(app.failures == [message])
        #expect(app.exitStatus == 1)
    }

    @Test("wait takes each event once: a second wait for one emitted once times out")
    func waitConsumes() async throws {
        let app = FakeApp()
        app.emit("ready", [:])
        _ = try await Self.play("wait ready 0\nwait ready 0\nquit", on: app)
        #expect(app.stepLines == [1, 2])
        #expect(app.failures == ["line 2 (wait): timed out after 0.0 s waiting for event ready"])
    }

    @Test("wait-any takes the first of its events not yet waited for")
    func waitAny() async throws {
        let app = FakeApp()
        app.emit("saved", [:])
        app.emit("cancelled", [:])
        _ = try await Self.play("wait-any saved cancelled 0\nwait-any saved cancelled 0\nwait-any saved cancelled 0", on: app)
        #expect(app.failures == ["line 3 (wait-any): timed out after 0.0 s waiting for any of saved, cancelled"])
    }

    @Test("every step help lists is one the driver handles")
    func everyStepHandled() async throws {
        for step in ScriptSteps.all {
            let app = try await Self.play(step.name)
            #expect(!app.failures.contains { $0.contains("unknown step") }, "\(step.name)")
        }
    }

    @Test("a script that cannot be read fails before any step, and the app quits")
    func unreadable() async {
        let app = FakeApp()
        await Automation(app: app, script: URL(fileURLWithPath: "/nonexistent/script.txt")).play()
        #expect(app.failures == ["cannot read /nonexistent/script.txt (it is missing, unreadable or a folder)"])
        #expect(app.calls == ["quit"])
        #expect(app.exitStatus == 1)
    }
}
