import Capture
import Foundation
@testable import MediaLibrary
import Testing
import ViewfinderCore
import ViewfinderUI

/// The media picker's rules and selection, without a window: what can be chosen, how many, in
/// which order, and why an item is refused.
@Suite("Media picker rules and selection")
struct MediaSelectionTests {
    static func asset(_ id: Int64, _ kind: AssetKind, seconds: Int64? = nil) -> Asset {
        Asset(id: id, kind: kind, creationDate: Date(timeIntervalSince1970: 1_700_000_000 + Double(id)),
              importDate: Date(timeIntervalSince1970: 1_700_000_000), size: PixelSize(width: 64, height: 48),
              duration: seconds.map { MediaTime(seconds: $0) }, originalFilename: "item\(id)", byteSize: 10,
              contentHash: String(repeating: "0", count: 64), source: .imported, posterTime: nil, metadata: CaptureMetadata(), relativePath: nil,
              contentIdentifier: nil, motion: nil)
    }

    /// A library that holds both kinds (the rules under test, not a folder's contents).
    static let sources = MediaSources(library: LibraryContents(all: [.photo, .video], captures: []), cameras: [])

    static func rules(_ types: [MediaType] = MediaType.allCases, limit: Int = 1, maxSeconds: Int64? = nil) throws -> PickerRules {
        try PickerRules(MediaPickerConfiguration(source: .photoLibrary, mediaTypes: types, maxDuration: maxSeconds.map { MediaTime(seconds: $0) },
                                                 selectionLimit: limit), sources: sources)
    }

    @Test("a grid item is named for a screen reader by its kind, its length or size and its day; chosen, with its number; refused, with why")
    func spokenNames() throws {
        let day = { (asset: Asset) in
            let format = DateFormatter()
            format.locale = Locale.current
            format.setLocalizedDateFormatFromTemplate("dMMMMyyyy")
            return format.string(from: asset.creationDate)
        }
        let video = Self.asset(1, .video, seconds: 12), long = Self.asset(2, .video, seconds: 65), photo = Self.asset(3, .photo)
        let live = Self.asset(4, .live, seconds: 2)
        #expect(PickerRules.spokenName(of: video, number: nil, refusal: nil) == "Video, 12 s, \(day(video))")
        #expect(PickerRules.spokenName(of: long, number: nil, refusal: "Longer than 0:30 (1:05)")
                == "Video, 1 min 5 s, \(day(long)), cannot be chosen: Longer than 0:30 (1:05)")
        #expect(PickerRules.spokenName(of: photo, number: 2, refusal: nil) == "Photo, 64 × 48, \(day(photo)), chosen 2")
        #expect(PickerRules.spokenName(of: live, number: nil, refusal: nil) == "Live Photo, 64 × 48, \(day(live))")
        #expect(PickerRules.spokenName(of: Self.asset(5, .video, seconds: 120), number: nil, refusal: nil).hasPrefix("Video, 2 min, "))
        // The day is the locale's own words for it, with the year: never the raw date.
        #expect(day(video).contains("2023"))
    }

    @Test("an empty media-type list, a limit under one and a duration of zero are errors, before any picker shows")
    func badRules() {
        #expect(throws: CaptureError.noMediaTypes) { try Self.rules([]) }
        #expect(throws: CaptureError.selectionLimitBelowOne(0)) { try Self.rules(limit: 0) }
        #expect(throws: CaptureError.maxDurationNotPositive) { try Self.rules(maxSeconds: 0) }
    }

    @Test("items are numbered in the order chosen; a second toggle takes one out and the later ones move up")
    func numberedOrder() throws {
        var selection = MediaSelection(rules: try Self.rules(limit: 3))
        #expect(selection.toggle(Self.asset(5, .photo)) == .added(1))
        #expect(selection.toggle(Self.asset(2, .video, seconds: 3)) == .added(2))
        #expect(selection.toggle(Self.asset(9, .photo)) == .added(3))
        #expect(selection.toggle(Self.asset(7, .photo)) == .full)
        #expect(selection.toggle(Self.asset(5, .photo)) == .removed)
        #expect(selection.picked.map(\.id) == [2, 9])
        #expect(selection.number(of: 9) == 2 && selection.number(of: 5) == nil)
    }

    @Test("a video over the limit and a kind not offered are refused with the reason the cell shows")
    func refusals() throws {
        var selection = MediaSelection(rules: try Self.rules([.video], limit: 2, maxSeconds: 4))
        #expect(selection.toggle(Self.asset(1, .video, seconds: 6)) == .refused("Longer than 0:04 (0:06)"))
        #expect(selection.toggle(Self.asset(2, .photo)) == .refused("Not a video"))
        #expect(selection.toggle(Self.asset(3, .video, seconds: 4)) == .added(1))
        #expect(selection.rules.kinds == [.video] && !selection.rules.isSingle)
        #expect(PickerRules.any.isSingle && PickerRules.any.kinds == [.photo, .live, .video])
    }
}
