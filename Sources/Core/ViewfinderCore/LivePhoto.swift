import Foundation

/// A Google/Samsung Motion Photo: a JPEG or HEIC still with an MP4 appended, as its XMP says
/// (`Camera:MotionPhoto="1"` with a container directory whose `MotionPhoto` item gives the
/// video's length, or the older `MicroVideo="1"` with `MicroVideoOffset`, bytes from the end).
public struct MotionPhotoLayout: Sendable, Equatable {
    /// Where the MP4 starts in the file, in bytes.
    public let offset: Int64
    /// Its length in bytes (to the end of the file).
    public let length: Int64
    /// The still's moment inside the video (`MotionPhotoPresentationTimestampUs`), when given.
    public let presentationTime: MediaTime?

    public init(offset: Int64, length: Int64, presentationTime: MediaTime? = nil) {
        self.offset = offset
        self.length = length
        self.presentationTime = presentationTime
    }

    /// The layout an XMP packet declares for a file of `fileSize` bytes; nil when it declares
    /// no motion photo or a video that cannot fit in the file.
    public init?(xmp: String, fileSize: Int64) {
        var flagged = false
        var length: Int64?
        var timestamp: Int64?
        for element in XMPScanner.elements(of: xmp) {
            // A property is an attribute (`Camera:MotionPhoto="1"`) or an element of its own
            // (`<GCamera:MicroVideo>1</GCamera:MicroVideo>`, as exiftool writes it).
            var a = element.attributes
            if let text = element.text { a[element.name] = text }
            if a["MotionPhoto"] == "1" || a["MicroVideo"] == "1" { flagged = true }
            if let offset = a["MicroVideoOffset"].flatMap({ Int64($0) }), offset > 0 { length = length ?? offset }
            if let us = (a["MotionPhotoPresentationTimestampUs"] ?? a["MicroVideoPresentationTimestampUs"]).flatMap({ Int64($0) }), us >= 0 {
                timestamp = us
            }
            if element.name == "Item", a["Semantic"] == "MotionPhoto", let bytes = a["Length"].flatMap({ Int64($0) }), bytes > 0 {
                length = bytes
            }
        }
        guard flagged, let length, length < fileSize else { return nil }
        self.init(offset: fileSize - length, length: length,
                  presentationTime: timestamp.map { MediaTime(value: $0, timescale: 1_000_000) })
    }
}

/// Elements and their attributes in an XMP packet, by local name (namespace prefixes differ
/// between writers: `Camera:` and `GCamera:` are the same Google namespace).
enum XMPScanner {
    struct Element {
        let name: String
        let attributes: [String: String]
        /// The text right after the start tag, when there is any (a simple property's value).
        let text: String?
    }

    static func elements(of xmp: String) -> [Element] {
        var found: [Element] = []
        var rest = Substring(xmp)
        while let open = rest.firstIndex(of: "<") {
            guard let close = rest[open...].firstIndex(of: ">") else { break }
            let body = rest[rest.index(after: open)..<close]
            rest = rest[rest.index(after: close)...]
            guard let first = body.first, first != "/", first != "?", first != "!" else { continue }
            let nameEnd = body.firstIndex { $0.isWhitespace || $0 == "/" } ?? body.endIndex
            let text = rest.prefix { $0 != "<" }.trimmingCharacters(in: .whitespacesAndNewlines)
            found.append(Element(name: localName(body[..<nameEnd]), attributes: attributes(body[nameEnd...]),
                                 text: text.isEmpty || body.last == "/" ? nil : text))
        }
        return found
    }

    /// `prefix:name="value"` pairs (single or double quotes).
    private static func attributes(_ text: Substring) -> [String: String] {
        var result: [String: String] = [:]
        var rest = text
        while let equals = rest.firstIndex(of: "=") {
            let name = rest[..<equals].split(whereSeparator: \.isWhitespace).last.map(localName) ?? ""
            var after = rest[rest.index(after: equals)...].drop { $0.isWhitespace }
            guard let quote = after.first, quote == "\"" || quote == "'" else { break }
            after = after.dropFirst()
            guard let end = after.firstIndex(of: quote) else { break }
            if !name.isEmpty { result[name] = String(after[..<end]) }
            rest = after[after.index(after: end)...]
        }
        return result
    }

    private static func localName(_ qualified: Substring) -> String {
        String(qualified.split(separator: ":").last ?? qualified)
    }
}

/// What a file is in a Live Photo or Motion Photo, as `info` says it.
public enum LivePhotoRole: Sendable, Equatable {
    /// An iPhone Live Photo's still (HEIC or JPEG); its movie carries the same identifier.
    case appleStill(contentIdentifier: String)
    /// An iPhone Live Photo's movie (MOV); its still carries the same identifier.
    case appleMotion(contentIdentifier: String)
    /// A Google/Samsung Motion Photo: one file, the still with its MP4 inside.
    case motionPhoto(MotionPhotoLayout)

    /// The line `info` prints.
    public var summary: String {
        switch self {
        case .appleStill(let id): return tr("Live Photo still (its movie shares the content identifier {id})", ["id": id])
        case .appleMotion(let id): return tr("Live Photo movie (its still shares the content identifier {id})", ["id": id])
        case .motionPhoto(let layout):
            let length = Int(clamping: layout.length)
            guard let time = layout.presentationTime else {
                return trn("Motion Photo (an MP4 of {count} byte inside, from byte {offset})",
                           "Motion Photo (an MP4 of {count} bytes inside, from byte {offset})", length, ["offset": layout.offset])
            }
            return trn("Motion Photo (an MP4 of {count} byte inside, from byte {offset}, the still at {seconds} s)",
                       "Motion Photo (an MP4 of {count} bytes inside, from byte {offset}, the still at {seconds} s)", length,
                       ["offset": layout.offset, "seconds": time.decimalString])
        }
    }

    /// The same as `info --json` prints it.
    public var json: JSONValue {
        switch self {
        case .appleStill(let id):
            return .object([("kind", .string("livePhotoStill")), ("contentIdentifier", .string(id))])
        case .appleMotion(let id):
            return .object([("kind", .string("livePhotoMovie")), ("contentIdentifier", .string(id))])
        case .motionPhoto(let layout):
            return .object([("kind", .string("motionPhoto")), ("videoOffset", .integer(layout.offset)),
                            ("videoLength", .integer(layout.length)),
                            ("presentationTime", layout.presentationTime.map(JSONValue.time) ?? .null)])
        }
    }
}
