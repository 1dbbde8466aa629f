import Foundation
import Testing
import ViewfinderCore
import ViewfinderTestSupport

@testable import MediaIO

/// `headerDuration(of:)` and `MediaHeader`: what a file's header records, read without
/// analysing or decoding anything, against ffprobe and against the full probe.
@Suite("Media header")
struct MediaHeaderTests {
    static let corpus = ["phone_video", "slowmo", "video_features"].flatMap(TestPaths.mediaFiles(in:))
    static let noDuration = TestPaths.media.appendingPathComponent("video_features/webm_mediarecorder_chrome57_vp8_opus_noduration_vfr.webm")

    @Test("generated clips: the header's duration is the probe's, exactly", arguments: [
        FixtureSpec.h264BFrames, .vp9, .hevc, .editList, .oneFrame,
    ])
    func fixtures(_ spec: FixtureSpec) throws {
        let fixture = try FixtureFactory.shared.fixture(spec)
        let header = try MediaHeader(url: fixture.url)
        #expect(header.path == fixture.url.path)
        let recorded = try #require(header.recordedDuration)
        #expect(recorded == (try probeMedia(at: fixture.url)).duration)
        #expect(try headerDuration(of: fixture.url) == recorded)
    }

    @Test("an MP4 of 48 frames at 30 fps records 8/5 s")
    func exactValue() throws {
        let fixture = try FixtureFactory.shared.fixture(.h264BFrames)
        #expect(try headerDuration(of: fixture.url) == MediaTime(value: 8, timescale: 5))
    }

    @Test("every corpus file whose header records a duration: the same as the full probe's", arguments: corpus.filter { $0 != noDuration })
    func corpusAgrees(_ url: URL) throws {
        let recorded = try #require(try headerDuration(of: url), "\(url.lastPathComponent) records a duration (ffprobe shows one)")
        #expect(recorded == (try probeMedia(at: url)).duration, "\(url.lastPathComponent)")
    }

    @Test("a live recording records none; the probe finds it from the packets, as ffprobe's packets say")
    func liveRecording() throws {
        #expect(try headerDuration(of: Self.noDuration) == nil)
        let info = try probeMedia(at: Self.noDuration)
        let index = try #require(info.video?.streamIndex)
        let packets = try Subprocess.run("ffprobe", ["-v", "error", "-select_streams", "\(index)", "-show_entries",
                                                     "packet=pts,duration", "-of", "csv=p=0", Self.noDuration.path])
        let rows = packets.stdout.split(separator: "\n").map { $0.split(separator: ",").compactMap { Int64($0) } }
        let starts = rows.compactMap(\.first)
        let ends = rows.filter { $0.count == 2 }.map { $0[0] + $0[1] }
        let first = try #require(starts.min()), end = try #require((ends + starts).max())
        #expect(info.duration == MediaTime(value: end - first, timescale: 1000), "Matroska ticks are milliseconds")
    }

    @Test("files that cannot be opened say why", arguments: ["missing", "empty", "text", "folder"])
    func refused(_ kind: String) throws {
        let folder = TestPaths.scratchFolder("header-bad")
        let url = folder.appendingPathComponent("x.mp4")
        let expected: MediaIOError
        switch kind {
        case "missing": expected = .fileNotFound(path: url.path)
        case "empty": try Data().write(to: url); expected = .emptyFile(path: url.path)
        case "text": try Data("not a video at all\n".utf8).write(to: url); expected = .notMedia(path: url.path)
        default: try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true); expected = .isDirectory(path: url.path)
        }
        #expect(throws: expected) { _ = try MediaHeader(url: url) }
        #expect(throws: expected) { _ = try headerDuration(of: url) }
    }
}
