import Foundation
import ViewfinderCore

/// Reads one JSON object of a scene, knowing where it is so errors can name the key.
struct SceneReader {
    let path: String
    let object: JSONObject

    init(_ value: JSONValue, at path: String) throws {
        guard case .object(let object) = value else { throw SceneError(path: path, message: tr("expected an object, got {value}", ["value": value.summary])) }
        self.path = path
        self.object = object
    }

    func at(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    func fail(_ key: String, _ message: String) -> SceneError { SceneError(path: at(key), message: message) }

    /// "expected WHAT, got VALUE": `what` is in the user's words already (`tr` at the caller).
    func expected(_ key: String, _ what: String, got value: JSONValue) -> SceneError {
        // TRANSLATORS: {what} is what a scene file's key takes ("a number"), {value} what it holds ("\"big\"", "an object").
        fail(key, tr("expected {what}, got {value}", ["what": what, "value": value.summary]))
    }

    /// Rejects keys the format does not have, so a typo is not silently ignored.
    func rejectUnknownKeys(_ known: Set<String>) throws {
        if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) {
            throw fail(unknown, tr("unknown key (known keys: {keys})", ["keys": known.sorted().joined(separator: ", ")]))
        }
    }

    func has(_ key: String) -> Bool { object[key] != nil }

    /// `value` at `key` is beyond `range`: `layers[0].shadowRadius: 1e308 is out of range (0…1000)`.
    func outOfRange(_ key: String, _ value: Double, _ range: ClosedRange<Double>) -> SceneError {
        fail(key, tr("{value} is out of range {range}", ["value": SceneLimits.number(value), "range": SceneLimits.describe(range)]))
    }

    /// Every number of a scene that no other limit bounds: ±`SceneLimits.maxMagnitude`.
    static let magnitude = -SceneLimits.maxMagnitude...SceneLimits.maxMagnitude

    /// The number at `key`, checked for range before anyone converts or multiplies it: below
    /// `minimum` is "expected a number ≥ …", beyond `maximum` (or the general magnitude) is
    /// out of range.
    func number(_ key: String, atLeast minimum: Double? = nil, atMost maximum: Double = SceneLimits.maxMagnitude) throws -> Double? {
        guard let value = object[key] else { return nil }
        guard case .number(let number) = value, number.isFinite else { throw expected(key, tr("a number"), got: value) }
        if let minimum, number < minimum { throw expected(key, tr("a number ≥ {minimum}", ["minimum": JSONValue.text(of: minimum)]), got: value) }
        let range = (minimum ?? -SceneLimits.maxMagnitude)...maximum
        guard range.contains(number) else { throw outOfRange(key, number, range) }
        return number
    }

    func bool(_ key: String) throws -> Bool? {
        guard let value = object[key] else { return nil }
        guard case .bool(let flag) = value else { throw expected(key, tr("true or false"), got: value) }
        return flag
    }

    func string(_ key: String) throws -> String? {
        guard let value = object[key] else { return nil }
        guard case .string(let text) = value else { throw expected(key, tr("a string"), got: value) }
        return text
    }

    /// An array of exactly one of `counts` numbers, each within `range`.
    func numbers(_ value: JSONValue, key: String, counts: [Int], what: String,
                 in range: ClosedRange<Double> = SceneReader.magnitude) throws -> [Double] {
        guard case .array(let items) = value, counts.contains(items.count) else { throw expected(key, what, got: value) }
        return try items.map { item in
            guard case .number(let number) = item, number.isFinite else { throw expected(key, what, got: value) }
            guard range.contains(number) else { throw outOfRange(key, number, range) }
            return number
        }
    }

    func point(_ value: JSONValue, key: String) throws -> Point {
        let xy = try numbers(value, key: key, counts: [2], what: "[x, y]")
        return Point(x: xy[0], y: xy[1])
    }

    func point(_ key: String) throws -> Point? {
        try object[key].map { try point($0, key: key) }
    }

