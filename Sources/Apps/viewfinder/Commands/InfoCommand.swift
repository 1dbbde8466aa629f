import CommandLineKit
import Foundation
import Imaging
import MediaIO
import ViewfinderCore

/// `viewfinder info FILE [--json]`: what a video or photo is, without decoding pictures.
enum InfoCommand: Command {
    static let name = "info"
    static let summary = "Describe a video or photo: container, duration, codecs, size, rotation."
    static let synopsis = "FILE [--json]"
    static let positionalCount = 1...1
    static let options = [OptionSpec("json", help: "Print one JSON object instead of text.")]
    static let discussion = """
    Videos: container, duration (exact and in seconds), video codec, coded size, display
    rotation (clockwise, from the display matrix), size as displayed, frame rate, colour (SDR,
    HLG, PQ/HDR10 or Dolby Vision with its profile; transfer, primaries, matrix and range as
    signalled; HDR10 mastering-display and light-level metadata), audio codec and file size. Photos: format, stored size, EXIF orientation, size as displayed, and what
    their EXIF, XMP and IPTC say (location, camera, lens, exposure, capture date, software).
    Live Photos and Motion Photos say what they are (live): an iPhone Live Photo's still or
    movie with the content identifier the two share, or a Motion Photo with the byte range of
    the MP4 inside it.
    """

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let url = URL(fileURLWithPath: arguments.positionals[0])
        let json = arguments.flag("json")
        let size = try checkReadableMediaFile(url)
        if let image = try? ImageInfo.probe(url) {
            print(json ? photoJSON(image, url: url, bytes: size).rendered() : photoText(image, url: url, bytes: size))
            return 0
        }
        let info = try probeMedia(at: url)
        print(json ? videoJSON(info).rendered() : videoText(info))
        return 0
    }

    static func videoJSON(_ info: MediaInfo) -> JSONValue {
        let v = info.video
        let tail: [(String, JSONValue)] = [
            ("audioCodec", .optional(info.audioCodec)),
            ("embeddedCover", .optional(info.embeddedCover)),
            ("live", info.livePhoto?.json ?? .null),
            ("metadata", info.metadata.json),
            ("fileSize", .integer(info.fileSize)),
        ]
        let head: [(String, JSONValue)] = [
            ("path", .string(info.path)),
            ("kind", .string(v == nil ? "audio" : "video")),
            ("container", .string(info.container)),
            ("duration", .time(info.duration)),
            ("durationExact", .string(info.duration.rationalString)),
            ("videoCodec", .optional(v?.codec)),
            ("streamIndex", v.map { .int($0.streamIndex) } ?? .null),
            ("width", v.map { .int($0.codedSize.width) } ?? .null),
            ("height", v.map { .int($0.codedSize.height) } ?? .null),
            ("rotation", v.map { .int($0.rotation.degrees) } ?? .null),
            ("displayWidth", v.map { .int($0.displaySize.width) } ?? .null),
            ("displayHeight", v.map { .int($0.displaySize.height) } ?? .null),
            ("sampleAspectRatio", v.map { .string("\($0.sampleAspectRatio.value):\($0.sampleAspectRatio.timescale)") } ?? .null),
            ("frameRate", v?.frameRate.map(JSONValue.time) ?? .null),
            ("frameRateExact", v?.frameRate.map { .string($0.rationalString) } ?? .null),
            ("frameCount", v?.frameCount.map(JSONValue.int) ?? .null),
            ("pixelFormat", .optional(v?.pixelFormat)),
            ("colour", v.map { colourJSON($0.colour) } ?? .null),
        ]
        return .object(JSONObject(head + tail))
    }

    static func videoText(_ info: MediaInfo) -> String {
        var lines = [info.path]
        func add(_ key: String, _ value: String) {
            lines.append("  " + key.padding(toLength: 12, withPad: " ", startingAt: 0) + value)
        }
        add("kind", info.video == nil ? "audio" : "video")
        add("container", "\(info.container) (\(info.containerDescription))")
        add("duration", "\(info.duration.decimalString) s (\(info.duration.rationalString))")
        if let v = info.video {
            add("video", "\(v.codec)\(v.pixelFormat.map { ", \($0)" } ?? "")")
            add("coded", "\(v.codedSize.width)×\(v.codedSize.height)")
            add("rotation", "\(v.rotation.degrees)°")
            add("displayed", "\(v.displaySize.width)×\(v.displaySize.height)")
            if let rate = v.frameRate { add("frame rate", "\(rate.decimalString) fps (\(rate.rationalString))") }
            if let count = v.frameCount { add("frames", String(count)) }
            add("colour", colourText(v.colour))
            if let m = v.colour.mastering { add("mastering", masteringText(m)) }
        }
        add("audio", info.audioCodec ?? "none")
        if let cover = info.embeddedCover { add("cover", "embedded (\(cover))") }
        if let live = info.livePhoto { add("live", live.summary) }
        for (key, value) in info.metadata.lines { add(key, value) }
        add("file size", "\(info.fileSize) bytes")
        return lines.joined(separator: "\n")
    }

    /// The colour a track signals: its kind, then what it says (unsaid parts left out).
    static func colourText(_ c: VideoColour) -> String {
        let said = [("transfer", c.transfer), ("primaries", c.primaries), ("matrix", c.matrix), ("range", c.range)]
            .compactMap { name, value in value.map { "\(name) \($0)" } }
        return c.summary + (said.isEmpty ? " (nothing signalled)" : " (" + said.joined(separator: ", ") + ")")
    }

    static func masteringText(_ m: HDRMetadata) -> String {
        var parts: [String] = []
        if let p = m.displayPrimaries {
            parts.append(p.name.map { "\($0) display" } ?? String(
                format: "display primaries R %.4f,%.4f G %.4f,%.4f B %.4f,%.4f W %.4f,%.4f",
                p.red.x, p.red.y, p.green.x, p.green.y, p.blue.x, p.blue.y, p.white.x, p.white.y))
        }
        if let peak = m.masteringPeak { parts.append("\(m.displayPrimaries == nil ? "display " : "")peak \(decimal(peak)) nits") }
        if let black = m.masteringBlack { parts.append("black \(decimal(black)) nits") }
        if let cll = m.maxContentLight { parts.append("MaxCLL \(cll)") }
        if let fall = m.maxFrameAverageLight { parts.append("MaxFALL \(fall)") }
        return parts.joined(separator: ", ")
    }

    private static func decimal(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e9 ? String(Int(value)) : String(format: "%.4f", value)
    }

    static func colourJSON(_ c: VideoColour) -> JSONValue {
        .object([
            ("hdr", .optional(c.dynamicRange?.rawValue)),
            ("summary", .string(c.summary)),
            ("transfer", .optional(c.transfer)),
            ("primaries", .optional(c.primaries)),
            ("matrix", .optional(c.matrix)),
            ("range", .optional(c.range)),
            ("dolbyVision", c.dolbyVision.map { dv in
                .object([("profile", .int(dv.profile)), ("level", .int(dv.level)),
                         ("compatibility", .int(dv.compatibility)), ("name", .string(dv.profileName))])
            } ?? .null),
            ("mastering", c.mastering.map(masteringJSON) ?? .null),
        ])
    }

    private static func masteringJSON(_ m: HDRMetadata) -> JSONValue {
        .object([("displayPeak", m.masteringPeak.map { .literal(decimal($0)) } ?? .null),
                 ("displayBlack", m.masteringBlack.map { .literal(decimal($0)) } ?? .null),
                 ("maxCLL", m.maxContentLight.map(JSONValue.int) ?? .null),
                 ("maxFALL", m.maxFrameAverageLight.map(JSONValue.int) ?? .null),
                 ("displayPrimaries", m.displayPrimaries.map(primariesJSON) ?? .null)])
    }

    private static func primariesJSON(_ p: DisplayPrimaries) -> JSONValue {
        func xy(_ c: Chromaticity) -> JSONValue {
            .array([.literal(String(format: "%.5f", c.x)), .literal(String(format: "%.5f", c.y))])
        }
        return .object([("name", .optional(p.name)), ("red", xy(p.red)), ("green", xy(p.green)), ("blue", xy(p.blue)),
                        ("white", xy(p.white))])
    }

    static func photoJSON(_ image: ImageInfo, url: URL, bytes: Int64) -> JSONValue {
        .object([
            ("path", .string(url.path)),
            ("kind", .string("photo")),
            ("format", .string(image.format)),
            ("width", .int(image.storedSize.width)),
            ("height", .int(image.storedSize.height)),
            ("orientation", .int(image.orientation)),
            ("displayWidth", .int(image.displaySize.width)),
            ("displayHeight", .int(image.displaySize.height)),
            ("bands", .int(image.bands)),
            ("colourProfile", profileJSON(image.profile)),
            ("fileSize", .integer(bytes)),
            ("live", LivePhotoProbe.role(ofPhoto: url)?.json ?? .null),
            ("metadata", (try? PhotoMetadata.read(url))?.json ?? .null),
        ])
    }

    static func profileJSON(_ profile: ImageInfo.ColourProfile) -> JSONValue {
        switch profile {
        case .none: .null
        case .embedded(let name): .object([("description", .string(name)), ("usable", .bool(true))])
        case .unusable: .object([("description", .null), ("usable", .bool(false))])
        }
    }

    static func photoText(_ image: ImageInfo, url: URL, bytes: Int64) -> String {
        """
        \(url.path)
          kind        photo
          format      \(image.format)
          stored      \(image.storedSize.width)×\(image.storedSize.height)
          orientation \(image.orientation) (EXIF)
          displayed   \(image.displaySize.width)×\(image.displaySize.height)
          profile     \(image.profile.summary)
          file size   \(bytes) bytes
        """ + (LivePhotoProbe.role(ofPhoto: url).map { "\n  live        " + $0.summary } ?? "") + ((try? PhotoMetadata.read(url))?.lines ?? []).map { "\n  " + $0.0.padding(toLength: 12, withPad: " ", startingAt: 0) + $0.1 }.joined()
    }
}
