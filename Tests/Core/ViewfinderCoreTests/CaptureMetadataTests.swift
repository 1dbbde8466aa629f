import Foundation
import Testing

@testable import ViewfinderCore

@Suite("Capture metadata")
struct CaptureMetadataTests {
    @Test("ISO 6709 positions in decimal degrees, as phones write them", arguments: [
        ("+32.0929+034.8620+028.516/", 32.0929, 34.862, 28.516 as Double?),
        ("+51.4169-000.0806/", 51.4169, -0.0806, nil),
        ("-33.8568+151.2153-012.5/", -33.8568, 151.2153, -12.5),
    ])
    func iso6709(_ text: String, _ latitude: Double, _ longitude: Double, _ altitude: Double?) throws {
        let place = try #require(CaptureMetadata.Location(iso6709: text))
        #expect(place.latitude == latitude && place.longitude == longitude && place.altitude == altitude)
    }

    @Test("malformed positions are nil", arguments: ["", "garbage", "+91.0+010.0/", "+10.0+181.0/", "+10.0/", "+1.2.3+4/", "+10-20+30+40/"])
    func badISO6709(_ text: String) {
        #expect(CaptureMetadata.Location(iso6709: text) == nil)
    }

    @Test("QuickTime creation dates split into the EXIF-style date and the zone")
    func creationDates() {
        #expect(CaptureMetadata.splitCreationDate("2019-07-24T11:25:40+0300")! == ("2019:07:24 11:25:40", "+03:00"))
        #expect(CaptureMetadata.splitCreationDate("2026-03-23T15:57:19-05:30")! == ("2026:03:23 15:57:19", "-05:30"))
        #expect(CaptureMetadata.splitCreationDate("2017-02-22T08:20:28Z")! == ("2017:02:22 08:20:28", "+00:00"))
        #expect(CaptureMetadata.splitCreationDate("yesterday") == nil)
    }
}
