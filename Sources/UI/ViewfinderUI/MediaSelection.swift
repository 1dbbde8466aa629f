import Capture
import Foundation
import MediaLibrary
import ViewfinderCore

/// What a media picker lets the user choose: a `MediaPickerConfiguration` checked against the
/// sources before anything is shown (the media types, never none; the longest video; how many
/// items one pick holds), in the library's terms.
public struct PickerRules: Sendable, Equatable {
    /// The checked configuration.
    public let configuration: MediaPickerConfiguration
    /// The kinds the grid offers.
    public let kinds: Set<AssetKind>
    /// The most items one pick may hold (1 for a single pick).
    public var limit: Int { configuration.selectionLimit }
    /// Videos longer than this cannot be chosen (nil: any length).
    public var maxDuration: MediaTime? { configuration.maxDuration }

    /// Checks `configuration` against `sources` (`MediaPickerConfiguration.validate`).
    public init(_ configuration: MediaPickerConfiguration, sources: MediaSources) throws(CaptureError) {
        try configuration.validate(against: sources)
        self.init(checked: configuration)
    }

    /// One photo or video of any length from the library: the library screen's rules.
    public static let any = PickerRules(checked: MediaPickerConfiguration(source: .photoLibrary, mediaTypes: MediaType.allCases))

    private init(checked configuration: MediaPickerConfiguration) {
        self.configuration = configuration
        kinds = Set(configuration.mediaTypes.flatMap { $0 == .photo ? AssetKind.stills : [.video] })
    }

    /// True when each activation finishes the pick at once.
    public var isSingle: Bool { limit == 1 }

    /// Why `asset` cannot be chosen, in the words a grid cell shows; nil when it can.
    public func refusal(for asset: Asset) -> String? {
        guard kinds.contains(asset.kind) else {
            return kinds.contains(.video) ? kinds.contains(.photo) ? tr("Not a photo or video") : tr("Not a video") : tr("Not a photo")
        }
        if let allowed = configuration.fileExtensions, !allowed.contains((asset.originalFilename as NSString).pathExtension.lowercased()) {
            // TRANSLATORS: an item the picker refuses because the program that asked for a file does not take its type.
            return tr("Not a type the app takes")
        }
        if let maxDuration, let duration = asset.duration, duration > maxDuration {
            // TRANSLATORS: a video the picker refuses; {limit} and {length} are minutes:seconds ("0:30", "1:05").
            return tr("Longer than {limit} ({length})", ["limit": Self.clock(maxDuration.seconds), "length": Self.clock(duration.seconds)])
        }
        return nil
    }

    /// What a screen reader says for an item of the grid: its kind, its length or size, the day
    /// it was taken, its number when chosen and why it cannot be, when it cannot ("Video, 12 s,
    /// 3 March 2024"; "Photo, 4032 × 3024, 12 March 2024, chosen 2").
    public static func spokenName(of asset: Asset, number: Int?, refusal: String?) -> String {
        let day = spokenDay.string(from: asset.creationDate)
        var name: String
        switch asset.kind {
        case .video:
            if let duration = asset.duration {
                // TRANSLATORS: a screen reader's name for a video in the picker: its length ("12 s") and the day it was taken.
                name = tr("Video, {length}, {day}", ["length": spokenLength(duration.seconds), "day": day])
            } else {
                name = tr("Video, length unknown, {day}", ["day": day])
            }
        case .live:
            name = tr("Live Photo, {width} × {height}, {day}", ["width": asset.size.width, "height": asset.size.height, "day": day])
        case .photo:
            name = tr("Photo, {width} × {height}, {day}", ["width": asset.size.width, "height": asset.size.height, "day": day])
        }
        if let number {
            // TRANSLATORS: {item} is an item's spoken name ("Photo, 64 × 48, 3 March 2024"); {number} its place in the selection.
            name = tr("{item}, chosen {number}", ["item": name, "number": number])
        }
        if let refusal {
            // TRANSLATORS: {item} is an item's spoken name; {reason} why it cannot be chosen ("Not a video").
            name = tr("{item}, cannot be chosen: {reason}", ["item": name, "reason": refusal])
        }
        return name
    }

    /// "12 s", "1 min 5 s": a length as it is said, in whole seconds (rounded up, as the badge).
    static func spokenLength(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded(.up))
        if whole < 60 { return tr("{seconds} s", ["seconds": whole]) }
        if whole % 60 == 0 { return tr("{minutes} min", ["minutes": whole / 60]) }
        return tr("{minutes} min {seconds} s", ["minutes": whole / 60, "seconds": whole % 60])
    }

    /// The day, in the words of the user's locale ("3 March 2024" in British English); with no
    /// locale named (C, POSIX), Foundation's own English, as before there were translations.
    private static let spokenDay: DateFormatter = {
        let format = DateFormatter()
        let locale = Localization.locale
        format.locale = locale.identifier == "en_US_POSIX" ? Locale.current : locale
        format.setLocalizedDateFormatFromTemplate("dMMMMyyyy")
        return format
    }()

    /// Minutes and seconds, as the grid's length badges show them ("1:05").
    public static func clock(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded(.up))
        return String(format: "%d:%02d", whole / 60, whole % 60)
    }
}

/// The items a picker holds so far, in the order they were chosen (the grid numbers them).
public struct MediaSelection: Sendable {
    /// The rules every item passes.
    public let rules: PickerRules
    /// What is chosen, first chosen first.
    public private(set) var picked: [Asset] = []

    /// What a toggle did.
    public enum Change: Sendable, Equatable {
        /// The item joined the selection as number `n` (from 1).
        case added(Int)
        /// The item left the selection; the ones after it moved up.
        case removed
        /// The item cannot be chosen, and why.
        case refused(String)
        /// The selection already holds `rules.limit` items.
        case full
    }

    /// An empty selection under `rules`.
    public init(rules: PickerRules) {
        self.rules = rules
    }

    /// The item's number in the selection (from 1), or nil.
    public func number(of id: Int64) -> Int? {
        picked.firstIndex { $0.id == id }.map { $0 + 1 }
    }

    /// Adds `asset`, or takes it out when it is in already.
    public mutating func toggle(_ asset: Asset) -> Change {
        if let index = picked.firstIndex(where: { $0.id == asset.id }) {
            picked.remove(at: index)
            return .removed
        }
        if let reason = rules.refusal(for: asset) { return .refused(reason) }
        guard picked.count < rules.limit else { return .full }
        picked.append(asset)
        return .added(picked.count)
    }

    /// Empties the selection.
    public mutating func clear() {
        picked = []
    }
}
