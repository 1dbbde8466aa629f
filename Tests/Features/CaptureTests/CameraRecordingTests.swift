@testable import Capture
import Foundation
@testable import MediaIO
import Testing
import ViewfinderCore
import ViewfinderTestSupport

@Suite("Camera recordings")
struct CameraRecordingTests {
    /// The virtual camera at 320×240 and 30 fps, and a recording of it without a limit or sound.
    static func virtualRecording(_ folder: String) throws -> (Camera, CameraRecording, URL) {
        let url = TestPaths.scratchFolder(folder).appendingPathComponent("recording.mp4")
        let camera = try Camera(device: .virtual, size: PixelSize(width: 320, height: 240), frameRate: 30)
        return (camera, try CameraRecording(to: url, size: camera.size, frameRate: camera.frameRate, quality: .low, maxDuration: nil), url)
    }

    /// A loaded machine runs the camera's thread late while the microphone's thread goes on
    /// hearing: the sound heard after the last picture must not be written (CI once recorded a
    /// fourth click past a 3.5 s limit whose pictures showed three flashes).
    @Test("a camera read late records no sound past its last picture")
    func soundEndsWithThePictures() throws {
        let url = TestPaths.scratchFolder("camera-late").appendingPathComponent("late.mp4")
        let camera = try Camera(device: .virtual, size: PixelSize(width: 320, height: 240), frameRate: 30)
        let recording = try CameraRecording(to: url, size: camera.size, frameRate: camera.frameRate, quality: .low,
                                            maxDuration: MediaTime(value: 1, timescale: 2), microphone: .virtual)
        // The microphone hears 1.5 s before the first picture is read; the pictures then come at once.
        if !recording.waitUntilHeard(1.5, before: Date().addingTimeInterval(60)) {
            Issue.record("the microphone did not hear 1.5 s of sound within 60 s")
        }
        while !recording.isFull {
            let frame = try camera.readFrame(picture: false, recordingInto: recording)
            #expect(frame.recordingError == nil)
        }
        let result = try recording.finish()
        #expect(result.frameCount == 15)
        let samples = try FFmpegOracle.audioSamples(of: url)
        // The pictures last 0.5 s; the last AAC frame may pad up to 1024 samples of silence.
        #expect(samples.count <= 24_000 + 1024, "\(samples.count) samples for 0.5 s of pictures")
        #expect(samples.count >= 12_000, "the sound heard while the pictures were taken is there: \(samples.count) samples")
        #expect(try FFmpegOracle.decodeErrors(of: url).isEmpty)
    }

    /// A PipeWire camera hands over its newest picture, so a camera thread that falls behind
    /// misses frames: numbering frames by count pulled every later picture earlier than its
    /// sound (a 6 s recording drifted by 0.23 s).
    @Test("a frame the camera thread missed leaves a gap in time, not a shift: later frames keep their times")
    func missedFrames() throws {
        let (camera, recording, url) = try Self.virtualRecording("camera-missed")
        for index in 0..<20 {
            let (frame, time, takenAt) = try camera.nextFrame()
            if (5..<10).contains(index) { continue }
            try recording.append(CapturedFrame(frame: frame), at: time, takenAt: takenAt)
        }
        let result = try recording.finish()
        #expect(result.frameCount == 15)
        #expect(result.duration == MediaTime(value: 20, timescale: 30))
        let times = try FFmpegOracle.frameEntries(of: url, select: "v:0", entries: "pts_time")
            .compactMap { ($0["pts_time"] as? String).flatMap(Double.init) }
        #expect(times.count == 15)
        #expect(times.count == 15 && abs(times[4] - 4.0 / 30) < 0.001 && abs(times[5] - 10.0 / 30) < 0.001, "\(times)")
    }

    /// A picture without a stamp of its own is stamped on arrival; on a busy machine one came
    /// 30 ms late, rounded into the next one's slot, and each later picture was pushed one slot
    /// on (a whole recording a frame late against its sound, in a PipeWire sync test).
    @Test("a frame stamped late into the next one's slot goes back into the free slot before it; the frames after keep theirs")
    func lateStamp() throws {
        let (camera, recording, url) = try Self.virtualRecording("camera-late-stamp")
        for index in 0..<30 {
            let (frame, _, takenAt) = try camera.nextFrame()
            // Frame 15 stamped 0.8 of a frame late: it rounds to slot 16.
            let ticks = Int64(index) * 10 + (index == 15 ? 8 : 0)
            try recording.append(CapturedFrame(frame: frame), at: MediaTime(value: ticks, timescale: 300), takenAt: takenAt)
        }
        let result = try recording.finish()
        #expect(result.frameCount == 30)
        #expect(result.duration == MediaTime(value: 30, timescale: 30))
        let times = try FFmpegOracle.frameEntries(of: url, select: "v:0", entries: "pts_time")
            .compactMap { ($0["pts_time"] as? String).flatMap(Double.init) }
        #expect(times.count == 30 && times.enumerated().allSatisfy { abs($0.element - Double($0.offset) / 30) < 0.001 }, "\(times)")
    }
}
