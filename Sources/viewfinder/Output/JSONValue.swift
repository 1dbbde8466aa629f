import Foundation
import ViewfinderCore

/// A JSON document with keys kept in the order written, so output reads well and diffs cleanly.
enum JSONValue {
    case string(String)
    case integer(Int64)
    /// A number already formatted (exact decimals from `MediaTime`).
    case number(String)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([(String, JSONValue)])

    static func time(_ t: MediaTime) -> JSONValue { .number(t.decimalString) }
    static func int(_ i: Int) -> JSONValue { .integer(Int64(i)) }
    static func optional(_ s: String?) -> JSONValue { s.map(JSONValue.string) ?? .null }

    /// Two-space indented text.
    func rendered(indent: Int = 0) -> String {
        let pad = String(repeating: "  ", count: indent + 1)
        let closing = String(repeating: "  ", count: indent)
        switch self {
        case .string(let s): return JSONValue.quote(s)
        case .integer(let i): return String(i)
        case .number(let n): return n
        case .bool(let b): return b ? "true" : "false"
        case .null: return "null"
        case .array(let items):
            if items.isEmpty { return "[]" }
            return "[\n" + items.map { pad + $0.rendered(indent: indent + 1) }.joined(separator: ",\n") + "\n\(closing)]"
        case .object(let pairs):
            if pairs.isEmpty { return "{}" }
            return "{\n" + pairs.map { pad + JSONValue.quote($0.0) + ": " + $0.1.rendered(indent: indent + 1) }
                .joined(separator: ",\n") + "\n\(closing)}"
        }
    }

    private static func quote(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
