import Foundation
import ViewfinderCore

extension Scene {
    /// Reads a scene file:
    ///
    /// ```json
    /// {"size": [320, 240], "duration": 2, "background": "#000000",
    ///  "layers": [{"name": "box", "position": [160, 120], "bounds": [0, 0, 100, 100],
    ///              "backgroundColor": "#ff0000", "opacity": 1,
    ///              "sprites": [{"kind": "rotate", "axis": "z", "to": 6.283185307179586, "duration": 1, "repeat": "forever"}]}]}
    /// ```
    ///
    /// Layer keys: name, appearance (the timing keys of a sprite, as defaults for the layer's
    /// sprites), custom (named numbers, [x, y] points or colours), minificationFilter, sprites,
    /// sublayers, and each property of `AnimatedProperty.all` by its `sceneKey` (position,
    /// bounds, anchorPoint, zPosition, anchorPointZ, opacity, scale, rotation, translation,
    /// perspective, sublayerScale, sublayerRotation, sublayerTranslation, sublayerPerspective,
    /// backgroundColor, cornerRadius, borderWidth, borderColor, shadowOffset, shadowOpacity,
    /// shadowRadius, shadowColor, contents (an image path), contentsRect, contentsCenter,
    /// contentsScale). Sprite keys: kind (a property's sprite kind, a group — shadow, border,
    /// bounds, move, anchor, translate, scale, rotate with an object of parts — or custom with
    /// key), axis, from, to, by, keyframes, keyTimes, curves, path (with "at" and "timing" per
    /// point), calculationMode, start, stopAt, duration, delay, repeat (a number — 0 once,
    /// negative for ever — or "forever"), autoreverse, keepAlive, additive, cumulative, timing
    /// (a curve name or [c1x, c1y, c2x, c2y]), spring, name (activate-as), then.
    /// Unknown keys are errors, so a typo does not pass silently. Every number, count and
    /// depth is checked against `SceneLimits` before it is used.
    public static func parse(_ data: Data) throws -> Scene {
        let document: JSONValue
        do {
            document = try JSONValue(parsing: data, maxDepth: SceneLimits.maxJSONDepth,
                                     limitNote: tr("the limit is ±{limit}", ["limit": SceneLimits.number(SceneLimits.maxMagnitude)]))
        } catch {
            throw SceneError(path: error.path, message: error.message)
        }
        let reader = try SceneReader(document, at: "")
        try reader.rejectUnknownKeys(["size", "duration", "background", "layers"])
        guard let sizeValue = reader.object["size"] else { throw reader.fail("size", tr("missing; expected [width, height]")) }
        let sides = try reader.numbers(sizeValue, key: "size", counts: [2], what: tr("[width, height] with both above 0"),
                                       in: 0...SceneLimits.maxCanvasSide)
        guard sides[0] > 0, sides[1] > 0 else { throw reader.expected("size", tr("[width, height] with both above 0"), got: sizeValue) }
        var scene = Scene(size: Size(width: sides[0], height: sides[1]),
                          duration: try reader.number("duration", atLeast: 0, atMost: SceneLimits.maxDuration),
                          background: try reader.color("background") ?? .black)
        var tally = Tally()
        scene.layers = try layerList(reader, depth: 1, tally: &tally)
        return scene
    }

    /// The kind of custom value a JSON value spells: a number, [x, y], or a colour string.
    static func customKind(of json: JSONValue) -> AnimatableValue.Kind? {
        switch json {
        case .number: .number
        case .array(let items) where items.count == 2: .point
        case .string: .color
        default: nil
        }
    }

    /// What a layer's sprites need to know of it: its custom values, for their kinds.
    struct SpriteContext {
        var custom: [String: AnimatableValue] = [:]
    }

    /// What the scene holds so far, to name layers and keep within `SceneLimits`.
    struct Tally {
        var names = Set<String>()
        var layers = 0
        var sprites = 0

