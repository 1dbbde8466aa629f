import Foundation
import Testing
import ViewfinderCore
import ViewfinderTestSupport

@testable import MediaIO

/// Strips without copies: every cell shows a different frame from inside its own slice
/// [i·d/N, (i+1)·d/N), read back by the index each frame draws.
@Suite("Strips")
struct FrameReaderStripTests {
    /// One keyframe only: every slice but the first has none of its own.
    static let longGOP = FixtureSpec("strip-long-gop", frames: 60, encode: [
        "-c:v", "libx264", "-preset", "veryfast", "-crf", "16", "-pix_fmt", "yuv420p", "-bf", "2",
        "-g", "250", "-keyint_min", "250", "-sc_threshold", "0"])
    /// Four frames for six cells.
    static let fourFrames = FixtureSpec("strip-four", frames: 4, encode: [
        "-c:v", "libx264", "-preset", "veryfast", "-crf", "16", "-pix_fmt", "yuv420p", "-g", "2"])

    static func indices(_ cells: [StripCell]) -> [Int?] {
        cells.map { $0.frame.flatMap { FrameIndexPattern.readIndex(from: $0.image) } }
    }

    @Test("fast: a slice's own keyframe, else the slice's first frame (8-frame slices, keyframes every 12)")
    func keyframesAndForward() throws {
        let fixture = try FixtureFactory.shared.fixture(.h264BFrames)
        let cells = try FrameReader(url: fixture.url).strip(count: 6, mode: .fast, size: .height(54))
        #expect(Self.indices(cells) == [0, 12, 16, 24, 36, 40])
        #expect(cells.map(\.isExact) == [true, false, true, true, false, true])
        #expect(cells.map { $0.frame?.isKeyframe } == [true, true, false, true, true, false])
        #expect(cells.map(\.requested) == (0..<6).map { MediaTime(value: Int64(8 * $0), timescale: 30) })
        #expect(cells.allSatisfy { $0.frame?.image.height == 54 })
    }

    @Test("a GOP longer than the strip decodes forward into each slice: the exact frame at each i·d/N")
    func longGOP() throws {
        let fixture = try FixtureFactory.shared.fixture(Self.longGOP)
        let reader = try FrameReader(url: fixture.url)
        let cells = try reader.strip(count: 6, mode: .fast, size: .height(54))
        #expect(Self.indices(cells) == [0, 10, 20, 30, 40, 50])
        #expect(cells.allSatisfy { $0.isExact })
        #expect(reader.statistics.seeks <= 1, "one pass forward through the file, not a seek per cell")
    }

    @Test("fewer frames than cells: empty cells, never a copy", arguments: [FrameMode.fast, .exact])
    func fewerFrames(_ mode: FrameMode) throws {
        let fixture = try FixtureFactory.shared.fixture(Self.fourFrames)
        let cells = try FrameReader(url: fixture.url).strip(count: 6, mode: mode, size: .original)
        // Slices start at 0, 2/3, 4/3, 2, 8/3 and 10/3 frames.
        let expected: [Int?] = mode == .fast ? [0, 1, nil, 2, 3, nil] : [0, nil, 1, 2, nil, 3]
        #expect(Self.indices(cells) == expected)
        #expect(cells.map(\.index) == Array(0..<6))
        #expect(cells.filter { $0.frame == nil }.allSatisfy { !$0.isExact })
    }

    @Test("exact: the exact frame at each i·d/N, counted by progress")
    func exact() throws {
        let fixture = try FixtureFactory.shared.fixture(.ntsc)
        let progress = Progress(totalUnitCount: 1)
        let cells = try FrameReader(url: fixture.url).strip(count: 5, mode: .exact, size: .height(54), progress: progress)
        // d = 48 frames at 29.97: i·d/5 falls at 0, 9.6, 19.2, 28.8 and 38.4 frames.
        #expect(Self.indices(cells) == [0, 9, 19, 28, 38])
        #expect(cells.allSatisfy { $0.isExact })
        #expect(progress.totalUnitCount == 5 && progress.completedUnitCount == 5)
    }

    @Test("every generated clip: distinct frames, each inside its own slice", arguments: FrameReaderTests.clips)
    func everyClip(_ spec: FixtureSpec) throws {
        let fixture = try FixtureFactory.shared.fixture(spec)
        for count in [3, 6, 10] {
            let reader = try FrameReader(url: fixture.url)
            let cells = try reader.strip(count: count, mode: .fast, size: .height(54))
            try Self.checkSlices(cells, reader: reader, "\(spec) ×\(count)")
            for cell in cells {
                guard let frame = cell.frame else { continue }
                let index = try #require(FrameIndexPattern.readIndex(from: frame.image), "\(spec)")
                #expect(frame.time == fixture.time(ofFrame: index), "\(spec) ×\(count) cell \(cell.index): the picture is the frame its time says")
            }
        }
    }

    /// Distinct timestamps, each inside [i·d/N, (i+1)·d/N) (the last slice includes d), in the
    /// stream's ticks (a time between two ticks belongs to the tick the reader rounds it to).
    static func checkSlices(_ cells: [StripCell], reader: FrameReader, _ what: String) throws {
        let times = cells.compactMap { $0.frame?.timestamp }
        #expect(Set(times).count == times.count, "\(what): no two cells alike")
        for cell in cells {
            guard let frame = cell.frame else { continue }
            let start = try reader.timestamp(for: .time(cell.requested))
            let last = cell.index == cells.count - 1
            let end = try reader.timestamp(for: .time(try #require(reader.duration.scaled(by: Int64(cell.index + 1), over: Int64(cells.count)))))
            #expect(frame.timestamp >= start, "\(what) cell \(cell.index): \(frame.time) before its slice")
            #expect(frame.timestamp < end || (last && frame.timestamp <= end), "\(what) cell \(cell.index): \(frame.time) after its slice")
        }
    }

    @Test("the corpus's videos: distinct frames, each inside its own slice", arguments: RealMediaTests.videos)
    func corpus(_ file: URL) throws {
        let reader = try FrameReader(url: file)
        let cells = try reader.strip(count: 6, mode: .fast, size: .height(32))
        #expect(cells.contains { $0.frame != nil }, "\(file.lastPathComponent)")
        try Self.checkSlices(cells, reader: reader, file.lastPathComponent)
    }
}
