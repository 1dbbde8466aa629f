import Foundation
import MediaLibrary
import StudioKit
import ViewfinderCore

/// What the info panel shows of an asset, as the catalogue stores it: one labelled line per
/// thing known (a tag the file did not have is left out).
public struct AssetInfo: Sendable, Equatable {
    /// One line: a label and its value.
    public struct Row: Sendable, Equatable {
        /// The label in English (marked for translation: the panel shows `tr(label)`), which
        /// also names the row for `subscript(label:)`.
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
            add(N_("Taken"), date + (metadata.captureZone.map { " " + $0 } ?? ""))
        } else {
            add(N_("Date"), ISO8601DateFormatter().string(from: asset.creationDate))
        }
        let megabytes = Localization.decimal(Double(asset.byteSize) / 1_000_000, digits: 1)
        if let duration = asset.duration {
            add(N_("Size"), tr("{width} × {height}, {megabytes} MB, {seconds} s", ["width": asset.size.width, "height": asset.size.height,
                                                                                   "megabytes": megabytes,
                                                                                   "seconds": Localization.decimal(duration.seconds, digits: 2)]))
        } else {
            add(N_("Size"), tr("{width} × {height}, {megabytes} MB", ["width": asset.size.width, "height": asset.size.height, "megabytes": megabytes]))
        }
        if let place = metadata.location {
            add(N_("Place"), String(format: "%.7f, %.7f", place.latitude, place.longitude))
            add(N_("Altitude"), place.altitude.map { tr("{metres} m", ["metres": Localization.decimal($0, digits: 2)]) })
        }
        add(N_("Make"), metadata.make)
        add(N_("Model"), metadata.model)
        add(N_("Lens"), metadata.lens)
        add(N_("Exposure"), metadata.exposureTime.map { tr("{seconds} s", ["seconds": $0.rationalString]) })
        add(N_("F-number"), metadata.fNumber.map { String(format: "f/%.1f", $0) })
        add(N_("ISO"), metadata.iso.map(String.init))
        add(N_("Focal length"), metadata.focalLength.map { tr("{millimetres} mm", ["millimetres": Localization.decimal($0, digits: 2)]) })
        add(N_("Flash"), metadata.flash.map(AssetInfo.flash))
        add(N_("Software"), metadata.software)
        self.rows = rows
    }

    /// An EXIF Flash value in words: whether it fired (bit 0), with the value itself.
    public static func flash(_ value: Int) -> String {
        value & 1 == 1 ? tr("Fired ({value})", ["value": value]) : tr("Did not fire ({value})", ["value": value])
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
    public let exportButton = Button(tr("Export without location"))
    public let backButton = Button(tr("Back"))
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
            let label = Label(tr(row.label))
            label.setTextAlignment(1)
            label.setMinimumSize(width: 120)
            label.addStyleClass("dim-label")
            let value = Label(row.value)
            value.setTextAlignment(0)
            value.setWraps(true)
            value.expand(vertically: false)
            // TRANSLATORS: a screen reader's name for a line of the info panel ("Model: iPhone 5").
            value.setAccessibleName(tr("{label}: {value}", ["label": tr(row.label), "value": row.value]))
            line.append(label)
            line.append(value)
            root.append(line)
        }
        exportButton.addStyleClass("suggested-action")
        exportButton.setTooltip(tr("A copy without the GPS position and place names; everything else as stored"))
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