    /// `[x, y, width, height]`, or `[width, height]` at the origin.
    func rect(_ value: JSONValue, key: String) throws -> Rect {
        let n = try numbers(value, key: key, counts: [2, 4], what: tr("[x, y, width, height] or [width, height]"))
        let rect = n.count == 2 ? Rect(x: 0, y: 0, width: n[0], height: n[1]) : Rect(x: n[0], y: n[1], width: n[2], height: n[3])
        guard rect.width >= 0, rect.height >= 0 else { throw expected(key, tr("a non-negative width and height"), got: value) }
        return rect
    }

    func rect(_ key: String) throws -> Rect? {
        try object[key].map { try rect($0, key: key) }
    }

    func color(_ value: JSONValue, key: String) throws -> RGBA {
        guard case .string(let text) = value, let color = RGBA(hex: text) else {
            throw expected(key, tr("a colour \"#rrggbb\" or \"#rrggbbaa\""), got: value)
        }
        return color
    }

    func color(_ key: String) throws -> RGBA? {
        try object[key].map { try color($0, key: key) }
    }

    /// The vector at `key`, if any (see `vector(_:key:default:)`).
    func vector(_ key: String, default base: Vector3) throws -> Vector3? {
        try object[key].map { try vector($0, key: key, default: base) }
    }

    /// A number for all three axes, or `[x, y]` (z unchanged) or `[x, y, z]`.
    func vector(_ value: JSONValue, key: String, default base: Vector3) throws -> Vector3 {
        if case .number(let n) = value, n.isFinite {
            guard Self.magnitude.contains(n) else { throw outOfRange(key, n, Self.magnitude) }
            return Vector3(all: n)
        }
        let n = try numbers(value, key: key, counts: [2, 3], what: tr("a number, [x, y] or [x, y, z]"))
        return Vector3(x: n[0], y: n[1], z: n.count == 3 ? n[2] : base.z)
    }

    /// A value of `kind` at `key`: numbers within `range`, a vector as `vector(_:key:default:)`
    /// reads it, a picture as a path or null.
    func value(_ json: JSONValue, kind: AnimatableValue.Kind, key: String, in range: ClosedRange<Double>,
               vectorDefault: Vector3 = .zero) throws -> AnimatableValue {
        switch kind {
        case .number:
            guard case .number(let n) = json, n.isFinite else { throw expected(key, tr("a number"), got: json) }
            guard range.contains(n) else { throw outOfRange(key, n, range) }
            return .number(n)
        case .point: return .point(try point(json, key: key))
        case .rect: return .rect(try rect(json, key: key))
        case .color: return .color(try color(json, key: key))
        case .vector: return .vector(try vector(json, key: key, default: vectorDefault))
        case .group:
            throw expected(key, tr("a value of a grouped sprite's part"), got: json)
        case .image:
            if case .null = json { return .image(nil) }
            guard case .string(let path) = json else { throw expected(key, tr("an image path or null"), got: json) }
            return .image(ImageReference(path))
        }
    }

    /// A layer's starting value of `property` at `key`, within the property's range.
    func modelValue(_ json: JSONValue, of property: AnimatedProperty, key: String) throws -> AnimatableValue {
        switch property.kind {
        case .number:
            // Through number(_:) so that a value below the minimum reads "expected a number ≥ …".
            return .number(try number(key, atLeast: property.minimum, atMost: property.maximum) ?? 0)
        case .image:
            return .image(ImageReference(try string(key) ?? ""))
        case .vector:
            return try value(json, kind: .vector, key: key, in: Self.magnitude, vectorDefault: defaultVector(of: property))
        default:
            return try value(json, kind: property.kind, key: key, in: Self.magnitude)
        }
    }

    /// What a vector property is by default: its z stays so when a scene gives only [x, y].
    func defaultVector(of property: AnimatedProperty) -> Vector3 {
        if case .vector(let v) = property.value(in: LayerState()) { return v }
        return .zero
    }
}
