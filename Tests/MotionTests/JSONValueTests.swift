import Foundation
import Testing

@testable import Motion

@Suite("JSON values and text")
struct JSONValueTests {
    @Test("booleans, numbers, strings, arrays, objects and null decode as themselves")
    func decodes() throws {
        let value = try JSONDecoder().decode(JSONValue.self, from: Data(#"{"a": [true, 1, "x", null]}"#.utf8))
        #expect(value == .object(["a": .array([.bool(true), .number(1), .string("x"), .null])]))
    }

    @Test("numbers print as a person writes them; non-finite numbers print as null")
    func numbers() {
        #expect(JSONText.number(160) == "160" && JSONText.number(-0.0) == "0" && JSONText.number(0.5) == "0.5")
        #expect(JSONText.number(1.5707963267948966) == "1.5707963267948966" && JSONText.number(.nan) == "null")
        #expect(JSONText.number(1e-5) == "1e-05")
    }

    @Test("strings are escaped")
    func strings() {
        #expect(JSONText.string("a\"b\\c\n\u{1}") == #""a\"b\\c\n\u0001""#)
    }
}
