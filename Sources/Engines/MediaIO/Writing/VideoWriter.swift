internal import CFFmpeg
import Foundation
import ViewfinderCore

/// Encodes pictures into an MP4 file (H.264 when this FFmpeg has libx264, else MPEG-4 Part 2),
/// index at the front. The file appears at its destination only when `finish()` succeeds.
public final class VideoWriter {
    /// The encoder in use ("libx264" or "mpeg4").
    public var encoderName: String { encoder.name }
    private let output: MP4Output
    private let encoder: VideoEncoder
    private let stream: UnsafeMutablePointer<AVStream>
    private let size: PixelSize
    private var nextPTS: Int64 = 0

    /// Starts a file of `size` pictures at `framesPerSecond`, a keyframe exactly every
    /// `keyframeInterval` frames and up to `bFrames` B-frames between references.
    public init(url: URL, size: PixelSize, framesPerSecond: Int32, keyframeInterval: Int32 = 60,
                bFrames: Int32 = 2) throws(MediaIOError) {
        guard size.width >= 2, size.height >= 2, size.width % 2 == 0, size.height % 2 == 0, framesPerSecond > 0 else {
            throw .encodeFailed(path: url.path, detail: tr("the size must be even and at least 2×2, the rate positive"))
        }
        self.size = size
        output = try MP4Output(url: url, fastStart: true)
        let quality = VideoEncoder.Quality(crf: ExportPreset.highest.encoding.crf, preset: ExportPreset.realTimeSpeed, keyframeInterval: keyframeInterval,
                                           bFrames: bFrames, fixedKeyframes: true)
        encoder = try VideoEncoder(size: size, timeBase: AVRational(num: 1, den: framesPerSecond),
                                   frameRate: AVRational(num: framesPerSecond, den: 1), quality: quality,
                                   globalHeader: output.needsGlobalHeader, path: url.path, colour: .bt709)
        stream = try output.addStream(for: encoder.context)
        try output.start()
    }

    /// Encodes the next picture; it must have the writer's size.
    public func append(_ picture: PixelBuffer) throws(MediaIOError) {
        guard picture.size == size else {
            throw .encodeFailed(path: output.destination.path, detail: tr("picture is {size}, expected {expected}", ["size": picture.size, "expected": size]))
        }
        try write(try encoder.encode(picture, pts: nextPTS))
        nextPTS += 1
    }

    /// Encodes the next picture, already BT.709 video-range 4:2:0 (`PlanarPicture`): its planes
    /// go to the encoder as they are, no scaler involved. It must have the writer's size.
    public func append(_ picture: PlanarPicture) throws(MediaIOError) {
        guard picture.width == size.width, picture.height == size.height else {
            throw .encodeFailed(path: output.destination.path, detail: tr("picture is {width}×{height}, expected {expected}", ["width": picture.width, "height": picture.height, "expected": size]))
        }
        guard encoder.context.pointee.pix_fmt == AV_PIX_FMT_YUV420P else {
            // An encoder that wants another layout (MPEG-4 Part 2 takes the same; others may
            // not) gets RGB through the scaler instead.
            throw .encodeFailed(path: output.destination.path, detail: tr("the encoder does not take 4:2:0 pictures"))
        }
        let frame = try makeFrame(AV_PIX_FMT_YUV420P)
        let f = frame.pointer
        f.pointee.color_range = AVCOL_RANGE_MPEG
        f.pointee.colorspace = AVCOL_SPC_BT709
        guard let y = f.pointee.data.0, let u = f.pointee.data.1, let v = f.pointee.data.2 else {
            throw .encodeFailed(path: output.destination.path, detail: tr("out of memory"))
        }
        let strides = (Int(f.pointee.linesize.0), Int(f.pointee.linesize.1), Int(f.pointee.linesize.2))
        func copy(_ plane: [UInt8], width: Int, rows: Int, to target: UnsafeMutablePointer<UInt8>, stride: Int) {
            plane.withUnsafeBufferPointer { source in
                guard let base = source.baseAddress else { return }
                for row in 0..<rows { (target + row * stride).update(from: base + row * width, count: width) }
            }
        }
        copy(picture.luma, width: picture.width, rows: picture.height, to: y, stride: strides.0)
        copy(picture.cb, width: picture.chromaWidth, rows: picture.chromaHeight, to: u, stride: strides.1)
        copy(picture.cr, width: picture.chromaWidth, rows: picture.chromaHeight, to: v, stride: strides.2)
        try write(try encoder.encode(frame, pts: nextPTS))
        nextPTS += 1
    }

    /// A frame of the writer's size in `format`, its buffers allocated.
    private func makeFrame(_ format: AVPixelFormat) throws(MediaIOError) -> OwnedFrame {
        guard let frame = OwnedFrame() else { throw .encodeFailed(path: output.destination.path, detail: tr("out of memory")) }
        let f = frame.pointer
        f.pointee.format = format.rawValue
        f.pointee.width = Int32(size.width)
        f.pointee.height = Int32(size.height)
        guard av_frame_get_buffer(f, 0) >= 0 else { throw .encodeFailed(path: output.destination.path, detail: tr("out of memory")) }
        return frame
    }

    /// Whether `append(_: PlanarPicture)` takes pictures (the encoder codes 4:2:0 as they are).
    public var takesPlanarPictures: Bool { encoder.context.pointee.pix_fmt == AV_PIX_FMT_YUV420P }

    /// Flushes the encoder, writes the index and moves the file into place.
    public func finish() throws(MediaIOError) {
        try write(try encoder.flush())
        try output.finish()
    }

    private func write(_ packets: [OwnedPacket]) throws(MediaIOError) {
        for packet in packets {
            av_packet_rescale_ts(packet.pointer, encoder.context.pointee.time_base, stream.pointee.time_base)
            packet.pointer.pointee.stream_index = stream.pointee.index
            try output.write(packet)
        }
    }
}
