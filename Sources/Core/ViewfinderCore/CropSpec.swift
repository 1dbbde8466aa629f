import Foundation

/// The outline of an avatar crop.
///
/// It encodes as `{"kind":"circle"}`, `{"kind":"square"}` or
/// `{"kind":"rectangle","aspectRatio":1.5}` so that a spec file reads and edits by hand.
public enum CropShape: Sendable, Hashable, Codable {
    /// A round avatar, cut from a square.
    case circle
    /// A square avatar.
    case square
    /// A rectangle `aspectRatio` times as wide as it is high.
    case rectangle(aspectRatio: Double)

    /// Width divided by height: 1 for a circle or a square.
    public var aspectRatio: Double {
        switch self {
        case .circle, .square: 1
        case .rectangle(let aspectRatio): aspectRatio
        }
    }

    /// Whether the outline is square, so its output must be square too.
    public var isSquare: Bool { self == .circle || self == .square }

    /// The aspect ratio, or 1 when a rectangle's is not a positive number, so layout never
    /// divides by zero; `CropSpec.validated()` is where a bad ratio is reported.
    var usableAspectRatio: Double {
        let aspect = aspectRatio
        return aspect.isFinite && aspect > 0 ? aspect : 1
    }

    // MARK: - Codable

    private enum CodingKeys: String, CodingKey {
        case kind, aspectRatio
    }

    /// Reads `{"kind": …}` with `aspectRatio` for rectangles.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let kind = try c.decode(String.self, forKey: .kind)
        switch kind {
        case "circle": self = .circle
        case "square": self = .square
        case "rectangle": self = .rectangle(aspectRatio: try c.decode(Double.self, forKey: .aspectRatio))
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .kind, in: c,
                debugDescription: tr("unknown shape \"{shape}\"; use circle, square or rectangle", ["shape": kind])
            )
        }
    }

    /// Writes `{"kind": …}` with `aspectRatio` for rectangles.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .circle: try c.encode("circle", forKey: .kind)
        case .square: try c.encode("square", forKey: .kind)
        case .rectangle(let aspectRatio):
            try c.encode("rectangle", forKey: .kind)
            try c.encode(aspectRatio, forKey: .aspectRatio)
        }
    }
}

/// How a crop was placed when it was made: what the person (or the default) chose.
public struct CropFraming: Sendable, Hashable, Codable {
    /// What the crop is centred on.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// Around a face the detector found (`face` is its box).
        case face
        /// The middle of the photo.
        case middle
        /// A point the person gave (`--center X,Y`).
        case point
        /// Wherever the person moved it in the crop editor.
        case editor
    }

    /// What the crop is centred on.
    public var kind: Kind
    /// The face the crop is around, in upright image pixels, when `kind` is `.face`.
    public var face: Rect?
    /// Why the crop is where it is when that is not what was asked (for example "no face
    /// found" when the middle was taken instead), in a person's words.
    public var note: String?

    /// A framing of `kind`.
    public init(_ kind: Kind, face: Rect? = nil, note: String? = nil) {
        self.kind = kind
        self.face = face
        self.note = note
    }
}

/// Why a crop spec cannot be used, in words for the person who wrote it.
public struct CropSpecError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong and, where it helps, what to change.
    public let reason: String

    /// An error carrying `reason`.
    public init(reason: String) {
        self.reason = reason
    }

    /// "invalid crop spec: <reason>".
    public var description: String { tr("invalid crop spec: {reason}", ["reason": reason]) }
}

