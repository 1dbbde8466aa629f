import Foundation
import ViewfinderCore

/// Which of a layer's values a sprite animates (Core Animation's key path), and everything the
/// rest of Motion needs to know about it: what kind of value it holds, how to read and write it
/// in a `LayerState`, and how a scene file spells it.
///
/// The layer's own values are the entries of `AnimatedProperty.all` (see
/// `AnimatedProperty+Table.swift`); the scene parsers, the presentation JSON and the sprites all
/// read that table, so a new property is one entry there (plus its stored value in `LayerState`,
/// and its drawing in the renderer if it is drawn).
public struct AnimatedProperty: Sendable, Hashable, CustomStringConvertible {
    /// What two properties are compared by: a name, or (for `custom(_:)`) a key path.
    enum Identity: Sendable, Hashable {
        case key(String)
        case keyPath(LayerKeyPath)
    }

    /// What only parsing, bookkeeping and the JSON read, kept behind one reference so that a
    /// sprite's evaluation data copies one pointer, not a dozen.
    final class Details: Sendable {
        let key: String
        let sceneKey: String?
        let spriteKinds: [String]
        let minimum: Double?
        let maximum: Double
        let spriteLimit: Double?
        let parts: [(name: String, property: AnimatedProperty)]
        let identity: Identity
        let read: @Sendable (LayerState) -> AnimatableValue
        let write: @Sendable (inout LayerState, AnimatableValue) -> Void

        init(key: String, sceneKey: String?, spriteKinds: [String], minimum: Double?, maximum: Double, spriteLimit: Double?,
             parts: [(name: String, property: AnimatedProperty)], identity: Identity,
             read: @escaping @Sendable (LayerState) -> AnimatableValue,
             write: @escaping @Sendable (inout LayerState, AnimatableValue) -> Void) {
            self.key = key
            self.sceneKey = sceneKey
            self.spriteKinds = spriteKinds
            self.minimum = minimum
            self.maximum = maximum
            self.spriteLimit = spriteLimit
            self.parts = parts
            self.identity = identity
            self.read = read
            self.write = write
        }
    }

    let details: Details
    /// The kind of value it holds.
    public let kind: AnimatableValue.Kind
    /// Where a plain value (a number, point, rectangle, colour or vector) lives in `LayerState`'s
    /// bytes, so that sprites write it directly, thousands per frame, without a call through a
    /// closure and a key path; `count` numbers in a row for a uniform scale. Nil: the closure.
    let storage: (offset: Int, count: Int)?
    /// The range written numbers are clamped to (opacity: 0…1).
    let clamp: ClosedRange<Double>?

    /// Core Animation's key path for it, e.g. "transform.rotation.z".
    public var key: String { details.key }
    /// Its key among a scene layer's values and in the presentation JSON; nil for a part of one
    /// (a single axis, which a scene reaches through a sprite's `axis`).
    public var sceneKey: String? { details.sceneKey }
    /// The scene sprite kinds that animate it (e.g. "fade" and "opacity").
    var spriteKinds: [String] { details.spriteKinds }
    /// The range a number of it must lie in as a scene layer's value; nil lower bound: any.
    var minimum: Double? { details.minimum }
    var maximum: Double { details.maximum }
    /// A bound on a scene sprite's values and offsets (±), when the general one is too loose.
    var spriteLimit: Double? { details.spriteLimit }
    /// For a grouped sprite's property: its parts, each with the name scenes give it.
    public var parts: [(name: String, property: AnimatedProperty)] { details.parts }
    var identity: Identity { details.identity }

    /// A property stored at `path` in `LayerState`; its kind is that of the stored value.
    init<Value: Animatable>(_ key: String, _ path: WritableKeyPath<LayerState, Value> & Sendable,
                            scene sceneKey: String? = nil, kinds: [String]? = nil, atLeast minimum: Double? = nil,
                            atMost maximum: Double = SceneLimits.maxMagnitude, spriteLimit: Double? = nil,
                            clamp: ClosedRange<Double>? = nil) {
        let write: @Sendable (inout LayerState, AnimatableValue) -> Void
        if let clamp {
            write = { state, value in
                guard case .number(let n) = value, let clamped = Value(animatableValue: .number(min(max(n, clamp.lowerBound), clamp.upperBound))) else { return }
                state[keyPath: path] = clamped
            }
        } else {
            write = { state, value in
                if let value = Value(animatableValue: value) { state[keyPath: path] = value }
            }
        }
        let kind = LayerState()[keyPath: path].animatableValue.kind
        self.init(key: key, kind: kind, sceneKey: sceneKey ?? key,
                  spriteKinds: kinds ?? [sceneKey ?? key], minimum: minimum, maximum: maximum, spriteLimit: spriteLimit,
                  storage: kind == .image ? nil : MemoryLayout<LayerState>.offset(of: path).map { ($0, 1) }, clamp: clamp,
                  read: { $0[keyPath: path].animatableValue }, write: write)
    }

