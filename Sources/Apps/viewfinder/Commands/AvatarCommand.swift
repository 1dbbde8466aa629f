import AvatarCrop
import CommandLineKit
import Foundation
import Imaging
import MediaIO
import ViewfinderCore

/// `viewfinder avatar IMAGE -o OUT`: a circular or square avatar cut from a photo.
enum AvatarCommand: Command {
    static let name = "avatar"
    static let summary = N_("Cut a circular or square avatar out of a photo.")
    static let synopsis = "IMAGE -o OUT [--shape circle|square] [--size N] [--zoom Z] [--center auto|face|middle|X,Y] [--rotate DEG] [--spec SPEC.json] [--print-spec] [--json]"
    static let positionalCount = 1...1
    static let output = TypedOption.requiredPath("output", short: "o", value: "OUT",
                                                 help: N_("Image to write: .png or .webp (circle), .jpg/.png/.webp (square)."))
    /// `--shape circle|square`: nil when absent (circle, unless a replayed spec says otherwise).
    static let shape = SharedOption.shape(value: "SHAPE", help: N_("circle (default) or square."))
    static let size = TypedOption.integer("size", help: N_("Side of the avatar in pixels, 16-4096 (default 512)."), in: 16...4096, default: 512)
    static let zoom = TypedOption<Double>("zoom", value: "Z",
                                          help: N_("How much closer than the starting crop (1 = the face framing or the largest crop; default 1)."),
                                          absent: { 1 }) { text throws(InvalidValueError) in
        guard let value = Double(text), value.isFinite, value >= 1, value <= 1000 else {
            throw InvalidValueError(tr("expected a number from 1 (the largest crop) to 1000, not '{text}'", ["text": text]))
        }
        return value
    }
    /// `--center WHERE`: a named centre, or a point in the upright photo's pixels.
    static let center = TypedOption<Centre>("center", value: "WHERE",
                                            help: N_("auto (the face if one is found, else the middle; default), face, middle, or X,Y in pixels of the upright photo."),
                                            absent: { .named(.auto) }) { text throws(InvalidValueError) in
        if let named = AvatarCentre(rawValue: text.lowercased()) { return .named(named) }
        let parts = text.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2, let x = parts[0], let y = parts[1], x.isFinite, y.isFinite else {
            throw InvalidValueError(tr("expected auto, face, middle or X,Y in pixels (like 1200,800), not '{text}'", ["text": text]))
        }
        return .point(Point(x: x, y: y))
    }
    static let rotate = TypedOption<Double>("rotate", value: "DEG",
                                            help: N_("Turn the photo clockwise by DEG degrees (-360 to 360, negative: anticlockwise) to straighten it."),
                                            absent: { 0 }) { text throws(InvalidValueError) in
        guard let value = Double(text), value.isFinite, abs(value) <= CropSpec.maximumRotation else {
            throw InvalidValueError(tr("expected degrees from -360 to 360, like 2.5 or -90, not '{text}'", ["text": text]))
        }
        return value
    }
    static let spec = TypedOption.text("spec", value: "FILE", help: N_("Replay a crop saved with --print-spec (shape, crop and size come from it)."))
    static let printSpec = TypedOption.flag("print-spec", help: N_("Print the crop used as JSON on stdout (replayable with --spec)."))
    static let maxPixels = TypedOption.integer("max-pixels", value: "MP", help: N_("The most megapixels a decode may hold, after shrink-on-load (default 100)."),
                                               in: 1...10_000, default: 100)
    static let quality = Arguments.imageQuality(default: 90, help: N_("JPEG/WebP quality 1-100 (default 90)."))
    static let keepProfile = TypedOption.flag("keep-profile",
                                              help: N_("Keep a wide-gamut photo's own colours, its ICC profile embedded (default: converted to sRGB)."))
    static let json = TypedOption.flag("json", help: N_("Print what was written as JSON."))
    static let options = OptionSpec.list(output, shape, size, zoom, center, rotate, spec, printSpec, maxPixels, quality, keepProfile, json)

