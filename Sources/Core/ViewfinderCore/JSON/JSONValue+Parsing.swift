import Foundation

/// Why a document could not be read, and where: a key path like `layers[0].shadowRadius`
/// (empty for the document itself).
public struct JSONError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Where, written as `layers[0].shadowRadius`.
    public let path: String
    /// What is wrong, in a person's words.
    public let message: String

    public var description: String { path.isEmpty ? message : tr("{path}: {message}", ["path": path, "message": message]) }
}

extension JSONValue {
    /// Reads a JSON document (any value at the top, whitespace around it). Unlike Foundation's
    /// readers it says what is wrong and where: syntax by line and column ("not valid JSON
    /// (…)"), nesting deeper than `maxDepth`, and numbers no Double can hold (the message ends
    /// with `limitNote`, which says what the reader accepts), each at its key. One pass, no
    /// error thrown and caught per value.
    public init(parsing data: Data, maxDepth: Int = 512, limitNote: String = tr("the limit is ±{limit}", ["limit": "1.8e308"])) throws(JSONError) {
        var parser = JSONParser(bytes: [UInt8](data), maxDepth: maxDepth, limitNote: limitNote)
        parser.skipSpace()
        self = try parser.value(depth: 0)
        parser.skipSpace()
        if parser.index < parser.bytes.count { throw parser.syntax(tr("more after the end of the document")) }
    }
}

/// A recursive-descent reader over the document's bytes.
private struct JSONParser {
    let bytes: [UInt8]
    let maxDepth: Int
    let limitNote: String
    var index = 0
    /// The keys and indices from the top to the value being read.
    var path: [PathStep] = []

    enum PathStep {
        case key(String)
        case index(Int)
    }

    init(bytes: [UInt8], maxDepth: Int, limitNote: String) {
        self.bytes = bytes
        self.maxDepth = maxDepth
        self.limitNote = limitNote
    }

    var pathText: String {
        var text = ""
        for step in path {
            switch step {
            case .key(let key): text += text.isEmpty ? key : "." + key
            case .index(let i): text += "[\(i)]"
            }
        }
        return text
    }

    func syntax(_ what: String) -> JSONError {
        var line = 1, column = 1
        for byte in bytes[0..<min(index, bytes.count)] {
            if byte == UInt8(ascii: "\n") { line += 1; column = 1 } else { column += 1 }
        }
        // TRANSLATORS: {what} says what was found ("an array that is not closed").
        return JSONError(path: "", message: tr("not valid JSON ({what} at line {line}, column {column})", ["what": what, "line": line, "column": column]))
    }

    mutating func skipSpace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    mutating func value(depth: Int) throws(JSONError) -> JSONValue {
        guard index < bytes.count else { throw syntax(bytes.isEmpty ? tr("an empty document") : tr("the document ends early")) }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try word("true", .bool(true))
        case UInt8(ascii: "f"): return try word("false", .bool(false))
        case UInt8(ascii: "n"): return try word("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw syntax(tr("unexpected '{character}'", ["character": Character(Unicode.Scalar(bytes[index]))]))
        }
    }

    mutating func word(_ text: String, _ result: JSONValue) throws(JSONError) -> JSONValue {
        let expected = Array(text.utf8)
        guard bytes.count - index >= expected.count, Array(bytes[index..<index + expected.count]) == expected else {
            throw syntax(tr("unexpected '{character}'", ["character": Character(Unicode.Scalar(bytes[index]))]))
        }
        index += expected.count
        return result
    }

    mutating func enter(_ depth: Int) throws(JSONError) {
        if depth > maxDepth {
            throw JSONError(path: "", message: trn("nested too deeply: more than {count} level of arrays and objects",
                                                             "nested too deeply: more than {count} levels of arrays and objects", maxDepth))
        }
    }

    mutating func array(depth: Int) throws(JSONError) -> JSONValue {
        try enter(depth)
        index += 1
        skipSpace()
        var items: [JSONValue] = []
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
        while true {
            path.append(.index(items.count))
            skipSpace()
            items.append(try value(depth: depth))
            path.removeLast()
            skipSpace()
            guard index < bytes.count else { throw syntax(tr("an array that is not closed")) }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
            throw syntax(tr("expected ',' or ']'"))
        }
    }

    mutating func object(depth: Int) throws(JSONError) -> JSONValue {
        try enter(depth)
        index += 1
        skipSpace()
        var members: [(String, JSONValue)] = []
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(JSONObject(members)) }
        while true {
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw syntax(tr("expected a key in quotes")) }
            let key = try string()
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw syntax(tr("expected ':' after a key")) }
            index += 1
            skipSpace()
            path.append(.key(key))
            members.append((key, try value(depth: depth)))
            path.removeLast()
            skipSpace()
            guard index < bytes.count else { throw syntax(tr("an object that is not closed")) }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(JSONObject(members)) }
            throw syntax(tr("expected ',' or '}'"))
        }
    }

    mutating func number() throws(JSONError) -> JSONValue {
        let start = index
        func digits(_ parser: inout JSONParser) -> Int {
            let from = parser.index
            while parser.index < parser.bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(parser.bytes[parser.index]) {
                parser.index += 1
            }
            return parser.index - from
        }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard digits(&self) > 0 else { throw syntax(tr("a number without digits")) }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits(&self) > 0 else { throw syntax(tr("a number without digits after the point")) }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits(&self) > 0 else { throw syntax(tr("a number without digits in its exponent")) }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw JSONError(path: pathText, message: tr("{number} is out of range (no number can be that large; {limit})", ["number": text, "limit": limitNote]))
        }
        return .number(value)
    }

    mutating func string() throws(JSONError) -> String {
        index += 1
        var scalars = String.UnicodeScalarView()
        var run = index
        func flush(_ parser: JSONParser, upTo end: Int, into scalars: inout String.UnicodeScalarView) {
            if end > run { scalars.append(contentsOf: String(decoding: parser.bytes[run..<end], as: UTF8.self).unicodeScalars) }
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                flush(self, upTo: index, into: &scalars)
                index += 1
                return String(scalars)
            }
            if byte < 0x20 { throw syntax(tr("a control character inside a string")) }
            guard byte == UInt8(ascii: "\\") else { index += 1; continue }
            flush(self, upTo: index, into: &scalars)
            index += 1
            guard index < bytes.count else { break }
            let escape = bytes[index]
            index += 1
            switch escape {
            case UInt8(ascii: "\""): scalars.append("\"")
            case UInt8(ascii: "\\"): scalars.append("\\")
            case UInt8(ascii: "/"): scalars.append("/")
            case UInt8(ascii: "b"): scalars.append("\u{8}")
            case UInt8(ascii: "f"): scalars.append("\u{C}")
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "t"): scalars.append("\t")
            case UInt8(ascii: "u"):
                var code = try hex4()
                if (0xD800...0xDBFF).contains(code), bytes.count - index >= 6,
                   bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
                    index += 2
                    let low = try hex4()
                    if (0xDC00...0xDFFF).contains(low) { code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00) }
                }
                scalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
            default: throw syntax(tr("an unknown escape in a string"))
            }
            run = index
        }
        throw syntax(tr("a string that is not closed"))
    }

    mutating func hex4() throws(JSONError) -> UInt32 {
        guard bytes.count - index >= 4 else { throw syntax(tr("a \\u escape without four hex digits")) }
        var code: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = Character(Unicode.Scalar(bytes[index])).hexDigitValue else {
                throw syntax(tr("a \\u escape without four hex digits"))
            }
            code = code << 4 | UInt32(digit)
            index += 1
        }
        return code
    }
}

extension JSONError: ReadableError {}
