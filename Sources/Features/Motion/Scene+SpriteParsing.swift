import Foundation
import ViewfinderCore

extension Scene {
    private static let spriteKeys: Set<String> = [
        "kind", "axis", "from", "to", "by", "keyframes", "keyTimes", "curves", "path", "start", "stopAt", "calculationMode", "key", "additive", "cumulative",
        "duration", "delay", "repeat", "autoreverse", "keepAlive", "timing", "spring", "name", "then",
    ]

    /// Sprite kinds by the names of the Swift chain (plus Core Animation's property names),
    /// from the property table.
    private static let kinds: [String: AnimatedProperty] = Dictionary(
        AnimatedProperty.all.flatMap { property in property.spriteKinds.map { ($0, property) } },
        uniquingKeysWith: { first, _ in first })

    private static let axisKinds = ["scale", "rotate", "translate"]

    /// The keys of a layer's `appearance`: the timing keys of a sprite.
    static let appearanceKeys: Set<String> = ["duration", "delay", "repeat", "autoreverse", "keepAlive", "timing", "spring"]

    /// A layer's `appearance`: defaults for its sprites, written as a sprite's timing keys.
    static func appearance(_ r: SceneReader) throws -> SpriteAppearance {
        try r.rejectUnknownKeys(appearanceKeys)
        var recipe = SpriteRecipe(property: .opacity, appearance: SpriteAppearance())
        try readTiming(r, into: &recipe)
        var appearance = SpriteAppearance()
        appearance.duration = recipe.duration ?? appearance.duration
        appearance.delay = recipe.delay
        appearance.repetition = recipe.repetition
        appearance.autoreverses = recipe.autoreverses
        appearance.keepsAlive = recipe.keepsAlive
        appearance.curve = recipe.curve
        return appearance
    }

    static func sprite(_ r: SceneReader, appearance: SpriteAppearance, context: SpriteContext = SpriteContext(),
                       tally: inout Tally) throws -> SceneSprite {
        try r.rejectUnknownKeys(spriteKeys)
        try tally.addSprite(at: r.path)
        guard let kind = try r.string("kind") else { throw r.fail("kind", tr("missing; expected one of {values}", ["values": kindList])) }
        var axis: Axis?
        if let text = try r.string("axis") {
            // TRANSLATORS: the scene file's keywords (scale, rotate, translate, to, by, from, keyframes, path…) stay as they are.
            guard axisKinds.contains(kind) else { throw r.fail("axis", tr("only scale, rotate and translate take an axis")) }
            guard let value = Axis(rawValue: text) else { throw r.expected("axis", tr("\"x\", \"y\" or \"z\""), got: .string(text)) }
            axis = value
        }
        let property: AnimatedProperty
        if kind == "custom" {
            property = try customProperty(r, context)
        } else if r.has("key") {
            throw r.fail("key", tr("only custom sprites take a key"))
        } else if axis == nil, let group = AnimatedProperty.groups[kind], isGrouped(kind, r, group) {
            property = group
        } else {
            property = try single(kind, axis: axis, r)
        }
        let valueKind = property.kind
        var recipe = SpriteRecipe(property: property, appearance: appearance)
        recipe.origin = r.path
        // Some properties have their own limit (a shadow's blur costs more as it grows); offsets may be negative.
        let range = property.spriteLimit.map { 0...$0 } ?? SceneReader.magnitude
        let offsets = property.spriteLimit.map { -$0...$0 } ?? range
        func read(_ key: String, offset: Bool = false) throws -> AnimatableValue? {
            guard let json = r.object[key] else { return nil }
            if valueKind == .group { return try groupValue(json, of: property, r, key, offset: offset) }
            if valueKind == .vector {
                return try r.value(json, kind: .vector, key: key, in: range, vectorDefault: offset ? .zero : r.defaultVector(of: property))
            }
            return try value(json, valueKind, r, key, in: offset ? offsets : range)
        }
        recipe.from = try read("from")
        recipe.to = try read("to")
        if r.has("by") {
            guard valueKind != .image else { throw r.fail("by", tr("contents cannot change by an offset; use to")) }
            guard recipe.to == nil else { throw r.fail("by", tr("give either to or by, not both")) }
            recipe.by = try read("by", offset: true)
        }
        if valueKind == .group && r.has("keyframes") { throw r.fail("keyframes", tr("a grouped {kind} sprite takes from, to or by", ["kind": kind])) }
        recipe.keyframes = try keyframes(r, valueKind, in: range)
        if r.has("calculationMode") && !r.has("path") { throw r.fail("calculationMode", tr("only a sprite with a path takes a calculation mode")) }
        if kind == "path" || r.has("path") {
            guard kind == "path" || (kind == "move" && valueKind != .group) else {
                throw r.fail("path", tr("only move and path sprites follow a path"))
            }
            recipe.path = try path(r)
            if let text = try r.string("calculationMode") {
                guard let mode = MotionPath.CalculationMode(rawValue: text) else {
                    let names = MotionPath.CalculationMode.allCases.map(\.rawValue).joined(separator: ", ")
                    throw r.expected("calculationMode", tr("one of {values}", ["values": names]), got: .string(text))
                }
                recipe.path?.mode = mode
            }
            recipe.pathStop = try r.number("stopAt", atLeast: 0).map { min($0, 1) } ?? 1
        }
        guard recipe.from != nil || recipe.to != nil || recipe.by != nil || recipe.keyframes != nil || recipe.path != nil else {
            throw r.fail("to", tr("missing; a sprite needs to, by, from, keyframes or path"))
        }
        try readTiming(r, into: &recipe)
        recipe.name = try r.string("name")
        if let next = r.object["then"] {
            recipe.then = [try sprite(SceneReader(next, at: r.at("then")), appearance: appearance, context: context, tally: &tally).recipe]
        }
        return SceneSprite(kind: kind, recipe: recipe)
    }