        /// Counts one more sprite at `path`.
        mutating func addSprite(at path: String) throws {
            sprites += 1
            guard sprites <= SceneLimits.maxSpriteCount else {
                throw SceneError(path: path, message: trn("more than {count} sprite in the scene (the limit)", "more than {count} sprites in the scene (the limit)",
                                                              SceneLimits.maxSpriteCount))
            }
        }
    }

    /// The layers under `reader`, which are at nesting level `depth` (top-level layers are 1).
    private static func layerList(_ reader: SceneReader, depth: Int, tally: inout Tally) throws -> [SceneLayer] {
        let key = reader.path.isEmpty ? "layers" : "sublayers"
        guard let value = reader.object[key] else { return [] }
        guard case .array(let items) = value else { throw reader.expected(key, tr("an array of layers"), got: value) }
        return try items.enumerated().map { index, item in
            let path = "\(reader.at(key))[\(index)]"
            guard depth <= SceneLimits.maxLayerDepth else {
                throw SceneError(path: path, message: trn("sublayers nested more than {count} level deep (the limit)", "sublayers nested more than {count} levels deep (the limit)",
                                                              SceneLimits.maxLayerDepth))
            }
            return try layer(SceneReader(item, at: path), depth: depth, tally: &tally)
        }
    }

    /// A layer's keys: its name, its sprites and sublayers, and every animatable property's.
    private static let layerKeys = Set(["name", "appearance", "custom", "minificationFilter", "sprites", "sublayers"] + AnimatedProperty.all.compactMap(\.sceneKey))

    private static func layer(_ r: SceneReader, depth: Int, tally: inout Tally) throws -> SceneLayer {
        try r.rejectUnknownKeys(layerKeys)
        tally.layers += 1
        guard tally.layers <= SceneLimits.maxLayerCount else {
            throw SceneError(path: r.path, message: trn("more than {count} layer in the scene (the limit)", "more than {count} layers in the scene (the limit)",
                                                          SceneLimits.maxLayerCount))
        }
        let name = try r.string("name") ?? "layer\(tally.layers)"
        guard !name.isEmpty else { throw r.fail("name", tr("must not be empty")) }
        guard tally.names.insert(name).inserted else { throw r.fail("name", tr("\"{name}\" is used by another layer; names must be unique", ["name": name])) }
        var m = LayerState()
        for property in AnimatedProperty.all {
            guard let key = property.sceneKey, let json = r.object[key] else { continue }
            property.set(try r.modelValue(json, of: property, key: key), in: &m)
        }
        if let text = try r.string("minificationFilter") {
            guard let filter = MinificationFilter(rawValue: text) else {
                throw r.expected("minificationFilter", tr("one of {values}", ["values": "linear, trilinear, nearest"]), got: .string(text))
            }
            m.minificationFilter = filter
        }
        if let json = r.object["custom"] {
            let values = try SceneReader(json, at: r.at("custom"))
            for key in values.object.keys {
                guard let value = values.object[key], let kind = customKind(of: value) else {
                    throw values.fail(key, tr("expected a number, [x, y] or a colour \"#rrggbb\""))
                }
                m.custom[key] = try values.value(value, kind: kind, key: key, in: SceneReader.magnitude)
            }
        }
        let spriteContext = SpriteContext(custom: m.custom)
        let appearance = try r.object["appearance"].map { try Self.appearance(SceneReader($0, at: r.at("appearance"))) }
        var sprites: [SceneSprite] = []
        if let value = r.object["sprites"] {
            guard case .array(let items) = value else { throw r.expected("sprites", tr("an array of sprites"), got: value) }
            sprites = try items.enumerated().map { index, item in
                try sprite(SceneReader(item, at: "\(r.at("sprites"))[\(index)]"), appearance: appearance ?? SpriteAppearance(),
                           context: spriteContext, tally: &tally)
            }
        }
        let sublayers = try layerList(r, depth: depth + 1, tally: &tally)
        return SceneLayer(name: name, model: m, appearance: appearance ?? SpriteAppearance(), sprites: sprites, sublayers: sublayers)
    }
}
