import Foundation
import MediaLibrary
import StudioKit
import ViewfinderCore

/// What the info panel shows of an asset, as the catalogue stores it: one labelled line per
/// thing known (a tag the file did not have is left out).
public struct AssetInfo: Sendable, Equatable {
    /// One line: a label in the user's words and its value.
    public struct Row: Sendable, Equatable {
        public let label: String
        public let value: String
    }

    public let rows: [Row]

    /// The rows for `asset`: when it was taken (the capture date and zone, else the
    /// catalogue's creation date), its size, then the place, camera and exposure it carries.
    public init(_ asset: Asset) {
        let metadata = asset.metadata
        var rows: [Row] = []
        func add(_ label: String, _ value: String?) {
            if let value, !value.isEmpty { rows.append(Row(label: label, value: value)) }
        }
        if let date = metadata.captureDate {
            add("Taken", date + (metadata.captureZone.map { " " + $0 } ?? ""))
        } else {
            add("Date", ISO8601DateFormatter().string(from: asset.creationDate))
        }
        add("Size", "\(asset.size.width) × \(asset.size.height), " + String(format: "%.1f MB", Double(asset.byteSize) / 1_000_000)
            + (asset.duration.map { String(format: ", %.2f s", $0.seconds) } ?? ""))
        if let place = metadata.location {
            add("Place", String(format: "%.7f, %.7f", place.latitude, place.longitude))
            add("Altitude", place.altitude.map { String(format: "%.2f m", $0) })
        }
        add("Make", metadata.make)
        add("Model", metadata.model)
        add("Lens", metadata.lens)
        add("Exposure", metadata.exposureTime.map { "\($0.rationalString) s" })
        add("F-number", metadata.fNumber.map { String(format: "f/%.1f", $0) })
        add("ISO", metadata.iso.map(String.init))
        add("Focal length", metadata.focalLength.map { String(format: "%.2f mm", $0) })
        add("Flash", metadata.flash.map(AssetInfo.flash))
        add("Software", metadata.software)
        self.rows = rows
    }

    /// An EXIF Flash value in words: whether it fired (bit 0), with the value itself.
    public static func flash(_ value: Int) -> String {
        (value & 1 == 1 ? "Fired" : "Did not fire") + " (\(value))"
    }

    /// The value of the row labelled `label`, nil when the asset has none.
    public subscript(label: String) -> String? {
        rows.first { $0.label == label }?.value
    }
}

/// A panel with an asset's details (see `AssetInfo`) and "Export without location", which
/// writes a copy without the GPS position or place tags (`MediaLibrary.exportWithoutLocation`,
/// the CLI's `library export --strip-location`) through `onExport`; Back leaves it.
@MainActor
public final class AssetInfoPanel: Component {
    public let asset: Asset
    public let info: AssetInfo
    public var title: String { asset.originalFilename }
    public var page: Widget { root }
    private let root = Box(.vertical, spacing: 8)
    public let exportButton = Button("Export without location")
    public let backButton = Button("Back")
    /// Export without location was pressed.
    public var onExport: ((Asset) -> Void)?
    /// Told with `.cancelled` when Back is pressed.
    public var completion: ((PickerOutcome<Asset>) -> Void)?

    public init(asset: Asset) {
        self.asset = asset
        info = AssetInfo(asset)
        root.setMargins(16)
        let heading = Label(asset.originalFilename)
        heading.setTextAlignment(0)
        heading.addStyleClass("title-2")
        root.append(heading)
        for row in info.rows {
            let line = Box(.horizontal, spacing: 12)
            let label = Label(row.label)
            label.setTextAlignment(1)
            label.setMinimumSize(width: 120)
            label.addStyleClass("dim-label")
            let value = Label(row.value)
            value.setTextAlignment(0)
            value.setWraps(true)
            value.expand(vertically: false)
            value.setAccessibleName("\(row.label): \(row.value)")
            line.append(label)
            line.append(value)
            root.append(line)
        }
        exportButton.addStyleClass("suggested-action")
        exportButton.setTooltip("A copy without the GPS position and place names; everything else as stored")
        exportButton.on("clicked") { [unowned self] in self.onExport?(self.asset) }
        backButton.on("clicked") { [unowned self] in self.completion?(.cancelled) }
        let buttons = buttonRow([backButton], [exportButton])
        root.append(buttons)
    }

    public func button(named name: String) -> Widget? {
        ["export-without-location": exportButton, "back": backButton][name]
    }

    public func part(named name: String) -> Widget? {
        name == "export-without-location" ? exportButton : name == "panel" ? root : nil
    }
}
