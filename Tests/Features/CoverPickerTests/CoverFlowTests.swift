import Foundation
import Testing
import ViewfinderCore
import ViewfinderTestSupport

@testable import CoverPicker
@testable import MediaIO

/// The one cover flow: limit → optional conversion → session → written cover.
@Suite("Cover flow")
struct CoverFlowTests {
    /// The B-frame fixture under a QuickTime name, which asks for a conversion.
    static func movie() throws -> URL {
        let fixture = try FixtureFactory.shared.fixture(.h264BFrames)
        let movie = TestPaths.scratchFolder("flow-movie").appendingPathComponent("clip.mov")
        try FileManager.default.copyItem(at: fixture.url, to: movie)
        return movie
    }

    @Test("plan: an MP4 opens as it is, a movie converts into Converted/, a long video is refused from its header")
    func plan() throws {
        let fixture = try FixtureFactory.shared.fixture(.h264BFrames)
        let cache = TestPaths.scratchFolder("flow-cache")
        #expect(try CoverFlow.plan(for: fixture.url, limit: .standard, cache: cache) == .open(fixture.url))
        let movie = try Self.movie()
        let opens = try FileOpens(movie)
        guard case .convert(let input, let output) = try CoverFlow.plan(for: movie, limit: .standard, cache: cache) else {
            Issue.record("a .mov is converted first")
            return
        }
        #expect(input == movie)
        #expect(output.deletingLastPathComponent().lastPathComponent == "Converted" && output.pathExtension == "mp4")
        #expect(throws: CoverPickerError.tooLong(path: movie.path, duration: MediaTime(value: 8, timescale: 5),
                                                  limit: MediaTime(value: 1, timescale: 1))) {
            try CoverFlow.plan(for: movie, limit: DurationLimit(maximum: MediaTime(value: 1, timescale: 1)), cache: cache)
        }
        #expect(opens.count == 2, "the header only, once per plan")
    }

    @Test("run converts with progress; the session picks the exact frame; the cover is written at one quality")
    @MainActor
    func convertThenChoose() async throws {
        let plan = try CoverFlow.plan(for: try Self.movie(), limit: .standard, cache: TestPaths.scratchFolder("flow-run"))
        let progress = Progress(totalUnitCount: 1)
        let video = try await CoverFlow.run(plan, progress: progress)
        #expect(progress.fractionCompleted == 1)
        #expect(try probeMedia(at: video).container.contains("mp4"))
        let session = CoverPickerSession(video: video)
        try await session.open()
        try await session.moveSlider(to: 0.5)
        let cover = try await session.complete()
        #expect(FrameIndexPattern.readIndex(from: cover.image) == 24)
        let out = TestPaths.scratchFolder("flow-cover").appendingPathComponent("cover.jpg")
        try CoverFlow.write(cover.image, to: out)
        #expect(FileManager.default.fileExists(atPath: out.path))
    }

    @Test("a cancelled conversion throws .cancelled and leaves nothing")
    func cancelled() async throws {
        let cache = TestPaths.scratchFolder("flow-cancel")
        let plan = try CoverFlow.plan(for: try Self.movie(), limit: .standard, cache: cache)
        let progress = Progress(totalUnitCount: 1)
        progress.cancel()
        await #expect(throws: CoverPickerError.cancelled) { try await CoverFlow.run(plan, progress: progress) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache.appendingPathComponent("Converted").path).isEmpty)
    }

    @Test("an exact filmstrip counts its frames and stops when cancelled")
    func filmstripProgress() throws {
        let fixture = try FixtureFactory.shared.fixture(.h264BFrames)
        let reader = try CoverPicker.open(fixture.url, limit: .standard)
        let progress = Progress(totalUnitCount: 1)
        let cells = try CoverPicker.filmstrip(from: reader, count: 4, mode: .exact, size: .original, progress: progress)
        #expect(cells.compactMap { $0.frame.flatMap { FrameIndexPattern.readIndex(from: $0.image) } } == [0, 12, 24, 36])
        #expect(progress.totalUnitCount == 4 && progress.completedUnitCount == 4)
        let stopped = Progress(totalUnitCount: 1)
        stopped.cancel()
        #expect(throws: CoverPickerError.media(.cancelled)) {
            try CoverPicker.filmstrip(from: reader, count: 4, mode: .exact, size: .original, progress: stopped)
        }
    }
}
