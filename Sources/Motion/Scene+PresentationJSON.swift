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
        var entries: [String] = []
        func visit(_ layer: PresentedLayer) {
            entries.append(JSONText.string(layer.name) + ": " + Self.json(layer.state))
            layer.sublayers.forEach(visit)
        }
        presentation(at: t).sublayers.forEach(visit)
        return "{\"t\": \(JSONText.number(t)), \"layers\": {" + entries.joined(separator: ", ") + "}}"
    }

    static func json(_ s: LayerState) -> String {
        func n(_ value: Double) -> String { JSONText.number(value) }
        func list(_ values: Double...) -> String { "[" + values.map(n).joined(separator: ", ") + "]" }
        func point(_ p: Point) -> String { list(p.x, p.y) }
        func rect(_ r: Rect) -> String { list(r.minX, r.minY, r.width, r.height) }
        func vector(_ v: Vector3) -> String { list(v.x, v.y, v.z) }
        func image(_ i: ImageReference?) -> String { i.map { JSONText.string($0.name) } ?? "null" }
        let crossFade = s.contentsCrossFade.map { "{\"from\": \(image($0.from)), \"progress\": \(n($0.progress))}" } ?? "null"
        let fields: [(String, String)] = [
            ("position", point(s.position)), ("bounds", rect(s.bounds)), ("anchorPoint", point(s.anchorPoint)),
            ("zPosition", n(s.zPosition)), ("opacity", n(s.opacity)), ("scale", vector(s.transform.scale)),
            ("rotation", vector(s.transform.rotation)), ("translation", vector(s.transform.translation)),
            ("perspective", n(s.transform.perspective)), ("backgroundColor", JSONText.string(s.backgroundColor.hex)),
            ("cornerRadius", n(s.cornerRadius)), ("borderWidth", n(s.borderWidth)),
            ("borderColor", JSONText.string(s.borderColor.hex)), ("shadowOffset", point(s.shadowOffset)),
            ("shadowOpacity", n(s.shadowOpacity)), ("shadowRadius", n(s.shadowRadius)),
            ("shadowColor", JSONText.string(s.shadowColor.hex)), ("contents", image(s.contents)),
            ("contentsRect", rect(s.contentsRect)), ("contentsCrossFade", crossFade),
        ]
        return "{" + fields.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}"
    }
}
