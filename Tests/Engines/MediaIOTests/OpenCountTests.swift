import Foundation
import Testing
import ViewfinderCore
import ViewfinderTestSupport

@testable import MediaIO

/// design.md: "One open, one seek". The cover and export paths check a duration limit from the
/// header and then read the same open file; each path opens its input exactly once.
@Suite("One open per path")
struct OpenCountTests {
    /// A private copy of a fixture, so that no other test's opens are counted with ours.
    static func privateCopy(_ name: String) throws -> URL {
        let fixture = try FixtureFactory.shared.fixture(.h264BFrames)
        let copy = TestPaths.scratchFolder("opens").appendingPathComponent(name)
        try FileManager.default.copyItem(at: fixture.url, to: copy)
        return copy
    }

    @Test("a reader made from a header goes on with the same open file")
    func headerThenReader() throws {
        let url = try Self.privateCopy("reader.mp4")
        let opens = try FileOpens(url)
        let header = try MediaHeader(url: url)
        #expect(header.recordedDuration == MediaTime(value: 8, timescale: 5))
        let reader = try FrameReader(header: header)
        _ = try reader.frame(at: .time(MediaTime(value: 1, timescale: 1)), mode: .exact)
        #expect(opens.count == 1)
    }

    @Test("an export with a duration limit, passthrough and re-encoded, opens its input once", arguments: [true, false])
    func export(_ passthrough: Bool) throws {
        let url = try Self.privateCopy("export-\(passthrough).mp4")
        let opens = try FileOpens(url)
        var settings = ExportSettings()
        settings.maxDuration = MediaTime(seconds: 30)
        if !passthrough { settings.preset = .medium }
        let output = TestPaths.scratchFolder("opens-out").appendingPathComponent("o.mp4")
        _ = try VideoExporter(input: url, output: output, settings: settings).run()
        #expect(opens.count == 1)
    }
}
