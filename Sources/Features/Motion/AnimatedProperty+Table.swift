import Foundation
import ViewfinderCore

/// Every value of a layer a sprite can animate, declared once. Each entry gives Core Animation's
/// key path, where the value lives in `LayerState` (which fixes its kind), and — when they differ
/// from the key — its key in scene files and the presentation JSON, the sprite kinds that animate
/// it, the range a scene may give it, and the range every value written is clamped to.
extension AnimatedProperty {
    /// `position`, a point.
    public static let position = AnimatedProperty("position", \.position, kinds: ["move", "path"])
    /// `bounds`, a rectangle.
    public static let bounds = AnimatedProperty("bounds", \.bounds)
    /// `anchorPoint`, a point in unit coordinates.
    public static let anchorPoint = AnimatedProperty("anchorPoint", \.anchorPoint, kinds: ["anchor", "anchorPoint"])
    /// `zPosition`, a number.
    public static let zPosition = AnimatedProperty("zPosition", \.zPosition)
    /// `anchorPointZ`, the depth of the point the transform turns about.
    public static let anchorPointZ = AnimatedProperty("anchorPointZ", \.anchorPointZ)
    /// `opacity`, kept within 0…1 as Core Animation keeps it (a fade never overshoots).
    public static let opacity = AnimatedProperty("opacity", \.opacity, kinds: ["fade", "opacity"], clamp: 0...1)
    /// `transform.scale` on all three axes as a vector.
    public static let scaleVector = AnimatedProperty("transform.scale", \.transform.scale, scene: "scale", kinds: [])
    /// `transform.rotation` about all three axes as a vector, in radians.
    public static let rotationVector = AnimatedProperty("transform.rotation", \.transform.rotation, scene: "rotation", kinds: [])
    /// `transform.translation` along all three axes as a vector.
    public static let translationVector = AnimatedProperty("transform.translation", \.transform.translation,
                                                           scene: "translation", kinds: [])
    /// `transform.perspective`, the viewer's distance.
    public static let perspective = AnimatedProperty("transform.perspective", \.transform.perspective,
                                                     scene: "perspective", atLeast: 0)
    /// `sublayerTransform.scale` as a vector.
    public static let sublayerScale = AnimatedProperty("sublayerTransform.scale", \.sublayerTransform.scale, scene: "sublayerScale")
    /// `sublayerTransform.rotation` as a vector, in radians.
    public static let sublayerRotation = AnimatedProperty("sublayerTransform.rotation", \.sublayerTransform.rotation,
                                                          scene: "sublayerRotation")
    /// `sublayerTransform.translation` as a vector.
    public static let sublayerTranslation = AnimatedProperty("sublayerTransform.translation", \.sublayerTransform.translation,
                                                             scene: "sublayerTranslation")
    /// `sublayerTransform.perspective`, the sublayers' viewer's distance.
    public static let sublayerPerspective = AnimatedProperty("sublayerTransform.perspective", \.sublayerTransform.perspective,
                                                             scene: "sublayerPerspective", atLeast: 0)
    /// `backgroundColor`.
    public static let backgroundColor = AnimatedProperty("backgroundColor", \.backgroundColor)
    /// `cornerRadius`.
    public static let cornerRadius = AnimatedProperty("cornerRadius", \.cornerRadius, atLeast: 0)
    /// `borderWidth`.
    public static let borderWidth = AnimatedProperty("borderWidth", \.borderWidth, atLeast: 0)
    /// `borderColor`.
    public static let borderColor = AnimatedProperty("borderColor", \.borderColor)
    /// `shadowOffset`, a point.
    public static let shadowOffset = AnimatedProperty("shadowOffset", \.shadowOffset)
    /// `shadowOpacity`.
    public static let shadowOpacity = AnimatedProperty("shadowOpacity", \.shadowOpacity)
    /// `shadowRadius`; scenes bound it (a blur's cost grows with its radius).
    public static let shadowRadius = AnimatedProperty("shadowRadius", \.shadowRadius, atLeast: 0,
                                                      atMost: SceneLimits.maxShadowRadius, spriteLimit: SceneLimits.maxShadowRadius)
    /// `shadowColor`.
    public static let shadowColor = AnimatedProperty("shadowColor", \.shadowColor)
    /// `contents`: the picture, cross-faded.
    public static let contents = AnimatedProperty("contents", \.contents)
    /// `contentsRect`, a rectangle in unit coordinates.
    public static let contentsRect = AnimatedProperty("contentsRect", \.contentsRect)
    /// `contentsCenter`, the stretching part of a nine-slice, in unit coordinates.
    public static let contentsCenter = AnimatedProperty("contentsCenter", \.contentsCenter)
    /// `contentsScale`, picture pixels per point.
    public static let contentsScale = AnimatedProperty("contentsScale", \.contentsScale, atLeast: 0.01, atMost: 100)

