import Foundation
import MediaIO
import Testing
import ViewfinderCore
import ViewfinderTestSupport

@testable import VideoEditing

@Suite("Trim session")
@MainActor
struct TrimSessionTests {
    /// Two seconds at 25 fps with B-frames: handle values map to whole frames at 0.02 steps.
    nonisolated static let clip = FixtureSpec("trim-25fps", size: PixelSize(width: 160, height: 90), frames: 50, rate: "25",
                                  encode: ["-c:v", "libx264", "-preset", "veryfast", "-crf", "16", "-pix_fmt", "yuv420p",
                                           "-bf", "2", "-g", "12", "-sc_threshold", "0"])

    /// The clip, made off the main actor (ffmpeg runs meanwhile, and other suites need the actor).
    nonisolated static func fixture() async throws -> Fixture {
        try FixtureFactory.shared.fixture(clip)
    }

    func openSession(clock: any ClockSource = VirtualClock()) async throws -> (TrimSession, Fixture) {
        let fixture = try await Self.fixture()
        let session = TrimSession(video: fixture.url, stripCount: 5, clock: clock)
        try await session.open()
        return (session, fixture)
    }

    /// The indices of the frames a range keeps, by ffprobe's timestamps: from the frame shown at
    /// `start` up to the last one shown before `end`.
    func expectedIndices(_ fixture: Fixture, _ start: MediaTime, _ end: MediaTime) -> [Int] {
        let first = (0..<fixture.spec.frames).last { fixture.time(ofFrame: $0) <= start } ?? 0
        return (first..<fixture.spec.frames).filter { fixture.time(ofFrame: $0) < end }
    }

    @Test("opening probes the clip, builds the strip and puts the handles at both ends")
    func opening() async throws {
        let (session, _) = try await openSession()
        #expect(session.phase == .ready)
        #expect(session.duration == MediaTime(seconds: 2))
        #expect(session.strip.count == 5)
        #expect(session.strip.allSatisfy { $0.image.height == 72 && $0.isKeyframe })
        #expect(session.startValue == 0 && session.endValue == 1)
        #expect(session.startTime == .zero && session.endTime == MediaTime(seconds: 2))
        #expect(session.minimumLength == MediaTime(value: 1, timescale: 10))
    }

    @Test("handles clamp to each other, never closer than the minimum length")
    func clamping() async throws {
        let (session, _) = try await openSession()
        let tenth = MediaTime(value: 1, timescale: 10)
        session.moveStart(to: 0.5)
        session.moveEnd(to: 0.3)
        #expect(session.startTime == MediaTime(seconds: 1))
        #expect(session.endTime == MediaTime(value: 11, timescale: 10), "the end stops a tenth after the start")
        session.moveStart(to: 0.99)
        #expect(session.startTime == MediaTime(seconds: 1), "the start stops a tenth before the end")
        session.moveStart(to: .nan)
        session.moveEnd(to: .infinity)
        #expect(session.startTime == MediaTime(seconds: 1) && session.endTime == MediaTime(value: 11, timescale: 10))
        session.moveStart(to: -3)
        session.moveEnd(to: 7)
        #expect(session.startTime == .zero && session.endTime == MediaTime(seconds: 2))
        #expect(session.startValue < session.endValue)

        session.moveStart(to: 0.9)
        session.moveEnd(to: 0.95)
        #expect(session.endTime.subtracting(session.startTime) == tenth)
        session.minimumLength = MediaTime(value: 1, timescale: 2)
        #expect(session.endTime == MediaTime(seconds: 2), "a longer minimum pushes the end out to the end of the clip")
        #expect(session.startTime == MediaTime(value: 3, timescale: 2), "and then the start back")
        session.minimumLength = .zero
        #expect(session.minimumLength == MediaTime(value: 1, timescale: 2), "a zero minimum would allow an empty range")
        session.minimumLength = MediaTime(seconds: 60)
        #expect(session.minimumLength == MediaTime(seconds: 2), "never more than the whole clip")
        #expect(session.startTime == .zero && session.endTime == MediaTime(seconds: 2))
    }

