import Foundation
import Imaging
import ViewfinderCore

extension PhotoMetadata {
    /// The metadata as `info --json` and `library list --json` print it: absent tags are null.
    var json: JSONValue {
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

    /// The lines `info` prints for what is there.
    var lines: [(String, String)] {
        var lines: [(String, String)] = []
        if let location {
            let altitude = location.altitude.map { String(format: ", %.1f m", $0) } ?? ""
            lines.append(("location", String(format: "%.6f, %.6f", location.latitude, location.longitude) + altitude))
        }
        let camera = [make, model].compactMap { $0 }.joined(separator: " ")
        if !camera.isEmpty { lines.append(("camera", camera)) }
        if let lens { lines.append(("lens", lens)) }
        var exposure: [String] = []
        if let exposureTime { exposure.append("\(exposureTime.rationalString) s") }
        if let fNumber { exposure.append(String(format: "f/%.1f", fNumber)) }
        if let iso { exposure.append("ISO \(iso)") }
        if let focalLength { exposure.append(String(format: "%.1f mm", focalLength)) }
        if !exposure.isEmpty { lines.append(("exposure", exposure.joined(separator: ", "))) }
        if let captureDate { lines.append(("taken", captureDate + (captureZone.map { " " + $0 } ?? ""))) }
        if let software { lines.append(("software", software)) }
        return lines
    }
}
