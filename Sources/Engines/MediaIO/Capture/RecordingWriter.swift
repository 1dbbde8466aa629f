internal import CFFmpeg
import Foundation
import ViewfinderCore

/// A picture a camera read, as it is handed to a recording (`CameraFrameSink`).
public struct CapturedFrame {
    let frame: OwnedFrame
}

/// What a camera's reader hands every frame to while a recording runs (Capture's
/// `CameraRecording`, which decides where each frame goes).
public protocol CameraFrameSink: AnyObject {
    /// A frame the camera read at `time` since it started, taken at `takenAt` on the capture
    /// clock (the clock sound is stamped with).
    func append(_ frame: CapturedFrame, at time: MediaTime, takenAt: TimeInterval) throws(MediaIOError)
}

/// How a recording's pictures are encoded: the caller decides; the encoder always runs at a
/// speed that keeps up with a camera.
public struct RecordingEncoding: Sendable, Equatable {
    /// The size box and quality (through its export preset).
    public var quality: CaptureQuality
    /// Frames from one keyframe to the next.
    public var keyframeInterval: Int
    /// B-frames between references.
    public var bFrames: Int

    public init(quality: CaptureQuality, keyframeInterval: Int, bFrames: Int) {
        self.quality = quality
        self.keyframeInterval = keyframeInterval
        self.bFrames = bFrames
    }
}

/// An H.264 MP4 written picture by picture at a constant frame rate, with AAC sound beside it
/// when asked: the mechanism under a camera recording. Where each picture and each block of
/// sound goes is the caller's (Capture's `CameraRecording`).
///
/// The file is written beside its destination and moved into place by `finish`; abandoned, or
/// dropped unfinished, it leaves nothing.
public final class RecordingWriter {
    /// Where the finished file goes.
    public let url: URL
    /// The pictures' size in the file (the camera's, fitted into the quality's box).
    public let size: PixelSize
    /// Pictures per second: a picture's slot n is shown at n / frameRate seconds.
    public let frameRate: Int

    private let output: MP4Output
    private let encoder: VideoEncoder
    private let stream: UnsafeMutablePointer<AVStream>
    private let timeBase: AVRational
    private var sound: (aac: AACEncoder, stream: UnsafeMutablePointer<AVStream>)?
    private var started = false

    /// Whether this FFmpeg can encode recordings at all (it has a video encoder).
    public static var isAvailable: Bool { VideoEncoder.codec != nil }

    /// Creates the file (beside `url` until `finish`) for a camera's pictures of `size` at
    /// `frameRate`; sound is added by `addSound(describedBy:)`, then `start()` begins the file.
    public init(to url: URL, size: PixelSize, frameRate: Int, encoding: RecordingEncoding) throws(MediaIOError) {
        self.url = url
        self.frameRate = max(1, frameRate)
        output = try MP4Output(url: url, fastStart: true)
        self.size = ExportPreset.encodedSize(for: size, box: encoding.quality.preset.box)
        timeBase = AVRational(num: 1, den: Int32(self.frameRate))
        var settings = VideoEncoder.Quality(crf: encoding.quality.preset.encoding.crf, preset: ExportPreset.realTimeSpeed,
                                            keyframeInterval: Int32(max(1, encoding.keyframeInterval)),
                                            bFrames: Int32(max(0, encoding.bFrames)))
        settings.fixedKeyframes = true
        encoder = try VideoEncoder(size: self.size, timeBase: timeBase, frameRate: AVRational(num: Int32(self.frameRate), den: 1),
                                   quality: settings, globalHeader: output.needsGlobalHeader, path: url.path, colour: .bt709)
        stream = try output.addStream(for: encoder.context)
    }

    /// Adds an AAC track for sound like `first` (its layout, format and rate); before `start()`.
    public func addSound(describedBy first: HeardSound) throws(MediaIOError) {
        guard !started, sound == nil else { return }
        let f = first.frame.pointer.pointee
        let aac = try AACEncoder(inputLayout: f.ch_layout, format: AVSampleFormat(rawValue: f.format), rate: f.sample_rate,
                                 globalHeader: output.needsGlobalHeader, path: url.path)
        sound = (aac, try output.addStream(for: aac.context))
    }

    /// Begins the file: pictures and sound may be written from now on.
    public func start() throws(MediaIOError) {
        guard !started else { return }
        try output.start()
        started = true
    }

    /// Encodes `frame` to be shown in `slot` (slot / frameRate seconds from the start).
    public func write(_ frame: CapturedFrame, slot: Int64) throws(MediaIOError) {
        try write(try encoder.encode(frame.frame, pts: slot), from: timeBase, to: stream)
    }

    /// Whether the sound's first sample has its place yet.
    public var isSoundPlaced: Bool { sound?.aac.isPlaced ?? false }

    /// Places the first sample of sound `time` after the first picture's slot.
    public func placeSound(firstSampleAt time: MediaTime) {
        sound?.aac.place(firstSampleAt: time)
    }

    /// Encodes a block of sound (after `placeSound`); nothing without a sound track.
    public func write(_ heard: HeardSound) throws(MediaIOError) {
        guard let sound, heard.sampleCount > 0 else { return }
        try write(try sound.aac.encode(heard.frame), from: sound.aac.context.pointee.time_base, to: sound.stream)
    }

    /// Flushes the encoders, writes the index and moves the file into place: it is playable.
    /// The result says `frameCount` pictures lasting `duration`, with `note`.
    public func finish(frameCount: Int, duration: MediaTime, note: String?) throws(MediaIOError) -> ExportResult {
        try write(try encoder.flush(), from: timeBase, to: stream)
        if let sound {
            try write(try sound.aac.encode(nil), from: sound.aac.context.pointee.time_base, to: sound.stream)
        }
        try output.finish()
        return ExportResult(method: encoder.name, note: note, start: .zero, duration: duration, frameCount: frameCount,
                            size: size, audio: sound.map { _ in "aac" })
    }

    /// Throws away what was written: nothing is left.
    public func abandon() {
        output.abandon()
    }

    private func write(_ packets: [OwnedPacket], from base: AVRational, to target: UnsafeMutablePointer<AVStream>) throws(MediaIOError) {
        for packet in packets {
            av_packet_rescale_ts(packet.pointer, base, target.pointee.time_base)
            packet.pointer.pointee.stream_index = target.pointee.index
            try output.write(packet)
        }
    }
}
