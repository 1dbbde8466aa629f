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
    /// ({"from", "progress"} or null).
    public func presentationJSON(at t: Double) -> String {
        var layers: [(String, JSONValue)] = []
        func visit(_ layer: PresentedLayer) {
            layers.append((layer.name, Self.json(layer.state)))
            layer.sublayers.forEach(visit)
        }
        presentation(at: t).sublayers.forEach(visit)
        return JSONValue.object([("t", .number(t)), ("layers", .object(JSONObject(layers)))]).rendered(.inline)
    }

    static func json(_ s: LayerState) -> JSONValue {
        func list(_ values: Double...) -> JSONValue { .array(values.map(JSONValue.number)) }
        func point(_ p: Point) -> JSONValue { list(p.x, p.y) }
        func rect(_ r: Rect) -> JSONValue { list(r.minX, r.minY, r.width, r.height) }
        func vector(_ v: Vector3) -> JSONValue { list(v.x, v.y, v.z) }
        func image(_ i: ImageReference?) -> JSONValue { i.map { .string($0.name) } ?? .null }
        let crossFade = s.contentsCrossFade.map { JSONValue.object([("from", image($0.from)), ("progress", .number($0.progress))]) } ?? .null
        return .object([
            ("position", point(s.position)), ("bounds", rect(s.bounds)), ("anchorPoint", point(s.anchorPoint)),
            ("zPosition", .number(s.zPosition)), ("opacity", .number(s.opacity)), ("scale", vector(s.transform.scale)),
            ("rotation", vector(s.transform.rotation)), ("translation", vector(s.transform.translation)),
            ("perspective", .number(s.transform.perspective)), ("backgroundColor", .string(s.backgroundColor.hex)),
            ("cornerRadius", .number(s.cornerRadius)), ("borderWidth", .number(s.borderWidth)),
            ("borderColor", .string(s.borderColor.hex)), ("shadowOffset", point(s.shadowOffset)),
            ("shadowOpacity", .number(s.shadowOpacity)), ("shadowRadius", .number(s.shadowRadius)),
            ("shadowColor", .string(s.shadowColor.hex)), ("contents", image(s.contents)),
            ("contentsRect", rect(s.contentsRect)), ("contentsCrossFade", crossFade),
        ])
    }
}
