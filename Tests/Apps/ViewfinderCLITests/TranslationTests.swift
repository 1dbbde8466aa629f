import Foundation
import Testing
import ViewfinderTestSupport

/// The tool in Russian and Chinese (po/*.po through gettext), read back from its output.
@Suite("Translations: the tool in Russian and Chinese")
struct TranslationTests {
    static let languages = ["ru_RU.UTF-8", "zh_CN.UTF-8"]

    @Test("the catalogues hold every marked string of the sources, translated, none fuzzy, and msgfmt --check finds no mistake (placeholders, plural forms)")
    func cataloguesComplete() throws {
        let script = TestPaths.repository.appendingPathComponent("scripts/update-po")
        // The Swift reader that finds the marked strings, on literals it must get right.
        let reader = try Subprocess.run(URL(fileURLWithPath: "/usr/bin/python3"), [script.path, "--self-test"])
        #expect(reader.status == 0, "\(reader.stderr)")
        let result = try Subprocess.run(URL(fileURLWithPath: "/usr/bin/python3"), [script.path, "--check"])
        #expect(result.status == 0, "\(result.stderr)")
    }

    static let helpPages: [[String]] = [["--help"]] + UsageTests.commands.map { [$0, "--help"] }

    @Test("every --help page in each language: translated line by line, no English sentence left, the options and commands as they are", arguments: languages)
    func helpTranslated(_ locale: String) throws {
        let environment = try TestLanguages.environment(locale)
        for page in Self.helpPages {
            let english = try viewfinder(page)
            let translated = try Subprocess.run(TestPaths.tool, page, environment: environment)
            #expect(translated.status == 0, "\(page) \(translated.stderr)")
            #expect(translated.stdout != english.stdout, "\(page) is not translated in \(locale)")
            // The reader of prose finds the English page's sentences (it can fail).
            #expect(Self.englishProse(english.stdout).count >= 3, "\(page): no English prose found in English")
            let left = Self.englishProse(translated.stdout)
            #expect(left.isEmpty, "\(page) in \(locale) still has English: \(left.prefix(5))")
            // Every option the English page names is named in the translation too.
            for option in Self.options(english.stdout) {
                #expect(translated.stdout.contains(option), "\(page) in \(locale) lost \(option)")
            }
        }
    }

    @Test("a usage error and a runtime error are in the user's language, with the same exit status", arguments: languages)
    func errorsTranslated(_ locale: String) throws {
        let environment = try TestLanguages.environment(locale)
        for arguments in [["cover"], ["cover", "a.mp4", "-o", "x.gif"], ["info", "/nonexistent/clip.mp4"]] {
            let english = try viewfinder(arguments)
            let translated = try Subprocess.run(TestPaths.tool, arguments, environment: environment)
            #expect(translated.status == english.status, "\(arguments)")
            #expect(translated.stderr != english.stderr, "\(arguments) in \(locale): \(translated.stderr)")
            #expect(Self.englishProse(translated.stderr).isEmpty, "\(arguments) in \(locale): \(translated.stderr)")
            #expect(TestLanguages.writtenIn(locale, translated.stderr), "\(arguments) in \(locale): \(translated.stderr)")
        }
    }

    @Test("--json output stays English (machine-readable) in every language, its errors too")
    func jsonStaysEnglish() throws {
        let folder = TestPaths.scratchFolder("translations-json")
        let clip = folder.appendingPathComponent("clip.mp4")
        let made = try Subprocess.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=s=160x90:r=25:d=1", "-pix_fmt", "yuv420p", clip.path])
        try #require(made.status == 0, "\(made.stderr)")
        let english = try viewfinder("info", clip.path, "--json")
        try #require(english.status == 0)
        for locale in Self.languages {
            let translated = try Subprocess.run(TestPaths.tool, ["info", clip.path, "--json"], environment: try TestLanguages.environment(locale))
            #expect(translated.stdout == english.stdout, "\(locale)")
            // So is an error, with --json: a script reads it.
            let englishError = try viewfinder("info", "/nonexistent/clip.mp4", "--json")
            let error = try Subprocess.run(TestPaths.tool, ["info", "/nonexistent/clip.mp4", "--json"], environment: try TestLanguages.environment(locale))
            #expect(error.stderr == englishError.stderr && error.status == englishError.status, "\(locale): \(error.stderr)")
            // The text form is translated.
            let text = try Subprocess.run(TestPaths.tool, ["info", clip.path], environment: try TestLanguages.environment(locale))
            #expect(TestLanguages.writtenIn(locale, text.stdout), "\(locale): \(text.stdout)")
        }
    }

