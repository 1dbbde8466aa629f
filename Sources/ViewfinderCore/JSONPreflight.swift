import Foundation

/// One pass over JSON bytes before decoding, for the faults Foundation's decoder reports in its
/// own words: arrays and objects nested deeper than a reader allows (past 512 levels it calls
/// the document "not valid JSON"; below, deep nesting costs stack in every reader after it),
/// numbers beyond what a Double holds (a "type mismatch" or "not valid JSON"), and, for keys a
/// reader names, numbers too large for a whole number. Each is reported with the key where it
/// is. Anything else malformed is left to the decoder. Scenes and crop specs both use it.
public enum JSONPreflight {
    /// A fault and where it is: a key path like `layers[0].shadowRadius` (empty for the document).
    public struct Problem: Error, Sendable, Equatable {
        /// Where, written as `layers[0].shadowRadius`.
        public let path: String
        /// What is wrong.
        public let message: String
    }

    /// An open array or object, and where in it the scan is.
    private struct Container {
        let isObject: Bool
        /// The bytes of the current key (objects), without quotes.
        var key: Range<Int>?
        /// The current element (arrays).
        var index = 0
        /// Whether a string read now is a key (objects, after `{` or `,`).
        var expectsKey: Bool
    }

    /// Throws the first fault in `data`: nesting deeper than `maxDepth`, a number no Double can
    /// hold (its message ends with `limitNote`, which says what the reader accepts), or a number
    /// that is not a whole number in `Int`'s range at one of `wholeNumbers` (dotted key paths).
    public static func check(_ data: Data, maxDepth: Int, limitNote: String,
                             wholeNumbers: Set<String> = []) throws(Problem) {
        let bytes = [UInt8](data)
        var stack: [Container] = []
        var i = 0
        while i < bytes.count {
            switch bytes[i] {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let isObject = bytes[i] == UInt8(ascii: "{")
                stack.append(Container(isObject: isObject, expectsKey: isObject))
                if stack.count > maxDepth {
                    throw Problem(path: "", message: "nested too deeply: more than \(maxDepth) levels of arrays and objects")
                }
                i += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                guard stack.popLast() != nil else { return }
                i += 1
            case UInt8(ascii: ","):
                guard !stack.isEmpty else { return }
                if stack[stack.count - 1].isObject {
                    stack[stack.count - 1].expectsKey = true
                } else {
                    stack[stack.count - 1].index += 1
                }
                i += 1
            case UInt8(ascii: ":"):
                guard !stack.isEmpty else { return }
                stack[stack.count - 1].expectsKey = false
                i += 1
            case UInt8(ascii: "\""):
                let start = i + 1
                i = start
                while i < bytes.count && bytes[i] != UInt8(ascii: "\"") {
                    i += bytes[i] == UInt8(ascii: "\\") ? 2 : 1
                }
                guard i < bytes.count else { return }
                if let last = stack.indices.last, stack[last].expectsKey { stack[last].key = start..<i }
                i += 1
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                let start = i
                while i < bytes.count, isNumberByte(bytes[i]) { i += 1 }
                let text = String(decoding: bytes[start..<i], as: UTF8.self)
                if let value = Double(text), !value.isFinite {
                    throw Problem(path: path(of: stack, in: bytes),
                                  message: "\(text) is out of range (no number can be that large; \(limitNote))")
                }
                if !wholeNumbers.isEmpty, Int(text) == nil, wholeNumbers.contains(path(of: stack, in: bytes)),
                   let value = Double(text), !(value.rounded() == value && value.magnitude < 9.2e18) {
                    throw Problem(path: path(of: stack, in: bytes), message: "\(text) is out of range for a whole number")
                }
            default:
                i += 1
            }
        }
    }

    private static func isNumberByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."),
             UInt8(ascii: "e"), UInt8(ascii: "E"): true
        default: false
        }
    }

    /// Where the scan is, written as `SceneReader` names keys: `layers[0].shadowRadius`.
    private static func path(of stack: [Container], in bytes: [UInt8]) -> String {
        var path = ""
        for container in stack {
            if container.isObject {
                guard let key = container.key else { continue }
                if !path.isEmpty { path += "." }
                path += String(decoding: bytes[key], as: UTF8.self)
            } else {
                path += "[\(container.index)]"
            }
        }
        return path
    }
}