    @Test("handle times are exact for a 25 fps clip, and the export range follows them")
    func exactTimes() async throws {
        let (session, _) = try await openSession()
        session.moveStart(to: 0.26)
        session.moveEnd(to: 0.74)
        #expect(session.startTime == MediaTime(value: 13, timescale: 25))
        #expect(session.endTime == MediaTime(value: 37, timescale: 25))
        var settings = session.exportSettings
        #expect(settings.range == ExportRange(start: .time(MediaTime(value: 13, timescale: 25)),
                                              end: .time(MediaTime(value: 37, timescale: 25))))
        settings.preset = .highest
        settings.range = nil
        session.exportSettings = settings
        #expect(session.exportSettings.preset == .highest)
        #expect(session.exportSettings.range?.start == .time(MediaTime(value: 13, timescale: 25)), "the handles own the range")
    }

    @Test("a handle's preview is the frame shown at its time")
    func handlePreview() async throws {
        let (session, fixture) = try await openSession()
        let frame = try await session.frame(atHandle: 0.63, mode: .exact)
        let index = try #require(FrameIndexPattern.readIndex(from: frame.image))
        #expect(index == expectedIndices(fixture, MediaTime(value: 126, timescale: 100), MediaTime(seconds: 2)).first)
        #expect(frame.time == fixture.time(ofFrame: index))
        #expect(frame.image.size == PixelSize(width: 160, height: 90))
    }

    @Test("play delivers exactly the frames of the range, in order", arguments: [(0.25, 0.75), (0.0, 1.0), (0.9, 1.0)])
    func playRange(_ start: Double, _ end: Double) async throws {
        let clock = VirtualClock()
        let (session, fixture) = try await openSession(clock: clock)
        session.moveStart(to: start)
        session.moveEnd(to: end)
        var indices: [Int?] = []
        var times: [MediaTime] = []
        try await session.play { frame in
            indices.append(FrameIndexPattern.readIndex(from: frame.image))
            times.append(frame.time)
            clock.advance(by: 1000)  // every later frame is due at once
        }
        let expected = expectedIndices(fixture, session.startTime, session.endTime)
        #expect(!expected.isEmpty)
        #expect(indices == expected.map { $0 })
        #expect(times == expected.map { fixture.time(ofFrame: $0) })
        #expect(!session.isPlaying)
    }

    @Test("playback is paced by the clock: no frame comes before its time")
    func pacing() async throws {
        let clock = VirtualClock()
        let (session, fixture) = try await openSession(clock: clock)
        session.moveStart(to: 0.5)
        session.moveEnd(to: 0.8)
        // Virtual time moves in small steps each time playback pauses for a frame not yet due;
        // without pacing every frame would arrive at virtual time zero.
        session.beforePause = { _ in clock.advance(by: 0.01) }
        var arrivals: [(time: MediaTime, clock: TimeInterval)] = []
        var origin: TimeInterval?
        try await session.play { frame in
            origin = origin ?? clock.now
            arrivals.append((frame.time, clock.now))
        }
        let expected = expectedIndices(fixture, session.startTime, session.endTime)
        #expect(arrivals.count == expected.count)
        let start = try #require(origin)
        let first = try #require(arrivals.first?.time)
        for arrival in arrivals {
            let due = start + (arrival.time.subtracting(first) ?? .zero).seconds
            #expect(arrival.clock >= due - 1e-9, "frame at \(arrival.time) came at \(arrival.clock - start) s")
        }
        #expect((arrivals.last?.clock ?? 0) - start >= 0.28)
    }

    @Test("stop ends playback; later frames are dropped")
    func stopping() async throws {
        let clock = VirtualClock()
        let (session, _) = try await openSession(clock: clock)
        var count = 0
        try await session.play { _ in
            count += 1
            clock.advance(by: 1000)
            if count == 3 { session.stop() }
        }
        #expect(count == 3)
        #expect(!session.isPlaying)
    }

    @Test("cancelling the playing task throws CancellationError")
    func taskCancellation() async throws {
        let (session, _) = try await openSession(clock: VirtualClock())  // time never moves: frame 2 never comes
        var count = 0
        let playing = Task { @MainActor in try await session.play { _ in count += 1 } }
        while count == 0 { await Task.yield() }
        playing.cancel()
        await #expect(throws: CancellationError.self) { try await playing.value }
        #expect(count == 1)
    }

    @Test("export writes exactly the range; the phase ends finished")
    func export() async throws {
        let (session, _) = try await openSession()
        session.moveStart(to: 0.2)  // 0.4 s = frame 10
        session.moveEnd(to: 0.7)  // 1.4 s = frame 35, cut
        let out = TestPaths.scratchFolder("trim").appendingPathComponent("trimmed.mp4")
        let outcome = await session.export(to: out, progress: Progress(totalUnitCount: 1))
        guard case .saved(let url, let result) = outcome else { Issue.record("expected saved, got \(outcome)"); return }
        #expect(url == out && result.frameCount == 25)
        #expect(session.phase == .finished)
        let probe = try FFprobe.frames(of: out)
        #expect(probe.timestamps.count == 25)
        let streams = try FFprobe.description(of: out)["streams"] as? [[String: Any]] ?? []
        let duration = Double(streams.first?["duration"] as? String ?? "") ?? 0
        #expect(abs(duration - 1.0) < 0.001, "ffprobe says \(duration) s")
        #expect(try frameIndices(out) == (10..<35).map { $0 })
    }

    @Test("cancelling the export's progress gives cancelled and no file", arguments: [0.0, 0.4])
    func exportCancelled(_ at: Double) async throws {
        let (session, _) = try await openSession()
        session.moveStart(to: 0.1)
        session.exportSettings = ExportSettings(preset: .highest)
        let folder = TestPaths.scratchFolder("trim-cancel")
        let progress = CancelAt(max(at, 0.01))
        if at == 0 { progress.cancel() }
        let outcome = await session.export(to: folder.appendingPathComponent("out.mp4"), progress: progress)
        #expect(outcome == .cancelled)
        #expect(session.phase == .cancelled)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test("a file that cannot be edited is refused with the reason")
    func notEditable() async throws {
        let text = TestPaths.scratchFolder("trim-bad").appendingPathComponent("notes.mp4")
        try Data("not a video".utf8).write(to: text)
        let session = TrimSession(video: text)
        await #expect(throws: VideoEditingError.cannotEdit(path: text.path, reason: .notMedia(path: text.path))) {
            try await session.open()
        }
        #expect(session.phase == .failed)
        #expect(VideoEditingError.cannotEdit(path: text.path, reason: .notMedia(path: text.path)).description
            .contains("cannot be edited"))
        await #expect(throws: VideoEditingError.notReady) { try await session.play { _ in } }
    }
}

