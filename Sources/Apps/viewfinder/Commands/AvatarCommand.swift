import AvatarCrop
import CommandLineKit
import Foundation
import Imaging
import MediaIO
import ViewfinderCore

/// `viewfinder avatar IMAGE -o OUT`: a circular or square avatar cut from a photo.
enum AvatarCommand: Command {
    static let name = "avatar"
    static let summary = "Cut a circular or square avatar out of a photo."
    static let synopsis = "IMAGE -o OUT [--shape circle|square] [--size N] [--zoom Z] [--center auto|face|middle|X,Y] [--rotate DEG] [--spec SPEC.json] [--print-spec] [--json]"
    static let positionalCount = 1...1
    static let options = [
        OptionSpec("output", short: "o", value: "OUT", help: "Image to write: .png or .webp (circle), .jpg/.png/.webp (square)."),
        OptionSpec("shape", value: "SHAPE", help: "circle (default) or square."),
        OptionSpec("size", value: "N", help: "Side of the avatar in pixels, 16-4096 (default 512)."),
        OptionSpec("zoom", value: "Z", help: "How much closer than the starting crop (1 = the face framing or the largest crop; default 1)."),
        OptionSpec("center", value: "WHERE", help: "auto (the face if one is found, else the middle; default), face, middle, or X,Y in pixels of the upright photo."),
        OptionSpec("rotate", value: "DEG", help: "Turn the photo clockwise by DEG degrees (-360 to 360, negative: anticlockwise) to straighten it."),
        OptionSpec("spec", value: "FILE", help: "Replay a crop saved with --print-spec (shape, crop and size come from it)."),
        OptionSpec("print-spec", help: "Print the crop used as JSON on stdout (replayable with --spec)."),
        OptionSpec("max-pixels", value: "MP", help: "The most megapixels a decode may hold, after shrink-on-load (default 100)."),
        OptionSpec("quality", value: "Q", help: "JPEG/WebP quality 1-100 (default 90)."),
        OptionSpec("keep-profile", help: "Keep a wide-gamut photo's own colours, its ICC profile embedded (default: converted to sRGB)."),
        OptionSpec("json", help: "Print what was written as JSON."),
    ]
    static let discussion = """
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
    """

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let input = URL(fileURLWithPath: arguments.positionals[0])
        let output = URL(fileURLWithPath: try arguments.required("output"))
        let side = try arguments.integer("size", in: 16...4096, default: 512)
        let quality = try arguments.integer("quality", in: 1...100, default: 90)
        let megapixels = try arguments.integer("max-pixels", in: 1...10_000, default: 100)
        var shape = CropShape.circle
        if let text = arguments.value("shape") {
            switch text.lowercased() {
            case "circle": shape = .circle
            case "square": shape = .square
            default: throw arguments.invalid("shape", "expected circle or square, not '\(text)'")
            }
        }
        var zoom = 1.0
        if let text = arguments.value("zoom") {
            guard let value = Double(text), value.isFinite, value >= 1, value <= 1000 else {
                throw arguments.invalid("zoom", "expected a number from 1 (the largest crop) to 1000, not '\(text)'")
            }
            zoom = value
        }
        var center: Point?
        var centre = AvatarCentre.auto
        if let text = arguments.value("center") {
            if let named = AvatarCentre(rawValue: text.lowercased()) {
                centre = named
            } else {
                let parts = text.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
                guard parts.count == 2, let x = parts[0], let y = parts[1], x.isFinite, y.isFinite else {
                    throw arguments.invalid("center", "expected auto, face, middle or X,Y in pixels (like 1200,800), not '\(text)'")
                }
                center = Point(x: x, y: y)
            }
        }
        var rotation = 0.0
        if let text = arguments.value("rotate") {
            guard let value = Double(text), value.isFinite, abs(value) <= CropSpec.maximumRotation else {
                throw arguments.invalid("rotate", "expected degrees from -360 to 360, like 2.5 or -90, not '\(text)'")
            }
            rotation = value
        }
        var replayed: CropSpec?
        if let path = arguments.value("spec") {
            let data: Data
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: path))
            } catch {
                throw RuntimeError("cannot read the spec \(path): \((error as NSError).localizedDescription)")
            }
            do {
                replayed = try CropSpec.parse(data)
            } catch {
                throw RuntimeError("\((path as NSString).lastPathComponent) is not a valid crop spec: \(error.reason)")
            }
            shape = replayed?.shape ?? shape
        }
        try Arguments.checkImageOutput(output, input: input, option: "output", in: arguments)
        if shape == .circle, output.pathExtension.lowercased() == "jpg" || output.pathExtension.lowercased() == "jpeg" {
            throw arguments.invalid("output", "a circle needs transparency: use .png or .webp (or --shape square)")
        }

        _ = try checkReadableMediaFile(input)
        // HEIC and friends need libvips' modules; the everyday formats start faster without.
        ImagingRuntime.loadsOptionalFormats = !ImagingRuntime.isCoreFormat(input)
        let photo = try Photo(url: input, maxPixels: Int64(megapixels) * 1_000_000,
                              keepingProfile: arguments.flag("keep-profile"))
        if photo.info.profile == .unusable {
            ViewfinderTool.standardError("viewfinder: warning: \(input.lastPathComponent.printable())'s colour profile is damaged or not for its colours; it is read as sRGB")
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

        if arguments.flag("print-spec") {
            print(spec.json())
        } else if arguments.flag("json") {
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
            print("\(output.path): \(avatar.width)×\(avatar.height) \(shape == .circle ? "circle" : "square") from \(format(spec.rect.width))×\(format(spec.rect.height)) at \(format(spec.rect.minX)),\(format(spec.rect.minY))\(spec.rotation == 0 ? "" : " turned \(format(spec.rotation))°")\(framingText(spec.framing))")
        }
        return 0
    }

    /// ", around the face at X,Y (W×H)" / ", in the middle (no face found)" / "" for a replay.
    private static func framingText(_ framing: CropFraming?) -> String {
        guard let framing else { return "" }
        switch framing.kind {
        case .face:
            guard let face = framing.face else { return ", around a face" }
            return ", around the face at \(format(face.minX)),\(format(face.minY)) (\(format(face.width))×\(format(face.height)))"
        case .middle: return ", in the middle" + (framing.note.map { " (\($0))" } ?? "")
        case .point: return ", centred where asked"
        case .editor: return ""
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
