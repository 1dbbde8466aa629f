import Foundation

/// A JSON document as a tree, with object keys in the order written: the one JSON value of the
/// project. Scenes are read into it (`JSONValue(parsing:)`, which says at which key a document is
/// wrong), and the command line builds its `--json` output with it, so printed keys keep their
/// order and exact decimals stay exact.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    /// A number read from a document, or computed.
    case number(Double)
    /// A number already written out (exact decimals of a `MediaTime`), printed as it is.
    case literal(String)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// A whole number.
    public static func integer(_ value: Int64) -> JSONValue { .literal(String(value)) }
    /// A whole number.
    public static func int(_ value: Int) -> JSONValue { .literal(String(value)) }
    /// An exact time in seconds, written with its exact decimals.
    public static func time(_ t: MediaTime) -> JSONValue { .literal(t.decimalString) }
    /// A string, or null.
    public static func optional(_ text: String?) -> JSONValue { text.map(JSONValue.string) ?? .null }

    /// A short rendering for error messages: `"abc"`, `12`, `an array of 3`, `an object`.
    public var summary: String {
        switch self {
        case .null: "null"
        case .bool(let value): value ? "true" : "false"
        case .number(let value): JSONValue.text(of: value)
        case .literal(let text): text
        case .string(let value): JSONValue.quoted(value.count > 40 ? String(value.prefix(40)) + "…" : value)
        case .array(let items): trn("an array of {count}", "an array of {count}", items.count)
        case .object: tr("an object")
        }
    }
}

/// A JSON object's members in the order written. Written as an array of pairs —
/// `.object([("id", .int(3)), ("kind", .string("photo"))])` — and read by key.
public struct JSONObject: Sendable, Hashable, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    /// The members, in order (a key given twice keeps both; reading by key finds the last).
    public var members: [Member]

    /// One key and its value.
    public struct Member: Sendable, Hashable {
        public let key: String
        public let value: JSONValue
    }

    /// An object of `pairs`, in their order.
    public init(_ pairs: [(String, JSONValue)]) {
        members = pairs.map { Member(key: $0.0, value: $0.1) }
    }

    public init(arrayLiteral pairs: (String, JSONValue)...) { self.init(pairs) }
    public init(dictionaryLiteral pairs: (String, JSONValue)...) { self.init(pairs) }

    /// The value of `key` (the last one when the key is given twice).
    public subscript(key: String) -> JSONValue? {
        members.last { $0.key == key }?.value
    }

    /// The keys, in order.
    public var keys: [String] { members.map(\.key) }
}

// MARK: - Writing

extension JSONValue {
    /// How a document is laid out.
    public enum Layout: Sendable {
        /// Two-space indented, one member or item a line (the command line's `--json`).
        case indented
        /// One line, `", "` between items and `": "` after keys.
        case inline
    }

    /// The document as text.
    public func rendered(_ layout: Layout = .indented) -> String {
        var out = ""
        write(into: &out, layout: layout, depth: 0)
        return out
    }

    private func write(into out: inout String, layout: Layout, depth: Int) {
        switch self {
        case .null: out += "null"
        case .bool(let value): out += value ? "true" : "false"
        case .number(let value): out += JSONValue.text(of: value)
        case .literal(let text): out += text
        case .string(let value): out += JSONValue.quoted(value)
        case .array(let items):
            writeList(items.map { (nil, $0) }, open: "[", close: "]", into: &out, layout: layout, depth: depth)
        case .object(let object):
            writeList(object.members.map { ($0.key, $0.value) }, open: "{", close: "}", into: &out, layout: layout, depth: depth)
        }
    }

    private func writeList(_ entries: [(String?, JSONValue)], open: String, close: String,
                           into out: inout String, layout: Layout, depth: Int) {
        guard !entries.isEmpty else { return out += open + close }
        out += open
        let inner = String(repeating: "  ", count: depth + 1)
        for (index, (key, value)) in entries.enumerated() {
            if index > 0 { out += layout == .indented ? "," : ", " }
            if layout == .indented { out += "\n" + inner }
            if let key { out += JSONValue.quoted(key) + ": " }
            value.write(into: &out, layout: layout, depth: depth + 1)
        }
        if layout == .indented { out += "\n" + String(repeating: "  ", count: depth) }
        out += close
    }

    /// A number as a person writes it: integers without a fraction (`160`, not `160.0`), others
    /// in Swift's shortest exact form; `null` for infinities and NaN, which JSON cannot hold.
    public static func text(of value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    /// A quoted, escaped string.
    public static func quoted(_ value: String) -> String {
        var text = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        return text + "\""
    }
}
