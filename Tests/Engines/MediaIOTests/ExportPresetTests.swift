import Foundation
import Testing
import ViewfinderCore

@testable import MediaIO

/// The preset table is the one place that says how each preset encodes; parsing, help and
/// the camera's qualities read it.
@Suite("Export presets")
struct ExportPresetTests {
    @Test("every named preset parses back from its name; WxH parses to a box")
    func names() {
        for preset in ExportPreset.named {
            #expect(ExportPreset(parsing: preset.description) == preset)
            #expect(ExportPreset(parsing: preset.description.uppercased()) == preset)
        }
        #expect(ExportPreset.choices == "auto, passthrough, highest, medium, low or WxH")
        #expect(ExportPreset(parsing: "1280x720") == .fit(PixelSize(width: 1280, height: 720)))
        #expect(ExportPreset(parsing: "1280×720") == .fit(PixelSize(width: 1280, height: 720)))
        for bad in ["1x720", "0x0", "16385x10", "12x", "x12", "12xx12", "+12x12", "huge", ""] {
            #expect(ExportPreset(parsing: bad) == nil, "\(bad)")
        }
    }

    @Test("the encoding table: boxes and CRFs")
    func table() {
        #expect(ExportPreset.highest.encoding == .init(box: nil, crf: 18))
        #expect(ExportPreset.medium.encoding == .init(box: PixelSize(width: 960, height: 540), crf: 21))
        #expect(ExportPreset.low.encoding == .init(box: PixelSize(width: 640, height: 360), crf: 23))
        #expect(ExportPreset.fit(PixelSize(width: 320, height: 240)).encoding == .init(box: PixelSize(width: 320, height: 240), crf: 21))
    }

    @Test("camera qualities record as the export presets of the same name")
    func captureQualities() {
        #expect(CaptureQuality.allCases.map(\.preset) == [.highest, .medium, .low])
        #expect(CaptureQuality.choices == "high, medium or low")
    }
}
