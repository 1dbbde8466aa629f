import Foundation
import ViewfinderCore

extension Scene {
    /// Every layer's presentation values at `t` as one line of JSON, for checking and debugging:
    /// `{"t": T, "layers": {"box": {"position": [x, y], …}}}`, layers in depth-first order.
    ///
    /// Per layer: position [x, y], bounds [x, y, w, h], anchorPoint [x, y], zPosition, opacity,
    /// scale / rotation (radians) / translation [x, y, z], perspective, backgroundColor
    /// "#rrggbbaa", cornerRadius, borderWidth, borderColor, shadowOffset [x, y], shadowOpacity,
    /// shadowRadius, shadowColor, contents (path or null), contentsRect, and contentsCrossFade
    /// ({"from", "progress"} or null), minificationFilter, and custom (the layer's custom values by name).
    ///
    /// Then `"ignored"`: the sprites not started by `t` because one of the same `name` was
    /// running on the layer (the original's activate-as), each as
    /// `{"layer", "sprite": "layers[0].sprites[1]", "name", "at": seconds}`.
    public func presentationJSON(at t: Double) -> String {
        let root = makeLayerTree()
        root.advance(to: t)
        var layers: [(String, JSONValue)] = []
        var ignored: [JSONValue] = []
        func visit(_ layer: Layer) {
            layers.append((layer.name, Self.json(layer.presentation(at: t))))
            for sprite in layer.ignoredSprites where sprite.time <= t {
                ignored.append(.object([("layer", .string(layer.name)), ("sprite", .string(sprite.origin)),
                                        ("name", .string(sprite.name)), ("at", .number(sprite.time))]))
            }
            layer.sublayers.forEach(visit)
        }
        root.sublayers.forEach(visit)
        return JSONValue.object([("t", .number(t)), ("layers", .object(JSONObject(layers))), ("ignored", .array(ignored))])
            .rendered(.inline)
    }

    static func json(_ s: LayerState) -> JSONValue {
        var fields = AnimatedProperty.all.compactMap { property in
            property.sceneKey.map { ($0, json(property.value(in: s))) }
        }
        let crossFade = s.contentsCrossFade.map {
            JSONValue.object([("from", json(.image($0.from))), ("progress", .number($0.progress))])
        }
        fields.append(("contentsCrossFade", crossFade ?? .null))
        fields.append(("minificationFilter", .string(s.minificationFilter.rawValue)))
        fields.append(("custom", .object(JSONObject(s.custom.keys.sorted().compactMap { key in s.custom[key].map { (key, json($0)) } }))))
        return .object(JSONObject(fields))
    }

    /// One value as the scene format writes it: a number, [x, y], [x, y, w, h], [x, y, z],
    /// "#rrggbbaa", or a picture's path (null: none).
    static func json(_ value: AnimatableValue) -> JSONValue {
        func list(_ values: Double...) -> JSONValue { .array(values.map(JSONValue.number)) }
        switch value {
        case .number(let n): return .number(n)
        case .point(let p): return list(p.x, p.y)
        case .rect(let r): return list(r.minX, r.minY, r.width, r.height)
        case .vector(let v): return list(v.x, v.y, v.z)
        case .color(let c): return .string(c.hex)
        case .image(let i): return i.map { .string($0.name) } ?? .null
        case .group(let parts): return .array(parts.map { $0.map(json) ?? .null })
        }
    }
}
