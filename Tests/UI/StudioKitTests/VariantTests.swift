import Testing
@testable import StudioKit

/// D-Bus values as the portal backend reads and writes them, checked through GLib's own text
/// form (`gdbus` prints the same) and by reading back what was built.
@Suite("StudioKit: D-Bus values")
struct VariantTests {
    @Test("plain values read back as what they are, and as nothing else")
    func plainValues() {
        let text = Variant("Open Notes")
        #expect(text.type == "s" && text.string == "Open Notes" && text.bool == nil && text.uint32 == nil && text.bytes == nil)
        #expect(text.text == "'Open Notes'")
        let yes = Variant(true)
        #expect(yes.type == "b" && yes.bool == true && yes.string == nil)
        let number = Variant(UInt32(4_000_000_000))
        #expect(number.type == "u" && number.uint32 == 4_000_000_000 && number.bool == nil)
        #expect(number.children.isEmpty, "a plain value has no items")
    }

    @Test("a reply tuple (u, a{sv}) holds the response and the URIs, in order")
    func replyTuple() throws {
        let reply = Variant(tuple: [Variant(UInt32(0)),
                                    Variant(dictionary: [("uris", Variant(strings: ["file:///a.jpg", "file:///b%20c.jpg"]))])])
        #expect(reply.type == "(ua{sv})")
        let items = reply.children
        try #require(items.count == 2)
        #expect(items[0].uint32 == 0)
        let uris = try #require(items[1]["uris"])
        #expect(uris.type == "as" && uris.children.compactMap(\.string) == ["file:///a.jpg", "file:///b%20c.jpg"])
        #expect(items[1]["choices"] == nil, "an absent key is nil")
        #expect(items[0]["uris"] == nil, "a number is no dictionary")
        #expect(reply.text == "(uint32 0, {'uris': <['file:///a.jpg', 'file:///b%20c.jpg']>})")
    }

    @Test("a request's options as the portal sends them: filters, a NUL-ended path, booleans")
    func parsedOptions() throws {
        let options = try #require(Variant(parsing: "{'multiple': <true>, 'current_folder': <b'/home/me/Pictures'>, "
                                           + "'filters': <[('Images', [(uint32 1, 'image/*'), (0, '*.jpg')])]>}", type: "a{sv}"))
        #expect(options["multiple"]?.bool == true)
        #expect(options["current_folder"]?.bytes == Array("/home/me/Pictures".utf8) + [0], "GLib's bytestring form ends in a NUL")
        let filters = try #require(options["filters"])
        #expect(filters.type == "a(sa(us))")
        let rules = filters.children.first?.children.last?.children ?? []
        #expect(rules.map { $0.children.first?.uint32 } == [1, 0])
        #expect(rules.map { $0.children.last?.string } == ["image/*", "*.jpg"])
    }

    @Test("text that is not a value of the type, or a type that is no signature, gives nil")
    func refusedText() {
        #expect(Variant(parsing: "'text'", type: "u") == nil)
        #expect(Variant(parsing: "{'a': <1>", type: "a{sv}") == nil)
        #expect(Variant(parsing: "1", type: "not a type") == nil)
        #expect(Variant(parsing: "", type: "s") == nil)
        #expect(Variant(parsing: "[]", type: "as")?.children.isEmpty == true)
    }
}
