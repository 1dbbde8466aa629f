import Foundation
import Testing
import ViewfinderCore
import ViewfinderTestSupport

@testable import MediaIO

/// Every case of "the frame at t" from the cover-engine issue, checked frame by frame against
/// clips whose pictures carry their own index and against ffprobe's timestamps.
@Suite("Frame exactness")
struct FrameReaderTests {
    static let clips: [FixtureSpec] = [
        .h264BFrames, .h264OpenGOP, .editList, .transportStream, .variableRate, .ntsc, .vp9, .hevc,
        .oddSize, .croppedSize, .oneFrame,
    ]

    /// (expected frame, time to ask for): each frame's own time, half-way to the next frame,
    /// and one tick before the next frame; the duration itself gives the last frame.
    static func probes(_ fixture: Fixture, duration: MediaTime) -> [(Int, MediaTime)] {
        var result: [(Int, MediaTime)] = []
        let count = fixture.timestamps.count
        for k in 0..<count {
            let t = fixture.time(ofFrame: k)
            result.append((k, t))
            if k + 1 < count {
                let next = fixture.time(ofFrame: k + 1)
                if let gap = next.subtracting(t), let half = gap.scaled(by: 1, over: 2), let mid = t.adding(half) {
                    result.append((k, mid))
                }
                if let before = next.subtracting(fixture.tick), before > t { result.append((k, before)) }
            }
        }
        result.append((count - 1, duration))
        return result
    }

    static func index(of frame: VideoFrame) -> Int? {
        FrameIndexPattern.readIndex(from: frame.image)
    }

    @Test("exact frames, asked in order (decoding forward)", arguments: clips)
    func exactInOrder(_ spec: FixtureSpec) throws {
        let fixture = try FixtureFactory.shared.fixture(spec)
        let reader = try FrameReader(url: fixture.url)
        for (expected, t) in Self.probes(fixture, duration: reader.duration) {
            let frame = try reader.frame(at: .time(t))
            #expect(Self.index(of: frame) == expected, "\(spec) at \(t.rationalString)")
            #expect(frame.time == fixture.time(ofFrame: expected), "\(spec) at \(t.rationalString)")
        }
    }

    @Test("exact frames, asked in shuffled order (seeking)", arguments: clips)
    func exactShuffled(_ spec: FixtureSpec) throws {
        let fixture = try FixtureFactory.shared.fixture(spec)
        let reader = try FrameReader(url: fixture.url)
        var generator = SplitMix64(seed: 7)
        for (expected, t) in Self.probes(fixture, duration: reader.duration).shuffled(using: &generator) {
            let frame = try reader.frame(at: .time(t))
            #expect(Self.index(of: frame) == expected, "\(spec) at \(t.rationalString)")
            #expect(frame.time == fixture.time(ofFrame: expected))
        }
    }

