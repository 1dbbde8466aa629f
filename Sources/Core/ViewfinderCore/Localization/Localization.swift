internal import CIntl
import Foundation

/// The language a person reads Viewfinder in: GNU gettext catalogues (`po/*.po`, compiled to
/// `viewfinder.mo`) chosen by the environment as every Linux program's are (`LANGUAGE`, `LC_ALL`,
/// `LC_MESSAGES`, `LANG`), and the matching `Locale` for dates and numbers.
///
/// Programs call ``start(executablePath:)`` once, before printing anything; libraries only call
/// ``tr(_:_:)`` and ``trn(_:_:_:_:)``. Machine-readable output (`--json`, option names, paths)
/// is never translated. How to mark a string and add a language: `po/README.md`.
public enum Localization {
    /// The gettext domain: the catalogues are `<dir>/<language>/LC_MESSAGES/viewfinder.mo`.
    public static let domain = "viewfinder"

    /// Where the catalogues were found, once ``start(executablePath:)`` has run; nil when none
    /// were (then every string stays English).
    public nonisolated(unsafe) private(set) static var catalogueDirectory: String?

    /// Takes the user's language from the environment and binds the catalogues: from
    /// `$VIEWFINDER_LOCALEDIR` when set, else `locale/` beside the executable (a build tree:
    /// `make` compiles them there), else `../share/locale` from it (an installed program).
    ///
    /// Numbers stay in the C locale for the C libraries (FFmpeg and libvips parse "0.5" with
    /// `strtod`); Viewfinder formats numbers a person reads with ``locale`` instead. When the
    /// user's locale is not installed on the machine, messages still follow its language (the C
    /// library then runs in C.UTF-8 with `LANGUAGE` set from it).
    public static func start(executablePath: String? = nil) {
        if setlocale(LC_ALL, "") == nil {
            _ = setlocale(LC_ALL, "C.UTF-8")
            let environment = ProcessInfo.processInfo.environment
            if (environment["LANGUAGE"] ?? "").isEmpty, let language = languageCode(of: environment) {
                setenv("LANGUAGE", language, 1)
            }
        }
        _ = setlocale(LC_NUMERIC, "C")
        let executable = executablePath ?? Self.executablePath()
        guard let directory = findCatalogues(executable: executable) else { return }
        catalogueDirectory = directory
        _ = bindtextdomain(domain, directory)
        _ = bind_textdomain_codeset(domain, "UTF-8")
    }

    /// From now on every message is English and numbers and dates are written as in C, whatever
    /// the environment says: for output a program reads (`--json`), so that what it parses does
    /// not change with the user's language.
    public static func useEnglish() {
        english = true
        _ = bindtextdomain(domain, "/nonexistent/viewfinder-english")
    }

    nonisolated(unsafe) private static var english = false

    /// The locale dates and numbers a person reads are written in: the one `LC_ALL`, `LC_TIME`
    /// or `LANG` names ("ru_RU.UTF-8" → ru_RU), or the C library's English when none does.
    /// (Foundation's `Locale.current` does not read the environment on Linux.)
    public static var locale: Locale {
        if english { return Locale(identifier: "en_US_POSIX") }
        let environment = ProcessInfo.processInfo.environment
        for name in ["LC_ALL", "LC_TIME", "LANG"] {
            guard let value = environment[name], !value.isEmpty else { continue }
            let identifier = localeIdentifier(value)
            if identifier == "C" || identifier == "POSIX" { break }
            return Locale(identifier: identifier)
        }
        return Locale(identifier: "en_US_POSIX")
    }

    /// `value` with `digits` decimals as a person in the user's locale writes it ("2,50" in
    /// Russian, "2.50" in English and Chinese): for numbers in messages, never in
    /// machine-readable output.
    public static func decimal(_ value: Double, digits: Int) -> String {
        decimal(value, digits: digits, in: locale)
    }

    static func decimal(_ value: Double, digits: Int, in locale: Locale) -> String {
        let written = String(format: "%.\(max(0, digits))f", value)
        guard let separator = locale.decimalSeparator, separator != "." else { return written }
        return written.replacingOccurrences(of: ".", with: separator)
    }

    /// "ru_RU.UTF-8@euro" → "ru_RU".
    static func localeIdentifier(_ value: String) -> String {
        String(value.prefix { $0 != "." && $0 != "@" })
    }

