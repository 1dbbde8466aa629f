import Foundation

/// Checks JSON before a `Decodable` reader sees it, for the faults Foundation's decoder reports
/// in its own words ("not valid JSON", "type mismatch"): nesting too deep and numbers out of
/// range, each at its key — read by `JSONValue(parsing:)` — and, for keys a reader names,
/// numbers too large for a whole number. Crop specs use it.
public enum JSONPreflight {
    /// Throws the first fault in `data` (see `JSONValue(parsing:)`), or a number beyond `Int`'s
    /// range at one of `wholeNumbers` (dotted key paths like `size.width`).
    public static func check(_ data: Data, maxDepth: Int, limitNote: String,
                             wholeNumbers: Set<String> = []) throws(JSONError) {
        let document = try JSONValue(parsing: data, maxDepth: maxDepth, limitNote: limitNote)
        for path in wholeNumbers.sorted() {
            var value: JSONValue? = document
            for key in path.split(separator: ".") {
                guard case .object(let object)? = value else { value = nil; break }
                value = object[String(key)]
            }
            if case .number(let number)? = value, !(number.magnitude < 9.2e18) {
                throw JSONError(path: path, message: tr("{number} is out of range for a whole number", ["number": JSONValue.text(of: number)]))
            }
        }
    }
}
