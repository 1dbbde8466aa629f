import Foundation
import Testing

@testable import ViewfinderCore

@Suite("JSON values and text")
struct JSONValueTests {
    @Test("booleans, numbers, strings, arrays, objects and null decode as themselves")
    func decodes() throws {
        let value = try JSONValue(parsing: Data(#"{"a": [true, 1, "x", null]}"#.utf8))
        #expect(value == .object(["a": .array([.bool(true), .number(1), .string("x"), .null])]))
    }

    @Test("numbers print as a person writes them; non-finite numbers print as null")
    func numbers() {
        #expect(JSONValue.text(of: 160) == "160" && JSONValue.text(of: -0.0) == "0" && JSONValue.text(of: 0.5) == "0.5")
        #expect(JSONValue.text(of: 1.5707963267948966) == "1.5707963267948966" && JSONValue.text(of: .nan) == "null")
        #expect(JSONValue.text(of: 1e-5) == "1e-05")
    }

    @Test("strings are escaped")
    func strings() {
        #expect(JSONValue.quoted("a\"b\\c\n\u{1}") == #""a\"b\\c\n\u0001""#)
    }

    @Test("objects keep their keys in order; indented and inline layouts")
    func layouts() throws {
        let value = JSONValue.object([("z", .int(1)), ("a", .array([.literal("0.466667"), .null])), ("m", .object([]))])
        #expect(value.rendered() == "{\n  \"z\": 1,\n  \"a\": [\n    0.466667,\n    null\n  ],\n  \"m\": {}\n}")
        #expect(value.rendered(.inline) == #"{"z": 1, "a": [0.466667, null], "m": {}}"#)
        let read = try JSONValue(parsing: Data(#"{"z": 1, "a": 2, "z": 3}"#.utf8))
        guard case .object(let object) = read else { Issue.record("not an object"); return }
        #expect(object.keys == ["z", "a", "z"] && object["z"] == .number(3))
    }

    @Test("what is wrong, and where: syntax by line and column, depth, numbers out of range at their key",
          arguments: [
            ("", "", "not valid JSON (an empty document at line 1, column 1)"),
            ("{\n  \"a\": tru}", "", "not valid JSON (unexpected 't' at line 2, column 8)"),
            (#"{"a": [1, 2}"#, "", "not valid JSON (expected ',' or ']' at line 1, column 12)"),
            (#"{"a": 1} x"#, "", "not valid JSON (more after the end of the document at line 1, column 10)"),
            (#"{"a": "\q"}"#, "", "not valid JSON (an unknown escape in a string at line 1, column 10)"),
            (#"{"layers": [{}, {"r": 1e309}]}"#, "layers[1].r", "1e309 is out of range (no number can be that large; the limit is ±1.8e308)"),
            (String(repeating: "[", count: 513) + String(repeating: "]", count: 513), "", "nested too deeply: more than 512 levels of arrays and objects"),
          ])
    func problems(_ text: String, _ path: String, _ message: String) {
        do {
            _ = try JSONValue(parsing: Data(text.utf8))
            Issue.record("\(text.prefix(40)) was read")
        } catch {
            #expect(error == JSONError(path: path, message: message))
        }
    }

    @Test("strings: escapes, surrogate pairs, raw UTF-8")
    func parsedStrings() throws {
        #expect(try JSONValue(parsing: Data(#""a\"b\\c\n\u00e9\ud83d\ude00/é""#.utf8)) == .string("a\"b\\c\né😀/é"))
        let round = "tab\t quote\" \u{1} é 😀"
        #expect(try JSONValue(parsing: Data(JSONValue.quoted(round).utf8)) == .string(round))
    }
}