@Suite("Trim session: several ranges")
@MainActor
struct TrimSessionRangesTests {
    @Test("marked ranges are joined in the order marked, frame-exactly, by a smart cut; overlaps are refused")
    func markedRanges() async throws {
        let fixture = try await TrimSessionTests.fixture()
        let session = TrimSession(video: fixture.url, stripCount: 3, clock: VirtualClock())
        #expect(!session.markRange(), "nothing to mark before the video is open")
        try await session.open()
        session.moveStart(to: 0.62)   // 1.24 s: frame 31
        session.moveEnd(to: 0.9)      // 1.8 s: frame 45 is cut
        #expect(session.markRange())
        session.moveStart(to: 0.1)    // 0.2 s: frame 5
        session.moveEnd(to: 0.5)      // 1.0 s: frame 25 is cut
        #expect(session.markRange())
        session.moveStart(to: 0.4)
        session.moveEnd(to: 0.7)
        #expect(!session.markRange(), "0.8–1.4 s overlaps both")
        #expect(session.markedRanges.count == 2)
        #expect(session.exportSettings.ranges == session.markedRanges)
        #expect(session.exportSettings.method == .smart)

        let out = TestPaths.scratchFolder("session-ranges").appendingPathComponent("joined.mp4")
        let outcome = await session.export(to: out, progress: Progress(totalUnitCount: 1))
        guard case .saved(_, let result) = outcome else { Issue.record("expected saved, got \(outcome)"); return }
        #expect(result.method == "smart", "\(result)")
        #expect((result.copiedFrames ?? 0) > 0)
        let expected = Array(31..<45) + Array(5..<25)
        #expect(result.frameCount == expected.count)
        #expect(try FFmpegOracle.drawnIndices(of: out, size: fixture.spec.size) == expected)

        session.unmarkRange(at: 0)
        #expect(session.markedRanges.count == 1)
        session.clearMarkedRanges()
        #expect(session.exportSettings.ranges == [ExportRange(start: .time(session.startTime), end: .time(session.endTime))])
    }
}
