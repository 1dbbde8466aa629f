import Foundation
import MediaIO
import Testing
import ViewfinderCore
import ViewfinderTestSupport

@testable import CoverPicker

@Suite("Cover picker session")
@MainActor
struct CoverPickerSessionTests {
    func openSession(_ spec: FixtureSpec = .h264BFrames,
                     configuration: CoverPickerSession.Configuration = .init()) async throws -> (CoverPickerSession, Fixture) {
        let fixture = try await FixtureFactory.shared.make(spec)
        let session = CoverPickerSession(video: fixture.url, configuration: configuration)
        try await session.open()
        return (session, fixture)
    }

    /// The frame index ffprobe says is shown at `t`.
    func expectedIndex(_ fixture: Fixture, at t: MediaTime) -> Int {
        (0..<fixture.timestamps.count).last { fixture.time(ofFrame: $0) <= t } ?? 0
    }

    @Test("opening builds a 6-frame strip at i·d/6 and shows the first frame exactly")
    func opening() async throws {
        let (session, fixture) = try await openSession()
        #expect(session.phase == .ready)
        #expect(session.title == "Set cover")
        #expect(!session.tip.isEmpty)
        let duration = try #require(session.info?.duration)
        #expect(duration == MediaTime(value: 48, timescale: 30))
        #expect(session.strip.count == 6)
        // Slices of 8 frames, keyframes every 12: a slice's own keyframe, else its first frame.
        var indices: [Int] = []
        for (i, cell) in session.strip.enumerated() {
            let frame = try #require(cell.frame)
            let start = try #require(duration.scaled(by: Int64(i), over: 6))
            let end = try #require(duration.scaled(by: Int64(i + 1), over: 6))
            #expect(cell.requested == start)
            #expect(frame.time >= start && frame.time < end, "cell \(i) shows a frame of its own slice")
            #expect(frame.image.height == 90)
            let index = try #require(FrameIndexPattern.readIndex(from: frame.image))
            #expect(frame.time == fixture.time(ofFrame: index))
            indices.append(index)
        }
        #expect(indices == [0, 12, 16, 24, 36, 40])
        #expect(session.strip.map { $0.frame?.isKeyframe } == [true, true, false, true, true, false])
        let preview = try #require(session.preview)
        #expect(preview.isExact)
        #expect(FrameIndexPattern.readIndex(from: preview.frame.image) == 0)
    }

    @Test("moving the slider shows the keyframe first, then the exact frame")
    func scrubbing() async throws {
        let (session, fixture) = try await openSession()
        var seen: [CoverPickerSession.Preview] = []
        session.onPreviewChange = { seen.append($0) }
        try await session.moveSlider(to: 0.4)
        #expect(seen.count == 2)
        let t = session.time(forSlider: 0.4)
        #expect(t == MediaTime(value: 16, timescale: 25))
        #expect(seen.first?.isExact == false)
        #expect(seen.first?.frame.isKeyframe == true)
        #expect(seen.last?.isExact == true)
        let exact = try #require(seen.last)
        #expect(FrameIndexPattern.readIndex(from: exact.frame.image) == expectedIndex(fixture, at: t))
        #expect(exact.frame.time == fixture.time(ofFrame: expectedIndex(fixture, at: t)))
    }

    @Test("each frame shown is counted from 1 among the video's frames, as a screen reader says it: the index the frame draws, plus one")
    func framePositions() async throws {
        let (session, fixture) = try await openSession()
        #expect(session.framePosition(at: .zero) != nil)
        for slider in [0.0, 0.4, 0.77, 1] {
            try await session.moveSlider(to: slider)
            let shown = try #require(session.preview)
            let index = try #require(FrameIndexPattern.readIndex(from: shown.frame.image))
            let position = try #require(session.framePosition(at: shown.frame.time))
            #expect(position.number == index + 1, "slider \(slider)")
            #expect(position.count == fixture.timestamps.count)
        }
    }