    /// Where `--center` puts the crop.
    enum Centre: Sendable {
        /// Chosen by the photo (a face, or the middle).
        case named(AvatarCentre)
        /// This point of the upright photo.
        case point(Point)
    }
    static let discussion = N_("""
    The photo is turned upright (EXIF orientation) first; --center X,Y is in its upright pixels.
    By default the crop starts on the most prominent face (the largest and most central one that
    OpenCV's frontal-face detector finds): a circle 2.6 face-widths across, centred a little
    below the face's middle, so the hair has room above and the chin is well inside. A face too
    large for that gets the largest crop the photo holds, as near the face as it goes. With no
    face (or --center middle) the crop is the largest centred square, as the editor opens.
    --print-spec and --json say which ("framing").

    --rotate turns the photo about the crop's centre (a tilted horizon, a sideways photo); the
    crop stays upright. A square zooms in just enough that the turned photo still covers it
    (at 45° by up to √2); a circle needs no more zoom, since a turned circle is the same circle.
    The spec records the angle, and --spec replays it byte for byte. A circle
    is a PNG (or WebP) that is fully transparent outside the circle with an antialiased edge; the
    colour is never darkened or lightened at the edge. Large photos are shrunk while they load,
    so memory follows the avatar's size; images that no decode can hold within --max-pixels,
    even shrunk on load (a JPEG by up to 8), are refused from their header.

    Colours: a photo with an ICC profile (Display P3 from phones, Adobe RGB from cameras) is
    converted from it to sRGB, the avatar written without a profile, which every viewer shows
    right. --keep-profile instead keeps the photo's own colours and embeds its profile (wider
    colours on wide-gamut screens, for viewers that read profiles); photos without a usable RGB
    profile (none, damaged, CMYK, grey) are written in sRGB either way.
    """)

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let input = URL(fileURLWithPath: arguments.positionals[0])
        let output = try arguments[Self.output]
        let side = try arguments[size]
        let quality = try arguments[Self.quality]
        let megapixels = try arguments[maxPixels]
        var shape = try arguments[Self.shape] ?? .circle
        let zoom = try arguments[Self.zoom]
        var center: Point?
        var centre = AvatarCentre.auto
        switch try arguments[Self.center] {
        case .named(let named): centre = named
        case .point(let point): center = point
        }
        let rotation = try arguments[rotate]
        var replayed: CropSpec?
        if let path = try arguments[spec] {
            let data: Data
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: path))
            } catch {
                throw RuntimeError(tr("cannot read the spec {file}: {reason}", ["file": path, "reason": (error as NSError).localizedDescription]))
            }
            do {
                replayed = try CropSpec.parse(data)
            } catch {
                throw RuntimeError(tr("{file} is not a valid crop spec: {reason}",
                                      ["file": (path as NSString).lastPathComponent, "reason": error.reason]))
            }
            shape = replayed?.shape ?? shape
        }
        try Arguments.checkImageOutput(output, input: input, option: Self.output, in: arguments)
        if shape == .circle, output.pathExtension.lowercased() == "jpg" || output.pathExtension.lowercased() == "jpeg" {
            throw arguments.invalid(Self.output, tr("a circle needs transparency: use .png or .webp (or --shape square)"))
        }

        _ = try checkReadableMediaFile(input)
        // HEIC and friends need libvips' modules; the everyday formats start faster without.
        ImagingRuntime.loadsOptionalFormats = !ImagingRuntime.isCoreFormat(input)
        let photo = try Photo(url: input, maxPixels: Int64(megapixels) * 1_000_000,
                              keepingProfile: try arguments[keepProfile])
        if photo.info.profile == .unusable {
            ViewfinderTool.standardError("viewfinder: " + tr("warning: {file}'s colour profile is damaged or not for its colours; it is read as sRGB",
                                                             ["file": input.lastPathComponent.printable()]))
        }
        let spec: CropSpec
        if let replayed {
            spec = replayed
        } else if let center {
            var given = CropSpec.centred(imageSize: photo.size, shape: shape, outputSide: side, zoom: zoom, center: center,
                                         rotation: rotation)
            given.framing = CropFraming(.point)
            spec = given
        } else {
            spec = try FaceFraming.startingCrop(for: photo, shape: shape, outputSide: side, centre: centre, zoom: zoom,
                                                rotation: rotation)
        }
        let avatar = try AvatarMaker.render(photo, spec)
        let profile = try photo.keptProfile()
        try ImageEncoder.write(avatar, to: output, quality: quality, profile: profile)

        if try arguments[printSpec] {
            print(spec.json())
        } else if try arguments[json] {
            print(JSONValue.object([
                ("input", .string(input.path)),
                ("output", .string(output.path)),
                ("shape", .string(shape == .circle ? "circle" : "square")),
                ("width", .int(avatar.width)),
                ("height", .int(avatar.height)),
                ("crop", .object([("x", .literal(format(spec.rect.minX))), ("y", .literal(format(spec.rect.minY))),
                                  ("width", .literal(format(spec.rect.width))), ("height", .literal(format(spec.rect.height)))])),
                ("rotation", .literal(format(spec.rotation))),
                ("photoWidth", .int(photo.size.width)),
                ("photoHeight", .int(photo.size.height)),
                ("profile", .string(profile == nil ? "sRGB" : photo.info.profile.summary)),
                ("framing", framingJSON(spec.framing)),
            ]).rendered())
        } else {
            print(resultText(output: output, avatar: avatar, shape: shape, spec: spec))
        }
        return 0
    }

    /// "OUT: 512×512 circle from 800×800 at 10,20 turned 2°, around the face at …", in the
    /// user's language.
    private static func resultText(output: URL, avatar: RasterImage, shape: CropShape, spec: CropSpec) -> String {
        let values: KeyValuePairs<String, any CustomStringConvertible> = [
            "file": output.path, "width": avatar.width, "height": avatar.height,
            "cropWidth": format(spec.rect.width), "cropHeight": format(spec.rect.height),
            "x": format(spec.rect.minX), "y": format(spec.rect.minY),
        ]
        // TRANSLATORS: an avatar written: its size, then the crop of the photo it shows (size, top-left corner).
        var text = shape == .circle ? tr("{file}: {width}×{height} circle from {cropWidth}×{cropHeight} at {x},{y}", values)
            // TRANSLATORS: as the circle's line, for a square avatar.
            : tr("{file}: {width}×{height} square from {cropWidth}×{cropHeight} at {x},{y}", values)
        if spec.rotation != 0 {
            // TRANSLATORS: the line above ({avatar}) when the photo was turned.
            text = tr("{avatar} turned {degrees}°", ["avatar": text, "degrees": format(spec.rotation)])
        }
        if let framing = framingText(spec.framing) { text = [text, framing].joinedAsDetails() }
        return text
    }

    /// "around the face at X,Y (W×H)" / "in the middle (no face found)" / nil for a replay, in
    /// the user's language.
    private static func framingText(_ framing: CropFraming?) -> String? {
        guard let framing else { return nil }
        switch framing.kind {
        case .face:
            guard let face = framing.face else { return tr("around a face") }
            return tr("around the face at {x},{y} ({width}×{height})", ["x": format(face.minX), "y": format(face.minY),
                                                                       "width": format(face.width), "height": format(face.height)])
        case .middle:
            guard let note = framing.note else { return tr("in the middle") }
            return tr("in the middle ({reason})", ["reason": note])
        case .point: return tr("centred where asked")
        case .editor: return nil
        }
    }

    /// {"kind": …, "face": {…}, "note": …}, or null for a replayed spec that did not say.
    private static func framingJSON(_ framing: CropFraming?) -> JSONValue {
        guard let framing else { return .null }
        var fields: [(String, JSONValue)] = [("kind", .string(framing.kind.rawValue))]
        if let face = framing.face {
            fields.append(("face", .object([("x", .literal(format(face.minX))), ("y", .literal(format(face.minY))),
                                            ("width", .literal(format(face.width))), ("height", .literal(format(face.height)))])))
        }
        if let note = framing.note { fields.append(("note", .string(note))) }
        return .object(JSONObject(fields))
    }

    private static func format(_ value: Double) -> String {
        let rounded = (value * 1000).rounded() / 1000
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}