/// Everything needed to cut an avatar out of a photo: which photo (by its size), which part of it,
/// what outline and how big the result is. The editor produces one; the CLI reads and writes it
/// as JSON, so a crop chosen once can be replayed.
public struct CropSpec: Sendable, Hashable, Codable {
    /// The size of the upright photo the rectangle refers to.
    public var imageSize: PixelSize
    /// The part of the photo to keep, in upright image pixels.
    public var rect: Rect
    /// The outline of the avatar.
    public var shape: CropShape
    /// The size of the avatar to produce, in pixels.
    public var outputSize: PixelSize
    /// How the crop was placed when it was made (around a face, in the middle, on a given
    /// point), for the record: a replay cuts `rect` whatever this says. Absent in specs written
    /// before faces were looked for.
    public var framing: CropFraming?
    /// How far the photo is turned, in degrees, clockwise, about the centre of `rect`, to
    /// straighten it: `rect` is the crop in the turned photo's axes, and turned back it lies
    /// inside the photo. 0 (the default, and left out of the JSON) for no turn.
    public var rotation: Double

    /// The largest output side accepted, so a typo cannot ask for a gigapixel avatar.
    public static let maximumOutputSide = 8192

    /// A spec as given; call `validated()` before trusting it.
    public init(imageSize: PixelSize, rect: Rect, shape: CropShape, outputSize: PixelSize, framing: CropFraming? = nil,
                rotation: Double = 0) {
        self.imageSize = imageSize
        self.rect = rect
        self.shape = shape
        self.outputSize = outputSize
        self.framing = framing
        self.rotation = rotation
    }

    /// The most a spec may turn the photo either way, in degrees.
    public static let maximumRotation = 360.0

    /// The corners of `rect` turned back by `rotation` about its centre: where the crop's
    /// corners lie in the photo.
    public var corners: [Point] {
        let c = rect.center
        return [(-1.0, -1.0), (1, -1), (1, 1), (-1, 1)].map { sx, sy in
            let turned = CropGeometry.turn(Point(x: sx * rect.width / 2, y: sy * rect.height / 2), by: -rotation)
            return Point(x: c.x + turned.x, y: c.y + turned.y)
        }
    }

    private enum CodingKeys: String, CodingKey {
        case imageSize, rect, shape, outputSize, framing, rotation
    }

