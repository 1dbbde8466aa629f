import Foundation
import Testing
@testable import ViewfinderCore
import ViewfinderTestSupport

/// Errors read the same through Foundation's `localizedDescription` as through `description`,
/// for every public error type of every module (what an app built on Foundation shows).
@Suite("Readable errors")
struct ReadableErrorTests {
    @Test("localizedDescription is the error's own sentence, not 'The operation could not be completed'")
    func localized() throws {
        let errors: [any Error & CustomStringConvertible] = [
            TimeParseError(text: "soon", reason: "expected seconds"),
            AtomicFile.WriteError(path: "/tmp/x", reason: "No space left on device"),
            JSONError(path: "layers[0]", message: "expected an object"),
        ]
        for error in errors {
            #expect((error as Error).localizedDescription == error.description)
            #expect(!(error as Error).localizedDescription.contains("could not be completed"))
        }
    }

    struct Sample: ReadableError {
        var description: String { "the sample failed" }
        var recovery: String? { "Try the other one." }
    }

    struct Plain: ReadableError {
        var description: String { "plain" }
    }

    @Test("recoverySuggestion is the type's recovery step, and nil where it names none")
    func recovery() {
        #expect(Sample().recoverySuggestion == "Try the other one.")
        #expect((Sample() as any LocalizedError).recoverySuggestion == "Try the other one.")
        #expect(Plain().recoverySuggestion == nil)
        #expect((Plain() as Error).localizedDescription == "plain")
    }

    /// Every `public enum/struct NAME: … Error …` under Sources/ conforms to ReadableError, in its
    /// declaration or in an extension (`extension Outer.NAME: ReadableError`).
    @Test("every public error type under Sources/ is a ReadableError")
    func everyErrorType() throws {
        let sources = TestPaths.repository.appendingPathComponent("Sources")
        let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        let text = try files.map { try String(contentsOf: $0, encoding: .utf8) }.joined(separator: "\n")
        let declaration = try Regex(#"public (?:enum|struct|final class) (\w+)\s*:\s*([^{]*)\{"#)
        var errorTypes: [(name: String, conformances: String)] = []
        for match in text.matches(of: declaration) {
            guard let name = match.output[1].substring, let list = match.output[2].substring else { continue }
            let conformances = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            if conformances.contains("Error") || conformances.contains("Swift.Error") {
                errorTypes.append((String(name), String(list)))
            }
        }
        #expect(errorTypes.count >= 20, "found only \(errorTypes.map(\.name))")
        for type in errorTypes where !type.conformances.contains("ReadableError") {
            let extensionPattern = try Regex(#"extension (?:\w+\.)*"# + type.name + #"\s*:\s*ReadableError"#)
            let conforms = text.contains(extensionPattern)
            #expect(conforms, "\(type.name) is a public error type without ReadableError")
        }
    }
}
