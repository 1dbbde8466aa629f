import Foundation

/// One pass over a scene's bytes before decoding, for the two faults Foundation's decoder
/// reports in its own words: arrays and objects nested deeper than `SceneLimits.maxJSONDepth`
/// (past 512 levels it calls the document "not valid JSON"; below, deep nesting costs stack in
/// every reader after it) and numbers beyond what a Double holds (a "type mismatch"). Both are
/// reported with the key where they are. Anything else malformed is left to the decoder.
enum JSONPreflight {
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

    static func check(_ data: Data) throws(SceneError) {
        let bytes = [UInt8](data)
        var stack: [Container] = []
        var i = 0
        while i < bytes.count {
            switch bytes[i] {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let isObject = bytes[i] == UInt8(ascii: "{")
                stack.append(Container(isObject: isObject, expectsKey: isObject))
                if stack.count > SceneLimits.maxJSONDepth {
                    throw SceneError(path: "", message: "nested too deeply: more than \(SceneLimits.maxJSONDepth) levels of arrays and objects")
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
                    throw SceneError(path: path(of: stack, in: bytes),
                                     message: "\(text) is out of range (no number can be that large; the limit is ±\(SceneLimits.number(SceneLimits.maxMagnitude)))")
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
