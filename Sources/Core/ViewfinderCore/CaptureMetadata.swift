import Foundation

/// Where, when and with what a photo or video was taken: what its EXIF, XMP and IPTC (photos,
/// read by Imaging with exiv2) or its QuickTime/MP4 metadata (videos, read by MediaIO) say.
public struct CaptureMetadata: Sendable, Equatable {
    /// A place on Earth: degrees (south and west negative) and metres above sea level.
    public struct Location: Sendable, Equatable {
        public var latitude: Double
        public var longitude: Double
        public var altitude: Double?

        public init(latitude: Double, longitude: Double, altitude: Double? = nil) {
            self.latitude = latitude
            self.longitude = longitude
            self.altitude = altitude
        }

        /// An ISO 6709 position in decimal degrees, as phones write it into videos:
        /// "+32.0929+034.8620+028.516/" (latitude, longitude, optional altitude in metres).
        /// nil for anything else (the degrees-and-minutes forms, out-of-range values).
        public init?(iso6709 text: String) {
            var numbers: [Double] = []
            var current = ""
            for character in text.trimmingCharacters(in: .whitespaces) {
                if character == "+" || character == "-" || character == "/" {
                    if !current.isEmpty {
                        guard let value = Double(current) else { return nil }
                        numbers.append(value)
                    }
                    current = character == "/" ? "" : String(character)
                    if character == "/" { break }
                } else if character.isNumber || character == "." {
                    guard !current.isEmpty else { return nil }
                    current.append(character)
                } else {
                    return nil
                }
            }
            if !current.isEmpty, let value = Double(current) { numbers.append(value) }
            guard numbers.count == 2 || numbers.count == 3, abs(numbers[0]) <= 90, abs(numbers[1]) <= 180 else { return nil }
            self.init(latitude: numbers[0], longitude: numbers[1], altitude: numbers.count == 3 ? numbers[2] : nil)
        }
    }

    public var location: Location?
    public var make: String?
    public var model: String?
    public var lens: String?
    public var software: String?
    /// Exposure time in seconds, exact (1/120 as 1:120).
    public var exposureTime: MediaTime?
    public var fNumber: Double?
    public var iso: Int?
    /// Millimetres.
    public var focalLength: Double?
    /// The EXIF Flash value (bit 0: it fired).
    public var flash: Int?
    /// EXIF DateTimeOriginal as written ("2019:08:21 13:21:36"), and its zone ("+02:00").
    public var captureDate: String?
    public var captureZone: String?

    public init() {}
}

extension CaptureMetadata {
    /// The metadata as `info --json` and `library list --json` print it (and the catalogue
    /// keeps it): absent tags are null.
    public var json: JSONValue {
        func number(_ value: Double?, _ format: String) -> JSONValue { value.map { .literal(String(format: format, $0)) } ?? .null }
        return .object([
            ("latitude", number(location?.latitude, "%.7f")),
            ("longitude", number(location?.longitude, "%.7f")),
            ("altitude", number(location?.altitude, "%.2f")),
            ("make", .optional(make)), ("model", .optional(model)), ("lens", .optional(lens)), ("software", .optional(software)),
            ("exposureTime", exposureTime.map { .string($0.rationalString) } ?? .null),
            ("fNumber", number(fNumber, "%.1f")),
            ("iso", iso.map(JSONValue.int) ?? .null),
            ("focalLength", number(focalLength, "%.2f")),
            ("flash", flash.map(JSONValue.int) ?? .null),
            ("captureDate", .optional(captureDate)), ("captureZone", .optional(captureZone)),
        ])
    }

    /// A QuickTime creation date, "2019-07-24T11:25:40+0300", as the EXIF-style date
    /// ("2019:07:24 11:25:40") and zone ("+03:00") the other fields use; nil when malformed.
    public static func splitCreationDate(_ text: String) -> (date: String, zone: String?)? {
        let characters = Array(text)
        guard characters.count >= 19, characters[4] == "-", characters[7] == "-", characters[10] == "T" else { return nil }
        let date = String(characters[0..<4]) + ":" + String(characters[5..<7]) + ":" + String(characters[8..<10]) + " "
            + String(characters[11..<19])
        let rest = String(characters[19...]).replacingOccurrences(of: ":", with: "")
        guard let sign = rest.first, sign == "+" || sign == "-", rest.count == 5 else { return (date, rest == "Z" ? "+00:00" : nil) }
        return (date, "\(sign)\(rest.dropFirst().prefix(2)):\(rest.suffix(2))")
    }

    /// Whether nothing is known.
    public var isEmpty: Bool { self == CaptureMetadata() }

    /// The lines `info` prints for what is there: a label and its value, in the user's language.
    public var lines: [(String, String)] {
        var lines: [(String, String)] = []
        if let location {
            let latitude = String(format: "%.6f", location.latitude), longitude = String(format: "%.6f", location.longitude)
            let place = location.altitude.map { altitude in
                tr("{latitude}, {longitude}, {altitude} m", ["latitude": latitude, "longitude": longitude, "altitude": String(format: "%.1f", altitude)])
            } ?? "\(latitude), \(longitude)"
            // TRANSLATORS: the labels of `viewfinder info`'s lines about a photo's metadata; short (they are padded to 12 columns).
            lines.append((tr("location"), place))
        }
        let camera = [make, model].compactMap { $0 }.joined(separator: " ")
        if !camera.isEmpty { lines.append((tr("camera"), camera)) }
        if let lens { lines.append((tr("lens"), lens)) }
        var exposure: [String] = []
        if let exposureTime { exposure.append(tr("{seconds} s", ["seconds": exposureTime.rationalString])) }
        if let fNumber { exposure.append(String(format: "f/%.1f", fNumber)) }
        if let iso { exposure.append("ISO \(iso)") }
        if let focalLength { exposure.append(tr("{millimetres} mm", ["millimetres": Localization.decimal(focalLength, digits: 1)])) }
        if !exposure.isEmpty { lines.append((tr("exposure"), exposure.joined(separator: ", "))) }
        // TRANSLATORS: when a photo or video was taken.
        if let captureDate { lines.append((tr("taken"), captureDate + (captureZone.map { " " + $0 } ?? ""))) }
        if let software { lines.append((tr("software"), software)) }
        return lines
    }
}
