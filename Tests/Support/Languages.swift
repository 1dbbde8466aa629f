import Foundation
import Testing

/// The languages the programs are tested in. Every other test runs them in English whatever
/// the machine's locale: `Subprocess` points them at no catalogue (`english`).
public enum TestLanguages {
    /// What a program under test is given to speak English: a catalogue folder that does not exist.
    public static let english = ["VIEWFINDER_LOCALEDIR": "/nonexistent/viewfinder-tests-no-catalogues"]

    /// The translations (po/*.po) compiled by `scripts/update-po --compile` (msgfmt) into a
    /// folder of this test run's own, so that `swift test` alone runs with today's catalogues.
    public static func catalogues() throws -> URL {
        try compiled.get()
    }

    /// The environment that runs a program in `locale` ("ru_RU.UTF-8") with today's catalogues.
    public static func environment(_ locale: String) throws -> [String: String] {
        ["VIEWFINDER_LOCALEDIR": try catalogues().path, "LANG": locale, "LC_ALL": locale, "LANGUAGE": ""]
    }

    /// `message` in `locale`, as the `gettext` program (gettext-base) finds it in the compiled
    /// catalogues: the oracle for what the programs should show. Throws when it has none.
    public static func translation(_ message: String, _ locale: String) throws -> String {
        let result = try Subprocess.run("env", ["TEXTDOMAINDIR=\(try catalogues().path)", "LC_ALL=\(locale)", "LANGUAGE=",
                                                "gettext", "-d", "viewfinder", "--", message])
        try #require(result.status == 0, "\(result.stderr)")
        try #require(result.stdout != message, "\"\(message)\" has no translation in \(locale)")
        return result.stdout
    }

    /// Whether `text` is written in `locale`'s script: Cyrillic for Russian, Han for Chinese.
    public static func writtenIn(_ locale: String, _ text: String) -> Bool {
        let range: ClosedRange<UInt32> = locale.hasPrefix("ru") ? 0x0400...0x04FF : 0x4E00...0x9FFF
        return text.unicodeScalars.contains { range.contains($0.value) }
    }

    private static let compiled: Result<URL, any Error> = Result(catching: {
        let folder = TestPaths.scratchFolder("catalogues")
        let script = TestPaths.repository.appendingPathComponent("scripts/update-po")
        let result = try Subprocess.run(URL(fileURLWithPath: "/usr/bin/python3"), [script.path, "--compile", folder.path],
                                        environment: english)
        guard result.status == 0 else { throw SubprocessError.failed("update-po --compile", result.stderr) }
        return folder
    })
}