    @Test("before the video is open there is no frame position")
    func noFramePositionBeforeOpening() {
        let session = CoverPickerSession(video: URL(fileURLWithPath: "/nonexistent.mp4"))
        #expect(session.framePosition(at: .zero) == nil)
    }

    @Test("the slider spans the whole duration: 1 is the last frame")
    func sliderEnds() async throws {
        let (session, fixture) = try await openSession()
        #expect(session.time(forSlider: 1) == session.info?.duration)
        #expect(session.time(forSlider: 7) == session.info?.duration, "clamped")
        #expect(session.time(forSlider: -1) == .zero, "clamped")
        try await session.moveSlider(to: 1)
        let last = fixture.timestamps.count - 1
        #expect(session.preview.map { FrameIndexPattern.readIndex(from: $0.frame.image) } == last)
    }

    @Test("a newer slider move supersedes an older one")
    func supersededMoves() async throws {
        let (session, fixture) = try await openSession()
        // Main-actor tasks start in the order they are made (async let children would race to
        // the main actor, and the strip's background work shares it).
        let first = Task { try await session.moveSlider(to: 0.2) }
        let second = Task { try await session.moveSlider(to: 0.9) }
        _ = try await (first.value, second.value)
        let preview = try #require(session.preview)
        #expect(preview.sliderValue == 0.9)
        #expect(preview.isExact)
        #expect(FrameIndexPattern.readIndex(from: preview.frame.image) == expectedIndex(fixture, at: session.time(forSlider: 0.9)))
    }

    @Test("Done hands back the exact frame at the slider with its time")
    func completing() async throws {
        let (session, fixture) = try await openSession()
        try await session.moveSlider(to: 0.55)
        let cover = try await session.complete()
        let index = expectedIndex(fixture, at: session.time(forSlider: 0.55))
        #expect(FrameIndexPattern.readIndex(from: cover.image) == index)
        #expect(cover.time == fixture.time(ofFrame: index))
        #expect(cover.image.size == fixture.spec.size)
        #expect(session.phase == .completed)
        await #expect(throws: CoverPickerError.notOpen) { try await session.moveSlider(to: 0.1) }
    }

    @Test("in the background each strip cell becomes the exact frame at i·d/6, and the screen is told of each")
    func stripRefines() async throws {
        let fixture = try await FixtureFactory.shared.make(.h264BFrames)
        let session = CoverPickerSession(video: fixture.url)
        var told: [Int] = []
        session.onStripChange = { told.append($0.index) }
        try await session.open()
        #expect(session.isRefiningStrip)
        #expect(session.strip.map(\.isExact) == [true, false, true, true, false, true])
        await session.stripRefined()
        #expect(!session.isRefiningStrip)
        #expect(told == [1, 4], "only the cells that were not exact")
        let indices = session.strip.map { $0.frame.flatMap { FrameIndexPattern.readIndex(from: $0.image) } }
        #expect(indices == [0, 8, 16, 24, 32, 40])
        #expect(session.strip.allSatisfy { $0.isExact && $0.frame?.image.height == 90 })
    }

    @Test("closing the screen stops the strip's background work")
    func stripRefinementCancelled() async throws {
        let fixture = try await FixtureFactory.shared.make(.h264BFrames)
        let session = CoverPickerSession(video: fixture.url)
        var told = 0
        session.onStripChange = { _ in told += 1 }
        try await session.open()
        session.cancel()
        #expect(!session.isRefiningStrip)
        await session.stopped()
        #expect(told == 0)
        #expect(session.strip.map(\.isExact) == [true, false, true, true, false, true])
    }