    /// A custom sprite's property: the layer's custom value `key`, of the kind the layer gives
    /// it (or, if the layer does not, the kind its from, to or by spells).
    private static func customProperty(_ r: SceneReader, _ context: SpriteContext) throws -> AnimatedProperty {
        guard let key = try r.string("key"), !key.isEmpty else { throw r.fail("key", tr("missing; a custom sprite names its value with key")) }
        let spelled = ["from", "to", "by"].lazy.compactMap { r.object[$0].flatMap(customKind(of:)) }.first
        guard let kind = context.custom[key]?.kind ?? spelled else {
            throw r.fail("to", tr("missing; a custom sprite needs a number, [x, y] or a colour in from, to or by"))
        }
        return .custom(named: key, kind: kind)
    }

    /// Whether a sprite of `kind` is the grouped one: a kind with no single property (shadow,
    /// border), or values written as objects of parts — or, for x/y/z groups, as three numbers.
    private static func isGrouped(_ kind: String, _ r: SceneReader, _ group: AnimatedProperty) -> Bool {
        if kinds[kind] == nil && !axisKinds.contains(kind) { return true }
        let xyz = group.parts.map(\.name) == ["x", "y", "z"]
        return ["from", "to", "by"].contains { key in
            switch r.object[key] {
            case .object?: return true
            case .array(let items)?: return xyz && items.count == 3
            default: return false
            }
        }
    }

    /// The single property a sprite kind animates (with its axis, for scale, rotate and translate).
    private static func single(_ kind: String, axis: Axis?, _ r: SceneReader) throws -> AnimatedProperty {
        switch kind {
        case "scale": return .scale(axis)
        case "rotate": return .rotation(axis ?? .z)
        case "translate":
            guard let axis else { throw r.fail("axis", tr("missing; translate needs \"x\", \"y\" or \"z\" (or x/y/z values)")) }
            return .translation(axis)
        default:
            guard let known = kinds[kind] else { throw r.expected("kind", tr("one of {values}", ["values": kindList]), got: .string(kind)) }
            return known
        }
    }

