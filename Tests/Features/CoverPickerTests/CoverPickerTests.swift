import Foundation
import Testing
import ViewfinderCore
import ViewfinderTestSupport

@testable import CoverPicker
@testable import MediaIO

@Suite("Cover picker")
struct CoverPickerTests {
    @Test("the cover path opens its file once: the header's limit check and the exact frame share it")
    func opensOnce() throws {
        let fixture = try FixtureFactory.shared.fixture(.h264BFrames)
        let url = TestPaths.scratchFolder("cover-opens").appendingPathComponent("clip.mp4")
        try FileManager.default.copyItem(at: fixture.url, to: url)
        let opens = try FileOpens(url)
        let reader = try CoverPicker.open(url, limit: .standard)
        let cover = try CoverPicker.cover(from: reader, at: .frame(30))
        #expect(FrameIndexPattern.readIndex(from: cover.image) == 30)
        #expect(opens.count == 1)
    }

    @Test("over the limit, the header alone refuses the file: opened once, nothing analyzed")
    func refusedFromHeader() throws {
        let fixture = try FixtureFactory.shared.fixture(.h264BFrames)
        let url = TestPaths.scratchFolder("cover-refused").appendingPathComponent("clip.mp4")
        try FileManager.default.copyItem(at: fixture.url, to: url)
        let opens = try FileOpens(url)
        #expect(throws: CoverPickerError.tooLong(path: url.path, duration: MediaTime(value: 8, timescale: 5),
                                                  limit: MediaTime(value: 1, timescale: 1))) {
            try CoverPicker.open(url, limit: DurationLimit(maximum: MediaTime(value: 1, timescale: 1)))
        }
        #expect(opens.count == 1)
    }
}
