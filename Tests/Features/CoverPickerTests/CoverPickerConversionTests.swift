import Foundation
import MediaIO
import Testing
import ViewfinderCore
import ViewfinderTestSupport

@testable import CoverPicker

@Suite("Converting before the cover screen")
struct CoverPickerConversionTests {
    @Test("QuickTime movies are converted, MP4 and others are not", arguments: [
        ("clip.mov", true), ("CLIP.MOV", true), ("a.qt", true), ("clip.mp4", false), ("clip.m4v", false), ("clip", false),
    ])
    func conversionNeeded(name: String, expected: Bool) {
        #expect(CoverPicker.needsConversion(URL(fileURLWithPath: "/tmp/\(name)")) == expected)
    }

    @Test("conversion keeps full quality and puts the index first")
    func settings() {
        #expect(CoverPicker.conversionSettings.preset == .highest)
        #expect(CoverPicker.conversionSettings.fastStart)
    }

    @Test("outputs are named by date and time, and never overwrite")
    func naming() throws {
        let folder = try CoverPicker.conversionFolder(in: TestPaths.scratchFolder("conversion-names"))
        #expect(folder.lastPathComponent == "Converted")
        let date = Date(timeIntervalSince1970: 1_796_052_645) // 2026-11-30 15:30:45 UTC
        let utc = try #require(TimeZone(identifier: "UTC"))
        let first = CoverPicker.outputURL(in: folder, date: date, timeZone: utc)
        #expect(first.lastPathComponent == "2026-11-30 15.30.45.mp4")
        try Data([1]).write(to: first)
        let second = CoverPicker.outputURL(in: folder, date: date, timeZone: utc)
        #expect(second.lastPathComponent == "2026-11-30 15.30.45 2.mp4")
        try Data([2]).write(to: second)
        #expect(CoverPicker.outputURL(in: folder, date: date, extension: "jpg", timeZone: utc).lastPathComponent == "2026-11-30 15.30.45.jpg")
        #expect(CoverPicker.outputURL(in: folder, date: date, timeZone: utc).lastPathComponent == "2026-11-30 15.30.45 3.mp4")
    }

    @Test("a video over the limit is refused from its header, before any conversion")
    func limitFirst() throws {
        let fixture = try FixtureFactory.shared.fixture(.h264BFrames) // 1.6 s
        #expect(throws: Never.self) { try CoverPicker.checkLimit(fixture.url, limit: .standard) }
        let short = DurationLimit(maximum: MediaTime(value: 1, timescale: 1))
        #expect {
            try CoverPicker.checkLimit(fixture.url, limit: short)
        } throws: { error in
            guard case CoverPickerError.tooLong(_, let duration, _)? = error as? CoverPickerError else { return false }
            return duration == MediaTime(value: 48, timescale: 30)
        }
        #expect(throws: Never.self) { try CoverPicker.checkLimit(fixture.url, limit: .none) }
    }
}