    /// A grouped sprite's value: an object of its parts by name (each optional), or for x/y/z
    /// groups three numbers.
    private static func groupValue(_ json: JSONValue, of group: AnimatedProperty, _ r: SceneReader, _ key: String,
                                   offset: Bool) throws -> AnimatableValue {
        let names = group.parts.map(\.name)
        func range(_ part: AnimatedProperty) -> ClosedRange<Double> {
            guard let limit = part.spriteLimit else { return SceneReader.magnitude }
            return offset ? -limit...limit : 0...limit
        }
        if case .array(let items) = json, names == ["x", "y", "z"], items.count == 3 {
            return .group(try items.map { try r.value($0, kind: .number, key: key, in: SceneReader.magnitude) })
        }
        guard case .object = json else {
            let parts = names.joined(separator: ", ")
            throw r.expected(key, names == ["x", "y", "z"] ? tr("an object of {parts} or [x, y, z]", ["parts": parts]) : tr("an object of {parts}", ["parts": parts]),
                             got: json)
        }
        let parts = try SceneReader(json, at: r.at(key))
        try parts.rejectUnknownKeys(Set(names))
        return .group(try group.parts.map { part in
            try parts.object[part.name].map { try parts.value($0, kind: part.property.kind, key: part.name, in: range(part.property)) }
        })
    }

    private static var kindList: String {
        Set(Array(kinds.keys) + axisKinds + AnimatedProperty.groups.keys + ["custom"]).sorted().joined(separator: ", ")
    }

    /// A sprite value; a number must lie in `range`.
    private static func value(_ json: JSONValue, _ kind: AnimatableValue.Kind, _ r: SceneReader, _ key: String,
                              in range: ClosedRange<Double>) throws -> AnimatableValue {
        try r.value(json, kind: kind, key: key, in: range)
    }

    private static func keyframes(_ r: SceneReader, _ kind: AnimatableValue.Kind, in range: ClosedRange<Double>) throws -> KeyframeTrack? {
        guard let json = r.object["keyframes"] else {
            if r.has("keyTimes") || r.has("curves") { throw r.fail("keyframes", tr("missing; keyTimes and curves need keyframes")) }
            return nil
        }
        guard case .array(let items) = json, !items.isEmpty else { throw r.expected("keyframes", tr("a non-empty array of values"), got: json) }
        let values = try items.map { try value($0, kind, r, "keyframes", in: range) }
        var times: [Double]?
        if let json = r.object["keyTimes"] {
            let list = try r.numbers(json, key: "keyTimes", counts: [values.count], what: tr("one time per keyframe"))
            guard zip(list, list.dropFirst()).allSatisfy({ $0 <= $1 }), list.allSatisfy({ (0...1).contains($0) }) else {
                throw r.expected("keyTimes", tr("ascending fractions between 0 and 1"), got: json)
            }
            times = list
        }
        var curves: [TimingCurve]?
        if let json = r.object["curves"] {
            guard case .array(let items) = json, items.count == values.count - 1 else {
                throw r.expected("curves", tr("one curve per stretch ({count})", ["count": values.count - 1]), got: json)
            }
            curves = try items.map { try curve($0, r, "curves") }
        }
        return KeyframeTrack(values: values, times: times, curves: curves)
    }

    private static func path(_ r: SceneReader) throws -> MotionPath {
        guard let json = r.object["path"], case .array(let items) = json, !items.isEmpty else {
            throw r.expected("path", tr("an array of {{\"line\": [x, y]}} or {{\"curve\": [x, y], \"control1\": …, \"control2\": …}}"),
                             got: r.object["path"] ?? .null)
        }
        var route = MotionPath(from: try r.point("start"))
        for (index, item) in items.enumerated() {
            let piece = try SceneReader(item, at: "\(r.at("path"))[\(index)]")
            // Each point's key time (the original's endAtPercent), ascending, and its segment's curve.
            let keyTime = try piece.number("at", atLeast: 0, atMost: 1)
            if let keyTime, let previous = route.keyTimes.compactMap({ $0 }).last, keyTime < previous {
                throw piece.fail("at", tr("key times must not decrease (the point before is at {time})", ["time": JSONValue.text(of: previous)]))
            }
            let timing = try piece.object["timing"].map { try curve($0, piece, "timing") }
            if let end = try piece.point("line") {
                try piece.rejectUnknownKeys(["line", "at", "timing"])
                route = route.line(to: end, at: keyTime, timing: timing)
            } else if let end = try piece.point("curve") {
                try piece.rejectUnknownKeys(["curve", "control1", "control2", "at", "timing"])
                guard let c1 = try piece.point("control1"), let c2 = try piece.point("control2") else {
                    throw piece.fail("control1", tr("missing; a curve needs control1 and control2"))
                }
                route = route.curve(to: end, control1: c1, control2: c2, at: keyTime, timing: timing)
            } else {
                throw SceneError(path: piece.path, message: tr("expected {{\"line\": [x, y]}} or {{\"curve\": [x, y], …}}"))
            }
        }
        return route
    }

