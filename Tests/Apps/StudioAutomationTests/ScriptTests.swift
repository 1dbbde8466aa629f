import Foundation
import StudioAutomation
import Testing

@Suite("Script")
struct ScriptTests {
    @Test("a step a line; blank lines and comments hold none; words split by spaces")
    func parsesSteps() throws {
        let script = try Script(parsing: "# a demo\nopen-cover /tmp/clip.mov\n\nwait cover-ready 30  # slow disks\n  \nquit")
        #expect(script.lines == [
            .init(number: 2, command: "open-cover", arguments: ["/tmp/clip.mov"]),
            .init(number: 4, command: "wait", arguments: ["cover-ready", "30"]),
            .init(number: 6, command: "quit", arguments: []),
        ])
    }

    @Test("an empty script has no steps")
    func empty() throws {
        #expect(try Script(parsing: "").lines.isEmpty)
        #expect(try Script(parsing: "# nothing\n\n").lines.isEmpty)
    }

    @Test("a line naming no step fails, in one line naming the line and the word")
    func unknownStep() {
        #expect(throws: ScriptError("line 2: no step 'jump' ('viewfinder-studio pick --help' lists them)")) {
            try Script(parsing: "quit\njump 3\nquit")
        }
    }

    @Test("a step's name is its whole first word, not a prefix of one")
    func wholeWord() {
        #expect(throws: ScriptError.self) { try Script(parsing: "waiting") }
        #expect(throws: ScriptError.self) { try Script(parsing: "Wait x") }
    }

    @Test("a script that is missing or not UTF-8 is refused in one line")
    func unreadable() throws {
        #expect(throws: ScriptError("cannot read /nonexistent/script.txt (it is missing, unreadable or a folder)")) {
            try Script(contentsOf: URL(fileURLWithPath: "/nonexistent/script.txt"))
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("script-\(UUID().uuidString).txt")
        try Data([0x71, 0x75, 0xFF, 0xFE]).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(throws: ScriptError("\(file.lastPathComponent) is not UTF-8 text")) { try Script(contentsOf: file) }
    }

    @Test("every step help lists is named by its syntax's first word, once")
    func stepNames() {
        let names = ScriptSteps.all.map(\.name)
        #expect(Set(names).count == names.count)
        for step in ScriptSteps.all {
            #expect(ScriptSteps.named(step.name)?.syntax == step.syntax)
            #expect(!step.help.isEmpty)
        }
        #expect(ScriptSteps.named("jump") == nil)
        #expect(ScriptSteps.helpLines.split(separator: "\n").count == ScriptSteps.all.count)
    }
}
