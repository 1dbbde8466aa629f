internal import CFFmpeg
import Foundation
import ViewfinderCore

/// An H.264 MP4 being recorded from a camera, one frame at a time as the camera reads them, so
/// that one reader can feed both a preview and the recording.
///
/// The file is written beside its destination and moved into place by `finish()`; a recording
/// dropped unfinished leaves nothing. Frames are numbered at the camera's constant rate.
public final class CameraRecording {
    /// Where the finished file goes.
    public let url: URL
    /// It takes no frame shown this long after its first one.
    public let maxDuration: MediaTime?
    /// Frames written so far.
    public private(set) var frameCount = 0
    /// True once a frame arrived at or past `maxDuration`: the recording is complete.
    public private(set) var isFull = false

    private let output: MP4Output
    private let encoder: VideoEncoder
    private let stream: UnsafeMutablePointer<AVStream>
    private let timeBase: AVRational
    private let frameRate: Int
    private let size: PixelSize
    private var firstTime: MediaTime?

    /// Creates the file (beside `url` until `finish()`) for frames of a camera's `size` arriving
    /// at `frameRate`, encoded at `quality`; fails at once when it cannot be written.
    public init(to url: URL, size: PixelSize, frameRate: Int, quality: CaptureQuality, maxDuration: MediaTime?) throws(MediaIOError) {
        self.url = url
        self.maxDuration = maxDuration
        self.frameRate = max(1, frameRate)
        output = try MP4Output(url: url, fastStart: true)
        self.size = ExportPreset.encodedSize(for: size, box: quality.preset.box)
        timeBase = AVRational(num: 1, den: Int32(self.frameRate))
        var settings = VideoEncoder.Quality(crf: quality.preset.encoding.crf, preset: ExportPreset.realTimeSpeed, keyframeInterval: Int32(self.frameRate * 2), bFrames: 2)
        settings.fixedKeyframes = true
        encoder = try VideoEncoder(size: self.size, timeBase: timeBase, frameRate: AVRational(num: Int32(self.frameRate), den: 1),
                                   quality: settings, globalHeader: output.needsGlobalHeader, path: url.path)
        encoder.describeColour(range: AVCOL_RANGE_MPEG, space: AVCOL_SPC_BT709, primaries: AVCOL_PRI_BT709, transfer: AVCOL_TRC_BT709)
        stream = try output.addStream(for: encoder.context)
        try output.start()
    }

    /// The length recorded so far.
    public var duration: MediaTime { MediaTime(value: Int64(frameCount), timescale: Int64(frameRate)) }

    /// Encodes a frame the camera read at `time`; past `maxDuration` it only marks the recording
    /// full.
    func append(_ frame: OwnedFrame, at time: MediaTime) throws(MediaIOError) {
        guard !isFull else { return }
        let first = firstTime ?? time
        firstTime = first
        if let maxDuration, (time.subtracting(first) ?? .zero) >= maxDuration {
            isFull = true
            return
        }
        try write(try encoder.encode(frame, pts: Int64(frameCount)))
        frameCount += 1
    }

    /// Flushes the encoder, writes the index and moves the file into place: it is playable.
    public func finish() throws(MediaIOError) -> ExportResult {
        try write(try encoder.flush())
        try output.finish()
        return ExportResult(method: encoder.name, note: nil, start: .zero, duration: duration, frameCount: frameCount,
                            size: size, audio: nil)
    }

    private func write(_ packets: [OwnedPacket]) throws(MediaIOError) {
        for packet in packets {
            av_packet_rescale_ts(packet.pointer, timeBase, stream.pointee.time_base)
            packet.pointer.pointee.stream_index = stream.pointee.index
            try output.write(packet)
        }
    }
}
