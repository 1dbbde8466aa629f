import Foundation
import Testing
import ViewfinderCore

@Suite("RGBA colours")
struct RGBATests {
    @Test("reads #rrggbb, #rrggbbaa and #rgb")
    func readsHex() throws {
        let red = try #require(RGBA(hex: "#ff0000"))
        #expect(red == RGBA(red: 1, green: 0, blue: 0, alpha: 1))
        let translucent = try #require(RGBA(hex: "00ff0080"))
        #expect(translucent.green == 1 && translucent.alpha == 128.0 / 255)
        #expect(RGBA(hex: "#0f0") == RGBA(red: 0, green: 1, blue: 0))
    }

    @Test("rejects other lengths and non-hex digits", arguments: ["", "#", "#12", "#12345", "#1234567", "#gg0000", "red"])
    func rejects(text: String) {
        #expect(RGBA(hex: text) == nil)
    }

    @Test("writes #rrggbbaa, clamped and rounded")
    func writesHex() {
        #expect(RGBA(red: 1, green: 0, blue: 0).hex == "#ff0000ff")
        #expect(RGBA(red: 2, green: -1, blue: 0.5, alpha: 0).hex == "#ff008000")
        #expect(RGBA(RGB(0x12, 0x34, 0x56)).hex == "#123456ff")
    }
}