    /// A property read and written by closures (a part of a stored value, or a key path).
    init(key: String, kind: AnimatableValue.Kind, sceneKey: String? = nil, spriteKinds: [String] = [],
         minimum: Double? = nil, maximum: Double = SceneLimits.maxMagnitude, spriteLimit: Double? = nil,
         identity: Identity? = nil, parts: [(name: String, property: AnimatedProperty)] = [],
         storage: (offset: Int, count: Int)? = nil, clamp: ClosedRange<Double>? = nil,
         read: @escaping @Sendable (LayerState) -> AnimatableValue,
         write: @escaping @Sendable (inout LayerState, AnimatableValue) -> Void) {
        self.kind = kind
        self.storage = storage
        self.clamp = clamp
        details = Details(key: key, sceneKey: sceneKey, spriteKinds: spriteKinds, minimum: minimum, maximum: maximum,
                          spriteLimit: spriteLimit, parts: parts, identity: identity ?? .key(key), read: read, write: write)
    }


    /// The property's current value in `state`.
    public func value(in state: LayerState) -> AnimatableValue {
        details.read(state)
    }

    /// Writes `value` into `state`; a value of the wrong kind is ignored (the chain's types and
    /// the scene parser never produce one).
    public func set(_ value: AnimatableValue, in state: inout LayerState) {
        guard let storage else { return details.write(&state, value) }
        withUnsafeMutableBytes(of: &state) { bytes in
            // Only a value of the property's own kind is stored, so no neighbour is overwritten.
            switch (kind, value) {
            case (.number, .number(var n)):
                if let clamp { n = min(max(n, clamp.lowerBound), clamp.upperBound) }
                for index in 0..<storage.count {
                    bytes.storeBytes(of: n, toByteOffset: storage.offset + index * MemoryLayout<Double>.stride, as: Double.self)
                }
            case (.point, .point(let p)): bytes.storeBytes(of: p, toByteOffset: storage.offset, as: Point.self)
            case (.rect, .rect(let r)): bytes.storeBytes(of: r, toByteOffset: storage.offset, as: Rect.self)
            case (.color, .color(let c)): bytes.storeBytes(of: c, toByteOffset: storage.offset, as: RGBA.self)
            case (.vector, .vector(let v)): bytes.storeBytes(of: v, toByteOffset: storage.offset, as: Vector3.self)
            default: break
            }
        }
    }

    /// Several properties animated as one sprite (one id, one didStop, one timing): its value is
    /// a `.group` with one entry per part, in order; a part given as nil is left alone.
    static func group(_ key: String, _ parts: [(name: String, property: AnimatedProperty)]) -> AnimatedProperty {
        let properties = parts.map(\.property)
        return AnimatedProperty(key: key, kind: .group, parts: parts,
                                read: { state in .group(properties.map { $0.value(in: state) }) },
                                write: { state, value in
                                    guard case .group(let values) = value, values.count == properties.count else { return }
                                    for index in properties.indices {
                                        if let part = values[index] { properties[index].set(part, in: &state) }
                                    }
                                })
    }

    /// A number inside a stored value, e.g. `position.x`: a part of a group, not in scenes by itself.
    static func part(_ key: String, _ path: WritableKeyPath<LayerState, Double> & Sendable) -> AnimatedProperty {
        AnimatedProperty(key: key, kind: .number, storage: MemoryLayout<LayerState>.offset(of: path).map { ($0, 1) }, read: { .number($0[keyPath: path]) },
                         write: { state, value in
                             if case .number(let n) = value { state[keyPath: path] = n }
                         })
    }

    /// Two properties are the same when they name the same value.
    public static func == (lhs: AnimatedProperty, rhs: AnimatedProperty) -> Bool {
        lhs.identity == rhs.identity
    }

    /// Hashes what it names.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(identity)
    }

    /// The key path, e.g. "shadowOpacity".
    public var description: String { key }
}

/// A key path to a number in `LayerState`, for custom sprites.
public struct LayerKeyPath: Sendable, Hashable {
    /// The path, e.g. `\.transform.perspective`.
    public let keyPath: WritableKeyPath<LayerState, Double> & Sendable

    /// Wraps a key path literal such as `\.zPosition`.
    public init(_ keyPath: WritableKeyPath<LayerState, Double> & Sendable) {
        self.keyPath = keyPath
    }

    /// Two wrappers are equal when their key paths are.
    public static func == (lhs: LayerKeyPath, rhs: LayerKeyPath) -> Bool {
        (lhs.keyPath as AnyKeyPath) == (rhs.keyPath as AnyKeyPath)
    }

    /// Hashes the key path.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(keyPath as AnyKeyPath)
    }
}
