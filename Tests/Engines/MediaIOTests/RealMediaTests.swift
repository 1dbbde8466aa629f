import Foundation
import Testing
import ViewfinderCore
import ViewfinderTestSupport

@testable import MediaIO

/// The real phone and camera files of ../shared/media: exact frame times checked against the
/// timestamps of every frame ffprobe decodes.
@Suite("Real media")
struct RealMediaTests {
    static let videos = ["phone_video", "slowmo", "video_features"].flatMap(TestPaths.mediaFiles(in:))
        .filter { !$0.lastPathComponent.hasPrefix("audioonly") }

    @Test("the corpus is there")
    func corpusPresent() {
        #expect(Self.videos.count >= 25, "expected the shared media corpus at \(TestPaths.media.path)")
    }

    @Test("exact frames match ffprobe's frame times", arguments: videos)
    func exactTimes(_ url: URL) throws {
        let reader = try FrameReader(url: url)
        let probe = try FFprobe.frames(of: url)
        let shown = probe.timestamps.sorted()
        let first = try #require(shown.first, "ffprobe decodes no frame")
        let times = shown.map { MediaTime.ticks($0 - first, timeBase: probe.timeBase.num, probe.timeBase.den) ?? .zero }
        let d = reader.duration
        let targets = [0, 1, 2, 3, 4, 5, 6].compactMap { d.scaled(by: $0, over: 6) }
        for t in targets {
            let frame = try reader.frame(at: .time(t), size: .fit(PixelSize(width: 160, height: 160)))
            let expected = times.last { $0 <= t } ?? .zero
            #expect(frame.time == expected, "\(url.lastPathComponent) at \(t.decimalString): got \(frame.time.decimalString)")
            #expect(frame.image.size == reader.video.displaySize.fitting(in: PixelSize(width: 160, height: 160)))
        }
        for t in targets {
            let frame = try reader.frame(at: .time(t), mode: .fast, size: .height(48))
            #expect(frame.time <= t || frame.time == .zero, "\(url.lastPathComponent) fast at \(t.decimalString)")
            #expect(times.contains(frame.time), "\(url.lastPathComponent): fast frame time \(frame.time) is not a frame")
        }
    }
}
