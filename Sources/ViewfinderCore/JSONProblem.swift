import Foundation

/// Why a piece of JSON could not be read, in a person's words: bad syntax, a number out of
/// range, or nesting too deep — the cases a decoder's "not valid JSON" lumps together.
public enum JSONProblem {
    /// How deeply arrays and objects may nest before Foundation's reader refuses them.
    public static let nestingLimit = 512

    /// What is wrong with `data` as JSON, or nil when it reads as JSON. `wholeNumbers` names
    /// the keys (dotted paths, like "outputSize.width") that must hold whole numbers, so that a
    /// number too large for one is reported at its key.
    public static func describe(_ data: Data, wholeNumbers: Set<String> = []) -> String? {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            let detail = ((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String) ?? ""
            if detail.hasPrefix("Too many nested") {
                return "nested too deeply (at most \(nestingLimit) levels of arrays and objects)"
            }
            if detail.hasPrefix("Number "), detail.hasSuffix(" is not representable in Swift.") {
                let number = detail.dropFirst("Number ".count).dropLast(" is not representable in Swift.".count)
                return "the number \(number) is out of range (beyond ±1.8e308)"
            }
            return detail.isEmpty ? "not valid JSON" : "not valid JSON (\(detail.trimmingCharacters(in: .punctuationCharacters)))"
        }
        if let key = firstWholeNumberOutOfRange(object, path: [], keys: wholeNumbers) {
            return "\"\(key.path)\" is \(key.value), out of range for a whole number"
        }
        return nil
    }

    private static func firstWholeNumberOutOfRange(_ value: Any, path: [String], keys: Set<String>) -> (path: String, value: String)? {
        if let object = value as? [String: Any] {
            for key in object.keys.sorted() {
                if let found = firstWholeNumberOutOfRange(object[key] as Any, path: path + [key], keys: keys) { return found }
            }
        } else if let number = value as? NSNumber, keys.contains(path.joined(separator: ".")) {
            let double = number.doubleValue
            if !(double.magnitude < 9.2e18) || double.rounded() != double {
                return (path.joined(separator: "."), "\(number)")
            }
        }
        return nil
    }
}