    /// The language the environment asks for messages in, for `LANGUAGE` ("ru_RU.UTF-8" → "ru_RU").
    static func languageCode(of environment: [String: String]) -> String? {
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            guard let value = environment[name], !value.isEmpty else { continue }
            let identifier = localeIdentifier(value)
            return identifier == "C" || identifier == "POSIX" ? nil : identifier
        }
        return nil
    }

    /// The first directory that holds any compiled catalogue of ours.
    static func findCatalogues(executable: String) -> String? {
        if let named = ProcessInfo.processInfo.environment["VIEWFINDER_LOCALEDIR"], !named.isEmpty {
            return named
        }
        let folder = URL(fileURLWithPath: executable).deletingLastPathComponent()
        let candidates = [
            folder.appendingPathComponent("locale"),
            folder.deletingLastPathComponent().appendingPathComponent("share/locale"),
        ]
        for candidate in candidates where holdsCatalogue(candidate) {
            return candidate.path
        }
        return nil
    }

    private static func holdsCatalogue(_ directory: URL) -> Bool {
        guard let languages = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return false }
        return languages.contains { language in
            FileManager.default.fileExists(atPath: directory.appendingPathComponent("\(language)/LC_MESSAGES/\(domain).mo").path)
        }
    }

    private static func executablePath() -> String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }
}

/// The translation of `message` in the user's language, its `{name}` placeholders filled from
/// `values` (`{{` and `}}` write a brace). `message` must be a string literal, so that
/// `scripts/update-po` finds it; a string marked elsewhere with ``N_(_:)`` is translated where
/// it is shown by passing it here.
///
///     tr("{file}: not a video", ["file": path])
public func tr(_ message: String, _ values: KeyValuePairs<String, any CustomStringConvertible> = [:]) -> String {
    let translated = message.isEmpty ? message : Localization.domain.withCString { domain in
        message.withCString { id in String(cString: dgettext(domain, id)) }
    }
    return fillPlaceholders(translated, placeholderTable(values))
}

/// The translation of a message that counts something, in the plural form the user's language
/// uses for `count` (Russian has three, Chinese one); `{count}` is filled with the count.
///
///     trn("{count} photo", "{count} photos", photos.count)
public func trn(
    _ singular: String, _ plural: String, _ count: Int,
    _ values: KeyValuePairs<String, any CustomStringConvertible> = [:]
) -> String {
    // Read inside the closures: without a translation gettext returns the message's own pointer,
    // which an implicit String-to-pointer conversion frees as soon as the call returns.
    let translated = Localization.domain.withCString { domain in
        singular.withCString { one in
            plural.withCString { many in String(cString: dngettext(domain, one, many, UInt(clamping: count))) }
        }
    }
    var table = placeholderTable(values)
    table["count"] = table["count"] ?? String(count)
    return fillPlaceholders(translated, table)
}

/// Marks a literal for translation without translating it yet: for text declared in one place
/// (an option's help, a command's summary) and shown through ``tr(_:_:)`` in another.
@inline(__always)
public func N_(_ message: String) -> String { message }

/// Replaces each `{name}` with its value; `{{` and `}}` stand for braces; a name without a value
/// is left as written (a catalogue's mistake shows rather than vanishes).
func fillPlaceholders(_ text: String, _ table: [String: String]) -> String {
    guard text.contains("{") || text.contains("}") else { return text }
    var result = ""
    var index = text.startIndex
    while index < text.endIndex {
        let character = text[index]
        let next = text.index(after: index)
        if character == "{", next < text.endIndex, text[next] == "{" {
            result.append("{"); index = text.index(after: next); continue
        }
        if character == "}", next < text.endIndex, text[next] == "}" {
            result.append("}"); index = text.index(after: next); continue
        }
        if character == "{", let close = text[next...].firstIndex(of: "}"),
           let value = table[String(text[next..<close])] {
            result += value
            index = text.index(after: close)
            continue
        }
        result.append(character)
        index = next
    }
    return result
}

/// The values' descriptions by name (the first of a repeated name counts).
func placeholderTable(_ values: KeyValuePairs<String, any CustomStringConvertible>) -> [String: String] {
    var table: [String: String] = [:]
    for (name, value) in values where table[name] == nil {
        table[name] = value.description
    }
    return table
}
