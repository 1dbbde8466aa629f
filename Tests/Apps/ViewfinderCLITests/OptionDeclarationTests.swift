import Foundation
import Testing
import ViewfinderTestSupport

/// Both programs read every option through its typed declaration (`TypedOption`), never by
/// looking its name up as a string: a name typed twice can drift apart from the declaration
/// `--help` shows, and a value read by hand escapes its kind's checks.
@Suite("Option declarations")
struct OptionDeclarationTests {
    /// The look-ups that are not an option's value, each with why.
    static let allowed = [
        // Any command's --json switches the messages to English before the command runs.
        "ViewfinderTool.swift": #"arguments.flag("json")"#,
        // The `kind` of `capture photo|video` is a positional argument, named in its error.
        "CaptureCommand.swift": #"arguments.invalid("kind""#,
    ]

    @Test("no option of viewfinder or viewfinder-studio is read by its name as a string")
    func noStringLookups() throws {
        let pattern = try Regex(#"\b(arguments|parsed)\.(flag|value|values|integer|seconds|required|invalid)\(""#)
        var found: [String] = []
        for program in ["viewfinder", "ViewfinderStudio"] {
            let folder = TestPaths.repository.appendingPathComponent("Sources/Apps/\(program)")
            let files = try FileManager.default.subpathsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
            #expect(files.count > 5, "no sources found in \(folder.path)")
            for file in files {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                for line in text.split(separator: "\n") where line.contains(pattern) {
                    let name = (file as NSString).lastPathComponent
                    if let exempt = Self.allowed[name], line.contains(exempt) { continue }
                    found.append("\(program)/\(file): \(line.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }
}