    /// The table: every entry above, in the order the presentation JSON lists them.
    public static let all: [AnimatedProperty] = [
        position, bounds, anchorPoint, zPosition, anchorPointZ, opacity, scaleVector, rotationVector, translationVector, perspective,
        sublayerScale, sublayerRotation, sublayerTranslation, sublayerPerspective,
        backgroundColor, cornerRadius, borderWidth, borderColor, shadowOffset, shadowOpacity, shadowRadius, shadowColor,
        contents, contentsRect, contentsCenter, contentsScale,
    ]

    // MARK: - Grouped sprites

    /// The shadow's offset, opacity, radius and colour as one sprite.
    public static let shadow = group("shadow", [("offset", shadowOffset), ("opacity", shadowOpacity),
                                                ("radius", shadowRadius), ("color", shadowColor)])
    /// The border's width and colour as one sprite.
    public static let border = group("border", [("width", borderWidth), ("color", borderColor)])
    /// The bounds' width and height as one sprite (the origin stays).
    public static let boundsSize = group("bounds.size", [("width", part("bounds.size.width", \.bounds.size.width)),
                                                         ("height", part("bounds.size.height", \.bounds.size.height))])
    /// The position with `zPosition` as its z: a move in three dimensions.
    public static let position3D = group("position+zPosition", [("x", part("position.x", \.position.x)),
                                                                ("y", part("position.y", \.position.y)), ("z", zPosition)])
    /// The anchor point with `anchorPointZ` as its z.
    public static let anchorPoint3D = group("anchorPoint+anchorPointZ", [("x", part("anchorPoint.x", \.anchorPoint.x)),
                                                                         ("y", part("anchorPoint.y", \.anchorPoint.y)), ("z", anchorPointZ)])
    /// The translation on each axis as one sprite.
    public static let translation3D = axes("transform.translation", translation)
    /// The scale on each axis as one sprite.
    public static let scale3D = axes("transform.scale") { scale($0) }
    /// The rotation about each axis as one sprite.
    public static let rotation3D = axes("transform.rotation", rotation)

    /// The grouped sprite a scene's sprite kind means when its values are objects (or, for x/y/z
    /// groups, three numbers).
    static let groups: [String: AnimatedProperty] = [
        "shadow": shadow, "border": border, "bounds": boundsSize, "move": position3D, "anchor": anchorPoint3D,
        "anchorPoint": anchorPoint3D, "translate": translation3D, "scale": scale3D, "rotate": rotation3D,
    ]

    private static func axes(_ key: String, _ component: (Axis) -> AnimatedProperty) -> AnimatedProperty {
        group("\(key).xyz", Axis.allCases.map { ($0.rawValue, component($0)) })
    }

    // MARK: - Parts of an entry

    /// `transform.scale` on one axis, or on all three when nil (Core Animation's `transform.scale`).
    public static func scale(_ axis: Axis?) -> AnimatedProperty {
        guard let axis else {
            return AnimatedProperty(key: "transform.scale", kind: .number, identity: .key("transform.scale(all)"),
                                    storage: MemoryLayout<LayerState>.offset(of: \LayerState.transform.scale.x).map { ($0, 3) },
                                    read: { .number($0.transform.scale.x) },
                                    write: { state, value in
                                        if case .number(let n) = value { state.transform.scale = Vector3(all: n) }
                                    })
        }
        return component(axis, of: "transform.scale", \.transform.scale)
    }

    /// `transform.rotation` about one axis, in radians.
    public static func rotation(_ axis: Axis) -> AnimatedProperty {
        component(axis, of: "transform.rotation", \.transform.rotation)
    }

    /// `transform.translation` along one axis.
    public static func translation(_ axis: Axis) -> AnimatedProperty {
        component(axis, of: "transform.translation", \.transform.translation)
    }

    /// Any other number in the layer's state, by key path.
    public static func custom(_ path: LayerKeyPath) -> AnimatedProperty {
        AnimatedProperty(key: "custom", kind: .number, identity: .keyPath(path),
                         read: { .number($0[keyPath: path.keyPath]) },
                         write: { state, value in
                             if case .number(let n) = value { state[keyPath: path.keyPath] = n }
                         })
    }

    /// The custom value `name` of the layer (`LayerState.custom`), holding a value of `kind`
    /// (a number, point or colour); a layer without it reads as zero (clear, for a colour).
    public static func custom(named name: String, kind: AnimatableValue.Kind = .number) -> AnimatedProperty {
        let zero: AnimatableValue = switch kind {
        case .point: .point(.zero)
        case .color: .color(.clear)
        default: .number(0)
        }
        return AnimatedProperty(key: "custom.\(name)", kind: kind, read: { $0.custom[name] ?? zero },
                                write: { state, value in
                                    if value.kind == zero.kind { state.custom[name] = value }
                                })
    }

    private static func component(_ axis: Axis, of key: String,
                                  _ vector: WritableKeyPath<LayerState, Vector3> & Sendable) -> AnimatedProperty {
        AnimatedProperty(key: "\(key).\(axis.rawValue)", kind: .number,
                         storage: MemoryLayout<LayerState>.offset(of: vector.appending(path: axis.component)).map { ($0, 1) },
                         read: { .number($0[keyPath: vector][axis]) },
                         write: { state, value in
                             if case .number(let n) = value { state[keyPath: vector][axis] = n }
                         })
    }
}