    @Test("frame:N is the N-th frame in presentation order", arguments: clips)
    func frameNumbers(_ spec: FixtureSpec) throws {
        let fixture = try FixtureFactory.shared.fixture(spec)
        let reader = try FrameReader(url: fixture.url)
        for n in Set([0, fixture.timestamps.count / 2, fixture.timestamps.count - 1]).sorted() {
            let frame = try reader.frame(at: .frame(n))
            #expect(Self.index(of: frame) == n, "\(spec) frame:\(n)")
            #expect(frame.time == fixture.time(ofFrame: n))
        }
        #expect(throws: MediaIOError.frameOutOfRange(path: fixture.url.path, frame: fixture.timestamps.count,
                                                     frameCount: fixture.timestamps.count)) {
            try reader.frame(at: .frame(fixture.timestamps.count))
        }
    }

    @Test("fast mode returns the keyframe at or before the time", arguments: clips)
    func fastKeyframes(_ spec: FixtureSpec) throws {
        let fixture = try FixtureFactory.shared.fixture(spec)
        let reader = try FrameReader(url: fixture.url)
        for (_, t) in Self.probes(fixture, duration: reader.duration) where t > .zero {
            let frame = try reader.frame(at: .time(t), mode: .fast)
            let index = try #require(Self.index(of: frame), "\(spec) fast at \(t.rationalString)")
            #expect(frame.time == fixture.time(ofFrame: index))
            #expect(frame.time <= t || index == 0, "\(spec) fast at \(t.rationalString) gave \(frame.time)")
            #expect(frame.isKeyframe, "\(spec) fast at \(t.rationalString) is not a keyframe")
        }
    }

    @Test("scrubbing forward decodes forward instead of seeking")
    func forwardScrubbingDoesNotSeek() throws {
        let fixture = try FixtureFactory.shared.fixture(.h264BFrames)
        let reader = try FrameReader(url: fixture.url)
        for k in 0..<fixture.timestamps.count {
            _ = try reader.frame(at: .time(fixture.time(ofFrame: k)))
        }
        // 48 frames in GOPs of 12: reading them all in order needs no seek at all.
        #expect(reader.statistics.seeks == 0)
        #expect(reader.statistics.packetsSent == fixture.timestamps.count)
        _ = try reader.frame(at: .time(fixture.time(ofFrame: 3)))
        #expect(reader.statistics.seeks == 1, "going back must seek")
    }

    @Test("an exact frame that is a keyframe is decoded alone, the same picture as decoded forward", arguments: [12, 24, 0])
    func keyframeAlone(_ k: Int) throws {
        let fixture = try FixtureFactory.shared.fixture(.h264BFrames)
        let alone = try FrameReader(url: fixture.url)
        let frame = try alone.frame(at: .time(fixture.time(ofFrame: k)))
        #expect(Self.index(of: frame) == k)
        #expect(frame.isKeyframe && frame.mode == .exact)
        #expect(alone.statistics.framesDecoded == 1 && alone.statistics.packetsSent == 0, "\(alone.statistics)")
        // Decoded forward from the frame before (positioned, so no shortcut): identical pixels.
        let forward = try FrameReader(url: fixture.url)
        if k > 0 { _ = try forward.frame(at: .time(fixture.time(ofFrame: k - 1))) }
        let again = try forward.frame(at: .time(fixture.time(ofFrame: k)))
        #expect(k == 0 || forward.statistics.packetsSent > 0)
        #expect(again.image == frame.image && again.time == frame.time)
        // Between the keyframe and the next frame the answer is still the keyframe, decoded forward.
        let between = try FrameReader(url: fixture.url).frame(at: .time(fixture.time(ofFrame: k).adding(fixture.tick) ?? .zero))
        #expect(between.image == frame.image)
    }

    @Test("frames before the target that nothing references are skipped")
    func skipsNonReferenceFrames() throws {
        let fixture = try FixtureFactory.shared.fixture(.h264BFrames)
        let reader = try FrameReader(url: fixture.url)
        // The last frame of the third GOP: a fresh seek, then 11 frames to get through.
        let frame = try reader.frame(at: .time(fixture.time(ofFrame: 35)))
        #expect(Self.index(of: frame) == 35)
        #expect(reader.statistics.packetsSkippable > 0)
        #expect(reader.statistics.framesDecoded < reader.statistics.packetsSent)
    }

    @Test("display rotation is applied once, in the right direction", arguments: [90, 180, 270])
    func rotation(_ tag: Int) throws {
        let fixture = try FixtureFactory.shared.fixture(.rotated(tag))
        let reader = try FrameReader(url: fixture.url)
        let expected = Rotation(clockwiseDegrees: Double(-fixture.ffprobeRotation))
        #expect(expected != .none)
        #expect(reader.video.rotation == expected)
        let size = fixture.spec.size
        #expect(reader.video.displaySize == expected.apply(to: size))
        for k in [0, 5, 11] {
            let frame = try reader.frame(at: .time(fixture.time(ofFrame: k)))
            #expect(frame.image.size == expected.apply(to: size))
            let upright = frame.image.rotated(Rotation(rawValue: (360 - expected.degrees) % 360) ?? .none)
            #expect(FrameIndexPattern.readIndex(from: upright) == k)
        }
        // ffmpeg's own auto-rotation agrees on which way is up.
        let oracle = try Subprocess.run("ffmpeg", ["-v", "error", "-i", fixture.url.path, "-frames:v", "1",
                                                   "-f", "rawvideo", "-pix_fmt", "rgb24", "-"])
        let ours = try reader.frame(at: .time(.zero))
        let theirs = try #require(PixelBuffer(width: ours.image.width, height: ours.image.height,
                                              bytes: [UInt8](oracle.stdoutData)))
        let upright = theirs.rotated(Rotation(rawValue: (360 - expected.degrees) % 360) ?? .none)
        #expect(FrameIndexPattern.readIndex(from: upright) == 0)
    }

    @Test("pictures are scaled to fit, keeping the aspect ratio")
    func scaling() throws {
        let fixture = try FixtureFactory.shared.fixture(.h264BFrames)
        let reader = try FrameReader(url: fixture.url)
        let fitted = try reader.frame(at: .time(fixture.time(ofFrame: 7)), size: .fit(PixelSize(width: 96, height: 96)))
        #expect(fitted.image.size == PixelSize(width: 96, height: 54))
        #expect(Self.index(of: fitted) == 7)
        let tall = try reader.frame(at: .time(fixture.time(ofFrame: 7)), size: .height(40))
        #expect(tall.image.size == PixelSize(width: 71, height: 40))
        let same = try reader.frame(at: .time(.zero), size: .fit(PixelSize(width: 4000, height: 4000)))
        #expect(same.image.size == fixture.spec.size, "never enlarged")
    }

    @Test("times outside the video are refused")
    func outOfRange() throws {
        let fixture = try FixtureFactory.shared.fixture(.h264BFrames)
        let reader = try FrameReader(url: fixture.url)
        let past = try #require(reader.duration.adding(MediaTime(value: 1, timescale: 1000)))
        #expect(throws: MediaIOError.timePastEnd(path: fixture.url.path, requested: past, duration: reader.duration)) {
            try reader.frame(at: .time(past))
        }
    }
}