    @Test("words an engine marks and a command shows are shown translated: a photo's colour profile in info, in each language, as the catalogue has it")
    func engineWordsTranslated() throws {
        let folder = TestPaths.scratchFolder("translations-engine-words")
        let photo = folder.appendingPathComponent("plain.png")
        let made = try Subprocess.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "color=c=gray:s=64x48", "-frames:v", "1", photo.path])
        try #require(made.status == 0, "\(made.stderr)")
        let english = try viewfinder("info", photo.path)
        #expect(english.stdout.contains("none (sRGB assumed)"), "\(english.stdout)")
        for locale in Self.languages {
            let environment = try TestLanguages.environment(locale)
            let translated = try Subprocess.run(TestPaths.tool, ["info", photo.path], environment: environment)
            // The catalogue's own lookup, through gettext (the program), is the oracle.
            let expected = try TestLanguages.translation("none (sRGB assumed)", locale)
            #expect(translated.stdout.contains(expected), "\(locale): \(translated.stdout)")
            #expect(!translated.stdout.contains("sRGB assumed"), "\(locale): \(translated.stdout)")
        }
    }

    @Test("Russian's three plural forms by count: 1 and 21 one, 2 to 4 another, 5 to 20 a third (the catalogue's rule, run through the tool)")
    func russianPlurals() throws {
        let folder = TestPaths.scratchFolder("translations-plural")
        let environment = try TestLanguages.environment("ru_RU.UTF-8")
        var said: [Int: String] = [:]
        for count in [1, 2, 4, 5, 11, 21] {
            // Files that are not media: each import fails, and the tool says how many did.
            let files = (0..<count).map { folder.appendingPathComponent("bad-\(count)-\($0).jpg") }
            for file in files { try Data("not a photo".utf8).write(to: file) }
            let result = try Subprocess.run(TestPaths.tool, ["library", "--library", folder.appendingPathComponent("lib-\(count)").path,
                                                             "import"] + files.map(\.path), environment: environment)
            #expect(result.status == 1, "\(result.stderr)")
            let line = result.stderr.split(separator: "\n").first { $0.hasPrefix("viewfinder: \(count) ") }
            let found: String = try #require(line.map(String.init), "\(count): \(result.stderr)")
            said[count] = found
        }
        let form = said.mapValues { $0.split(separator: " ")[2] }  // "viewfinder: 5 файлов …" → the noun
        #expect(form[1] == form[21] && form[2] == form[4] && form[5] == form[11], "\(said)")
        #expect(Set([form[1], form[2], form[5]]).count == 3, "three forms: \(said)")
        #expect(said.values.allSatisfy { TestLanguages.writtenIn("ru", $0) }, "\(said)")
    }

    @Test("a locale the machine has not generated still gets its language's messages (ru_UA → ru)")
    func ungeneratedLocale() throws {
        let available = try Subprocess.run("locale", ["-a"]).stdout.lowercased()
        try #require(!available.contains("ru_ua"), "this test needs ru_UA not generated")
        var environment = try TestLanguages.environment("ru_UA.UTF-8")
        environment["LANG"] = "ru_UA.UTF-8"
        let result = try Subprocess.run(TestPaths.tool, ["--help"], environment: environment)
        #expect(result.status == 0)
        #expect(TestLanguages.writtenIn("ru_RU.UTF-8", result.stdout), "\(result.stdout.prefix(300))")
    }

    // MARK: Reading the output

    /// The `--name` options a help page names.
    static func options(_ text: String) -> Set<String> {
        Set(text.matches(of: /--[a-z][a-z0-9-]+/).map { String($0.output) })
    }

    /// Words that stay as they are in every language: programs, commands, verbs, formats, units.
    static let untranslatable: Set<String> = [
        "viewfinder", "studio", "info", "cover", "filmstrip", "thumbnail", "convert", "trim", "avatar", "library", "devices",
        "capture", "animate", "sample", "init", "import", "list", "albums", "album", "create", "rename", "delete", "add",
        "remove", "export", "check", "photo", "video", "live", "best", "newest", "oldest", "name", "pick", "media",
        "jpg", "jpeg", "png", "webp", "gif", "mp4", "mov", "mkv", "heic", "heif", "avif", "hevc", "h264", "aac", "exif",
        "xmp", "iptc", "json", "srgb", "bt709", "bt2020", "hlg", "pq", "sdr", "hdr", "hdr10", "dolby", "vision",
        "display", "p3", "circle", "square", "high", "medium", "low", "virtual", "front", "back",
    ]

    /// Lines that still hold English prose: two English words in a row (not a list's "a, b"),
    /// once options, values (FILE, WxH), paths, formats, commands and code are left out.
    static func englishProse(_ text: String) -> [String] {
        text.split(separator: "\n").map(String.init).filter { line in
            let words = line.split(separator: " ").map { word -> (word: String, endsClause: Bool)? in
                let token = String(word.drop { "[(".contains($0) })
                if token.hasPrefix("-") || token.contains("/") || token.contains(".") || token.contains("=") || token.contains("|")
                    || token.contains(":") || token.contains("'") || token.contains("\"") || token.contains("…") || token.contains("{") {
                    return nil
                }
                let letters = token.trimmingCharacters(in: .punctuationCharacters)
                guard letters.count >= 3, letters.allSatisfy({ $0.isASCII && $0.isLetter }), letters != letters.uppercased(),
                      !untranslatable.contains(letters.lowercased()) else { return nil }
                return (letters, token.hasSuffix(",") || token.hasSuffix(";") || token.hasSuffix(")"))
            }
            return zip(words, words.dropFirst()).contains { first, second in
                guard let first, second != nil else { return false }
                return !first.endsClause
            }
        }
    }
}