    @Test("suggestions arrive in the background; jumping to one shows and hands back its exact frame")
    func suggestions() async throws {
        let clip = try SuggestionClip.make(in: TestPaths.scratchFolder("session-suggest"))
        let session = CoverPickerSession(video: clip)
        var told: [[CoverSuggestion]] = []
        session.onSuggestionsChange = { told.append($0) }
        try await session.open()
        await session.suggestionsFound()
        #expect(told.count == 1)
        #expect(session.suggestions.count == 3)
        #expect(Set(session.suggestions.compactMap { SuggestionClip.scene(of: $0.time.seconds) }) == [0, 1, 2])
        let best = try #require(session.suggestions.first)
        let shown = try #require(try await session.moveSlider(to: best))
        #expect(shown.isExact && shown.frame.time == best.time)
        #expect(abs(session.sliderValue - best.time.seconds / 8) < 1e-9)
        let cover = try await session.complete()
        #expect(cover.time == best.time)
    }

    @Test("the video is opened twice at most: once for the probe, the slider, the exact strip and the suggestions (one frame service), once for the keyframes")
    func opensTwice() async throws {
        let clip = try SuggestionClip.make(in: TestPaths.scratchFolder("session-opens"))
        let opens = try FileOpens(clip)
        let session = CoverPickerSession(video: clip)
        try await session.open()
        await session.stripRefined()
        await session.suggestionsFound()
        #expect(session.suggestions.count == 3)
        _ = try await session.moveSlider(to: 0.5)
        _ = try await session.complete()
        #expect(opens.count == 2)
    }

    @Test("Back closes without a cover")
    func cancelling() async throws {
        let (session, _) = try await openSession()
        session.cancel()
        #expect(session.phase == .cancelled)
        await #expect(throws: CoverPickerError.cancelled) { try await session.complete() }
    }

    @Test("videos over the limit are refused before any frame is decoded")
    func durationLimit() async throws {
        let fixture = try await FixtureFactory.shared.make(.h264BFrames)
        let limit = DurationLimit(maximum: MediaTime(seconds: 1))
        let session = CoverPickerSession(video: fixture.url, configuration: .init(limit: limit))
        await #expect(throws: CoverPickerError.tooLong(path: fixture.url.path, duration: MediaTime(value: 8, timescale: 5),
                                                      limit: MediaTime(seconds: 1))) {
            try await session.open()
        }
        #expect(session.phase == .failed)
        #expect(session.strip.isEmpty)
        let message = CoverPickerError.tooLong(path: "/x/clip.mov", duration: MediaTime(value: 428, timescale: 10),
                                               limit: MediaTime(seconds: 30)).description
        #expect(message == "clip.mov is 42.8 s long; the limit is 30 s")
    }

    @Test("a file that is not a video fails the session with the media error")
    func badFile() async throws {
        let folder = TestPaths.scratchFolder("session")
        let url = folder.appendingPathComponent("notes.mp4")
        try Data("hello, not a video".utf8).write(to: url)
        let session = CoverPickerSession(video: url)
        await #expect(throws: CoverPickerError.media(.notMedia(path: url.path))) { try await session.open() }
        #expect(session.phase == .failed)
    }
}

@Suite("Cover picker arithmetic")
struct CoverPickerArithmeticTests {
    @Test("strip times are i·d/N exactly, for any timescale")
    func stripTimes() {
        let d = MediaTime(value: 1001 * 90, timescale: 30000)  // 90 frames at 29.97
        let times = CoverPicker.stripTimes(duration: d, count: 6)
        #expect(times.count == 6)
        #expect(times[0] == .zero)
        #expect(times[1] == MediaTime(value: 1001 * 15, timescale: 30000))
        #expect(times[5] == MediaTime(value: 1001 * 75, timescale: 30000))
        #expect(CoverPicker.stripTimes(duration: d, count: 0).isEmpty)
    }

    @Test("slider values map across the whole duration")
    func sliderMapping() {
        let d = MediaTime(value: 5, timescale: 1)
        #expect(CoverPicker.time(forSlider: 0.5, duration: d) == MediaTime(value: 5, timescale: 2))
        #expect(CoverPicker.time(forSlider: .nan, duration: d) == .zero)
        #expect(CoverPicker.time(forSlider: 1, duration: d) == d)
    }
}