    /// Reads a spec; `framing` and `rotation` may be absent (specs written before them).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        imageSize = try c.decode(PixelSize.self, forKey: .imageSize)
        rect = try c.decode(Rect.self, forKey: .rect)
        shape = try c.decode(CropShape.self, forKey: .shape)
        outputSize = try c.decode(PixelSize.self, forKey: .outputSize)
        framing = try c.decodeIfPresent(CropFraming.self, forKey: .framing)
        rotation = try c.decodeIfPresent(Double.self, forKey: .rotation) ?? 0
    }

    /// Writes a spec; `framing` only when known and `rotation` only when not 0, so a spec
    /// without either prints as it always did.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(imageSize, forKey: .imageSize)
        try c.encode(rect, forKey: .rect)
        try c.encode(shape, forKey: .shape)
        try c.encode(outputSize, forKey: .outputSize)
        try c.encodeIfPresent(framing, forKey: .framing)
        if rotation != 0 { try c.encode(rotation, forKey: .rotation) }
    }

    /// This spec if it describes a crop that can be cut, or the first reason it cannot: the photo
    /// and the rectangle have positive sizes, the rectangle lies inside the photo (to within
    /// 1e-6 pixel), the output is 1…8192 pixels a side, the output has the rectangle's aspect
    /// ratio and the shape's (within 1 %), and a circle or square has a square output.
    public func validated() throws(CropSpecError) -> CropSpec {
        guard imageSize.width > 0, imageSize.height > 0 else {
            throw CropSpecError(reason: tr("the photo size {size} must be at least 1×1 pixel", ["size": imageSize]))
        }
        guard rect.isFinite else {
            throw CropSpecError(reason: tr("the crop rectangle {rectangle} must contain only numbers", ["rectangle": rect]))
        }
        guard rect.width > 0, rect.height > 0 else {
            throw CropSpecError(reason: tr("the crop rectangle {rectangle} must have a positive width and height", ["rectangle": rect]))
        }
        guard rotation.isFinite, abs(rotation) <= CropSpec.maximumRotation else {
            throw CropSpecError(reason: tr("the rotation {rotation} must be a number of degrees from -360 to 360", ["rotation": rotation]))
        }
        let photo = Rect(x: 0, y: 0, width: Double(imageSize.width), height: Double(imageSize.height))
        if rotation == 0 || shape == .circle {
            // A circle turned is the same circle: its bounding square must lie in the photo.
            guard photo.contains(rect, tolerance: 1e-6) else {
                throw CropSpecError(reason: tr("the crop rectangle {rectangle} reaches outside the {size} photo", ["rectangle": rect, "size": imageSize]))
            }
        } else {
            let inside = photo.insetBy(-1e-6)
            guard corners.allSatisfy(inside.contains) else {
                throw CropSpecError(reason: tr("the crop rectangle {rectangle} turned by {rotation}° reaches outside the {size} photo",
                                                   ["rectangle": rect, "rotation": rotation, "size": imageSize]))
            }
        }
        let sides = 1...CropSpec.maximumOutputSide
        guard sides.contains(outputSize.width), sides.contains(outputSize.height) else {
            throw CropSpecError(
                reason: tr("the output size {size} must be 1 to {limit} pixels a side", ["size": outputSize, "limit": CropSpec.maximumOutputSide])
            )
        }
        let shapeAspect = shape.aspectRatio
        guard shapeAspect.isFinite, shapeAspect > 0 else {
            throw CropSpecError(reason: tr("a rectangle's aspect ratio must be a positive number, not {ratio}", ["ratio": shapeAspect]))
        }
        if shape.isSquare, outputSize.width != outputSize.height {
            throw CropSpecError(reason: shape == .circle ? tr("a circle needs a square output, not {size}", ["size": outputSize])
                                                         : tr("a square needs a square output, not {size}", ["size": outputSize]))
        }
        let outputAspect = Double(outputSize.width) / Double(outputSize.height)
        guard CropSpec.nearlyEqual(outputAspect, rect.size.aspectRatio) else {
            throw CropSpecError(
                reason: tr("the output size {size} does not have the crop rectangle's shape {shape}", ["size": outputSize, "shape": rect.size])
            )
        }
        guard CropSpec.nearlyEqual(outputAspect, shapeAspect) else {
            let values: KeyValuePairs<String, any CustomStringConvertible> = ["size": outputSize, "ratio": shapeAspect]
            let reason = switch shape {
            case .circle: tr("the output size {size} does not have the circle's aspect ratio {ratio}", values)
            case .square: tr("the output size {size} does not have the square's aspect ratio {ratio}", values)
            case .rectangle: tr("the output size {size} does not have the rectangle's aspect ratio {ratio}", values)
            }
            throw CropSpecError(reason: reason)
        }
        return self
    }

    /// The crop the CLI makes without an editor: the largest crop of `shape` that fits the photo
    /// turned by `rotation` degrees, made `zoom` times smaller (zoom below 1 or not a number counts
    /// as 1), centred on `center` (image pixels; the middle of the photo by default) and then
    /// moved just enough to lie inside the photo. The output is `outputSide` square for a circle
    /// or square, and `outputSide` wide for a rectangle. Nothing is checked here; call
    /// `validated()` on the result.
    public static func centred(
        imageSize: PixelSize, shape: CropShape, outputSide: Int, zoom: Double = 1, center: Point? = nil,
        rotation: Double = 0
    ) -> CropSpec {
        let photo = Size(imageSize)
        // Showing the photo in a viewport of its own size, the largest unturned crop has minimum
        // zoom 1, so the editor's maths gives "zoom relative to the minimum" and the clamping
        // (for the turned photo too) for free.
        let geometry = CropGeometry(
            imageSize: photo, viewportSize: photo,
            cropSize: CropGeometry.cropSize(for: shape, in: photo),
            maximumZoom: .greatestFiniteMagnitude, round: shape == .circle
        )
        let turn = rotation.isFinite ? rotation : 0
        let relativeZoom = zoom.isFinite && zoom > 1 ? zoom : 1
        let start = geometry.clamped(CropState(
            zoom: geometry.minimumZoom(at: turn) * relativeZoom,
            center: center ?? Point(x: photo.width / 2, y: photo.height / 2),
            rotation: turn
        ))
        return CropSpec(imageSize: imageSize, rect: geometry.cropRect(start), shape: shape,
                        outputSize: outputSize(for: shape, side: outputSide), rotation: turn)
    }

    /// The output size of a shape: `side` square for a circle or square, `side` wide (height
    /// from the aspect ratio) for a rectangle.
    public static func outputSize(for shape: CropShape, side: Int) -> PixelSize {
        if shape.isSquare { return PixelSize(width: side, height: side) }
        let height = (Double(side) / shape.usableAspectRatio).rounded()
        return PixelSize(width: side, height: max(1, Int(exactly: height) ?? 1))
    }

    /// The spec as pretty JSON with sorted keys, so the same spec always prints the same text.
    public func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        encoder.nonConformingFloatEncodingStrategy = CropSpec.nonNumbers
        // With non-numbers spelled as strings nothing here can fail to encode; the fallback only
        // keeps this function total.
        guard let data = try? encoder.encode(self), let text = String(data: data, encoding: .utf8) else {
            return "{}"
        }
        return text
    }

    /// A spec read from JSON and validated; any problem is a `CropSpecError` that says where.
    public static func parse(_ data: Data) throws(CropSpecError) -> CropSpec {
        // Faults the decoder would call "not valid JSON": deep nesting, numbers out of range.
        do {
            try JSONPreflight.check(data, maxDepth: 16, limitNote: tr("a crop spec holds pixel sizes and positions"),
                                    wholeNumbers: ["imageSize.width", "imageSize.height", "outputSize.width", "outputSize.height"])
        } catch {
            throw CropSpecError(reason: error.path.isEmpty ? error.message : tr("\"{path}\": {message}", ["path": error.path, "message": error.message]))
        }
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = CropSpec.nonNumbersDecoding
        let spec: CropSpec
        do {
            spec = try decoder.decode(CropSpec.self, from: data)
        } catch let error as DecodingError {
            throw CropSpecError(reason: CropSpec.explain(error))
        } catch {
            throw CropSpecError(reason: tr("not readable as JSON ({reason})", ["reason": error.localizedDescription]))
        }
        return try spec.validated()
    }

    // MARK: - Helpers

    private static let nonNumbers = JSONEncoder.NonConformingFloatEncodingStrategy.convertToString(
        positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan"
    )
    private static let nonNumbersDecoding = JSONDecoder.NonConformingFloatDecodingStrategy.convertFromString(
        positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan"
    )

    /// Within 1 % of each other, which absorbs rounding the output to whole pixels.
    private static func nearlyEqual(_ a: Double, _ b: Double) -> Bool {
        abs(a / b - 1) <= 0.01
    }

    /// A decoding error in a person's words: which field, and what was wrong with it.
    private static func explain(_ error: DecodingError) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            keys.isEmpty ? tr("the top level") : "\"" + keys.map { $0.intValue.map(String.init) ?? $0.stringValue }
                .joined(separator: ".") + "\""
        }
        switch error {
        case .keyNotFound(let key, let context):
            return tr("missing {field}", ["field": path(context.codingPath + [key])])
        case .typeMismatch(let type, let context):
            return tr("{field} should be {type}", ["field": path(context.codingPath), "type": CropSpec.describe(type)])
        case .valueNotFound(let type, let context):
            return tr("{field} should be {type}, not null", ["field": path(context.codingPath), "type": CropSpec.describe(type)])
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty { return tr("not valid JSON") }
            return tr("{field}: {problem}", ["field": path(context.codingPath), "problem": context.debugDescription])
        @unknown default:
            return tr("not a crop spec")
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        if type == Int.self { return tr("a whole number") }
        if type == Double.self { return tr("a number") }
        if type == String.self { return tr("a string") }
        return tr("an object")
    }
}

extension CropSpecError: ReadableError {}