    private static func curve(_ json: JSONValue, _ r: SceneReader, _ key: String) throws -> TimingCurve {
        let names = TimingCurve.named.keys.sorted().joined(separator: ", ")
        if case .string(let name) = json {
            guard let curve = TimingCurve.named[name] else { throw r.expected(key, tr("one of {values} or [c1x, c1y, c2x, c2y]", ["values": names]), got: json) }
            return curve
        }
        let n = try r.numbers(json, key: key, counts: [4], what: tr("a curve name ({values}) or [c1x, c1y, c2x, c2y]", ["values": names]))
        guard (0...1).contains(n[0]), (0...1).contains(n[2]) else {
            throw r.expected(key, tr("control point x values between 0 and 1"), got: json)
        }
        return .bezier(n[0], n[1], n[2], n[3])
    }

    private static func readTiming(_ r: SceneReader, into recipe: inout SpriteRecipe) throws {
        // What a key leaves out stays as the layer's appearance set it.
        if let duration = try r.number("duration", atLeast: 0) { recipe.duration = duration }
        recipe.delay = try r.number("delay", atLeast: 0) ?? recipe.delay
        if let json = r.object["repeat"] {
            switch json {
            case .string("forever"): recipe.repetition = .forever
            case .number(let n) where n.isFinite:
                // As in the original: 0 plays once and a negative count plays for ever.
                let range = -SceneLimits.maxMagnitude...SceneLimits.maxMagnitude
                guard range.contains(n) else { throw r.outOfRange("repeat", n, range) }
                recipe.repetition = Repetition(n)
            default: throw r.expected("repeat", tr("a number (0: once, below 0: for ever) or \"forever\""), got: json)
            }
        }
        recipe.autoreverses = try r.bool("autoreverse") ?? recipe.autoreverses
        recipe.additive = try r.bool("additive") ?? recipe.additive
        recipe.cumulative = try r.bool("cumulative") ?? recipe.cumulative
        recipe.keepsAlive = try r.bool("keepAlive") ?? recipe.keepsAlive
        if let json = r.object["timing"] {
            guard !r.has("spring") else { throw r.fail("spring", tr("give either timing or spring, not both")) }
            recipe.curve = try curve(json, r, "timing")
        }
        if let json = r.object["spring"] {
            let s = try SceneReader(json, at: r.at("spring"))
            try s.rejectUnknownKeys(["mass", "stiffness", "damping", "initialVelocity"])
            let mass = try s.number("mass", atLeast: 0) ?? 1
            let stiffness = try s.number("stiffness", atLeast: 0) ?? 100
            guard mass > 0 else { throw s.expected("mass", tr("a number above 0"), got: .number(mass)) }
            guard stiffness > 0 else { throw s.expected("stiffness", tr("a number above 0"), got: .number(stiffness)) }
            let damping = try s.number("damping", atLeast: 0) ?? 10
            guard damping > 0 || recipe.duration != nil else {
                throw s.fail("damping", tr("a spring without damping never settles; give a duration or damping above 0"))
            }
            recipe.curve = .spring(mass: mass, stiffness: stiffness, damping: damping,
                                   initialVelocity: try s.number("initialVelocity") ?? 0)
        }
    }
}
