import Foundation
import Testing
@testable import ViewfinderCore

@Suite("Localization")
struct LocalizationTests {
    @Test("placeholders are filled by name, in the order the translation puts them")
    func placeholders() {
        #expect(fillPlaceholders("{file}: not a video", placeholderTable(["file": "a.mp4"])) == "a.mp4: not a video")
        #expect(fillPlaceholders("{b} before {a}", placeholderTable(["a": 1, "b": 2])) == "2 before 1")
        #expect(fillPlaceholders("{x} and {x}", ["x": "y"]) == "y and y")
    }

    @Test("doubled braces write braces; an unknown or unclosed placeholder stays as written")
    func bracesAndMistakes() {
        #expect(fillPlaceholders("{{\"at\": {at}}}", ["at": "2"]) == "{\"at\": 2}")
        #expect(fillPlaceholders("{missing} here", ["file": "a"]) == "{missing} here")
        #expect(fillPlaceholders("open { brace", [:]) == "open { brace")
        #expect(fillPlaceholders("ends {", ["x": "1"]) == "ends {")
    }

    @Test("without a catalogue a message is its English, and a plural picks by count")
    func englishFallback() {
        #expect(tr("A message no catalogue holds {n}", ["n": 3]) == "A message no catalogue holds 3")
        #expect(trn("{count} thing nobody translates", "{count} things nobody translates", 1) == "1 thing nobody translates")
        #expect(trn("{count} thing nobody translates", "{count} things nobody translates", 5) == "5 things nobody translates")
        #expect(N_("marked") == "marked")
    }

    @Test("an untranslated message comes back whole, however long: gettext returns the caller's own pointer, read before it is freed")
    func untranslatedReadInTime() {
        for index in 0..<300 {
            let message = String(repeating: "long message ", count: 1 + index % 40) + "\(index) {n}"
            let expected = String(repeating: "long message ", count: 1 + index % 40) + "\(index) \(index)"
            #expect(tr(message, ["n": index]) == expected)
            #expect(trn(message, message + "s", index, ["n": index]) == (index == 1 ? expected : expected + "s"))
        }
    }

    @Test("numbers in messages as the locale writes them: a decimal comma in Russian, a point in English and Chinese")
    func decimals() {
        #expect(Localization.decimal(2.5, digits: 2, in: Locale(identifier: "ru_RU")) == "2,50")
        #expect(Localization.decimal(2.5, digits: 2, in: Locale(identifier: "zh_CN")) == "2.50")
        #expect(Localization.decimal(2.5, digits: 2, in: Locale(identifier: "en_US_POSIX")) == "2.50")
        #expect(Localization.decimal(0.0004, digits: 3, in: Locale(identifier: "de_DE")) == "0,000")
        #expect(Localization.decimal(-1.25, digits: 1, in: Locale(identifier: "fr_FR")) == "-1,2")
    }

    @Test("the environment's locale names become Foundation identifiers")
    func localeNames() {
        #expect(Localization.localeIdentifier("ru_RU.UTF-8") == "ru_RU")
        #expect(Localization.localeIdentifier("sr_RS.UTF-8@latin") == "sr_RS")
        #expect(Localization.localeIdentifier("zh_CN") == "zh_CN")
        #expect(Localization.languageCode(of: ["LANG": "ru_RU.UTF-8"]) == "ru_RU")
        #expect(Localization.languageCode(of: ["LC_ALL": "zh_CN.UTF-8", "LANG": "ru_RU.UTF-8"]) == "zh_CN")
        #expect(Localization.languageCode(of: ["LC_MESSAGES": "C", "LANG": "ru_RU.UTF-8"]) == nil)
        #expect(Localization.languageCode(of: [:]) == nil)
    }
}
