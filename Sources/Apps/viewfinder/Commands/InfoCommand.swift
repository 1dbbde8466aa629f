import CommandLineKit
import Foundation
import Imaging
import MediaIO
import ViewfinderCore

/// `viewfinder info FILE [--json]`: what a video or photo is, without decoding pictures.
enum InfoCommand: Command {
    static let name = "info"
    static let summary = N_("Describe a video or photo: container, duration, codecs, size, rotation.")
    static let synopsis = "FILE [--json]"
    static let positionalCount = 1...1
    static let json = TypedOption.flag("json", help: N_("Print one JSON object instead of text."))
    static let options = json.specs
    static let discussion = N_("""
    Videos: container, duration (exact and in seconds), video codec, coded size, display
    rotation (clockwise, from the display matrix), size as displayed, frame rate, colour (SDR,
    HLG, PQ/HDR10 or Dolby Vision with its profile; transfer, primaries, matrix and range as
    signalled; HDR10 mastering-display and light-level metadata), audio codec and file size. Photos: format, stored size, EXIF orientation, size as displayed, and what
    their EXIF, XMP and IPTC say (location, camera, lens, exposure, capture date, software).
    Live Photos and Motion Photos say what they are (live): an iPhone Live Photo's still or
    movie with the content identifier the two share, or a Motion Photo with the byte range of
    the MP4 inside it.
    """)

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let url = URL(fileURLWithPath: arguments.positionals[0])
        let json = try arguments[json]
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
        var rows: [(String, String)] = []
        // TRANSLATORS: the labels and values of `viewfinder info`, a column of labels at the left.
        rows.append((tr("kind"), info.video == nil ? tr("audio") : tr("video")))
        rows.append((tr("container"), "\(info.container) (\(info.containerDescription))"))
        rows.append((tr("duration"), tr("{seconds} s ({exact})", ["seconds": info.duration.decimalString,
                                                                   "exact": info.duration.rationalString])))
        if let v = info.video {
            rows.append((tr("video"), "\(v.codec)\(v.pixelFormat.map { ", \($0)" } ?? "")"))
            // TRANSLATORS: the picture's size as stored in the stream, before rotation.
            rows.append((tr("coded"), "\(v.codedSize.width)×\(v.codedSize.height)"))
            rows.append((tr("rotation"), "\(v.rotation.degrees)°"))
            // TRANSLATORS: the picture's size as displayed, after rotation.
            rows.append((tr("displayed"), "\(v.displaySize.width)×\(v.displaySize.height)"))
            if let rate = v.frameRate {
                rows.append((tr("frame rate"), tr("{rate} fps ({exact})", ["rate": rate.decimalString, "exact": rate.rationalString])))
            }
            if let count = v.frameCount { rows.append((tr("frames"), String(count))) }
            rows.append((tr("colour"), colourText(v.colour)))
            // TRANSLATORS: HDR10 mastering-display metadata.
            if let m = v.colour.mastering { rows.append((tr("mastering"), masteringText(m))) }
        }
        rows.append((tr("audio"), info.audioCodec ?? tr("none")))
        if let cover = info.embeddedCover { rows.append((tr("cover"), tr("embedded ({format})", ["format": cover]))) }
        // TRANSLATORS: a Live Photo or Motion Photo (what it is follows).
        if let live = info.livePhoto { rows.append((tr("live"), live.summary)) }
        rows += info.metadata.lines
        rows.append((tr("file size"), fileSize(info.fileSize)))
        return ([info.path] + labelled(rows)).joined(separator: "\n")
    }

    /// Each row as "  label  value", the values lined up in a column at least 12 wide (wider
    /// when a translated label needs it).
    static func labelled(_ rows: [(String, String)]) -> [String] {
        let width = max(12, (rows.map { $0.0.terminalColumns }.max() ?? 0) + 1)
        return rows.map { label, value in "  " + label.padded(toColumns: width) + value }
    }

    /// "12345 bytes", in the user's language.
    static func fileSize(_ bytes: Int64) -> String {
        trn("{count} byte", "{count} bytes", Int(clamping: bytes))
    }

    /// The colour a track signals: its kind, then what it says (unsaid parts left out).
    static func colourText(_ c: VideoColour) -> String {
        let said = [c.transfer.map { tr("transfer {name}", ["name": $0]) }, c.primaries.map { tr("primaries {name}", ["name": $0]) },
                    c.matrix.map { tr("matrix {name}", ["name": $0]) }, c.range.map { tr("range {name}", ["name": $0]) }]
            .compactMap { $0 }
        if said.isEmpty { return tr("{kind} (nothing signalled)", ["kind": c.summary]) }
        return tr("{kind} ({signalled})", ["kind": c.summary, "signalled": said.joinedAsDetails()])
    }

    static func masteringText(_ m: HDRMetadata) -> String {
        var parts: [String] = []
        if let p = m.displayPrimaries {
            func xy(_ c: Chromaticity) -> String { String(format: "%.4f,%.4f", c.x, c.y) }
            if let name = p.name {
                // TRANSLATORS: {name} is a colour space such as "Display P3": the mastering display's.
                parts.append(tr("{name} display", ["name": name]))
            } else {
                // TRANSLATORS: the mastering display's primaries (red, green, blue) and white point, as x,y.
                parts.append(tr("display primaries R {red} G {green} B {blue} W {white}",
                                ["red": xy(p.red), "green": xy(p.green), "blue": xy(p.blue), "white": xy(p.white)]))
            }
        }
        if let peak = m.masteringPeak {
            parts.append(m.displayPrimaries == nil ? tr("display peak {nits} nits", ["nits": decimal(peak)])
                                                   : tr("peak {nits} nits", ["nits": decimal(peak)]))
        }
        if let black = m.masteringBlack { parts.append(tr("black {nits} nits", ["nits": decimal(black)])) }
        if let cll = m.maxContentLight { parts.append("MaxCLL \(cll)") }
        if let fall = m.maxFrameAverageLight { parts.append("MaxFALL \(fall)") }
        return parts.joinedAsDetails()
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
        var rows: [(String, String)] = [
            (tr("kind"), tr("photo")),
            (tr("format"), image.format),
            // TRANSLATORS: the photo's size as stored, before its EXIF orientation turns it.
            (tr("stored"), "\(image.storedSize.width)×\(image.storedSize.height)"),
            (tr("orientation"), "\(image.orientation) (EXIF)"),
            (tr("displayed"), "\(image.displaySize.width)×\(image.displaySize.height)"),
            // TRANSLATORS: the photo's ICC colour profile.
            (tr("profile"), tr(image.profile.summary)),
            (tr("file size"), fileSize(bytes)),
        ]
        if let role = LivePhotoProbe.role(ofPhoto: url) { rows.append((tr("live"), role.summary)) }
        rows += (try? PhotoMetadata.read(url))?.lines ?? []
        return ([url.path] + labelled(rows)).joined(separator: "\n")
    }
}
