import Foundation
import ViewfinderCore

/// GStreamer's gst-launch-1.0 as a second, independent decoder of what the engines write:
/// openh264 (Cisco's H.264 decoder) follows the standard's buffer rules (Annex C) where
/// FFmpeg is lenient, so it sees pictures a conformant player would drop; libde265 decodes
/// HEVC, and GStreamer's own MP4 demuxer (qtdemux) reads the sample descriptions.
public enum GStreamerOracle {
    /// A decoder GStreamer can put behind its MP4 demuxer: one that is not FFmpeg's.
    public enum Decoder: String, Sendable {
        /// Cisco's openh264 (H.264), behind h264parse.
        case openH264 = "openh264dec"
        /// libde265 (HEVC), behind h265parse.
        case libde265 = "libde265dec"

        var parser: String { self == .openH264 ? "h264parse" : "h265parse" }
    }

    /// Every frame of the MP4 or MOV `url`'s video as `decoder` outputs it, as RGB of `size`,
    /// in output order.
    public static func frames(of url: URL, size: PixelSize, decoder: Decoder) throws -> [PixelBuffer] {
        let result = try Subprocess.run("gst-launch-1.0", [
            "-q", "filesrc", "location=\(url.path)", "!", "qtdemux", "!", decoder.parser, "!", decoder.rawValue, "!",
            "videoconvert", "!", "video/x-raw,format=RGB,width=\(size.width),height=\(size.height)", "!", "fdsink", "fd=1"])
        guard result.status == 0 else { throw SubprocessError.failed("gst-launch-1.0 (\(decoder.rawValue))", result.stderr) }
        let bytes = [UInt8](result.stdoutData)
        // GStreamer's RGB rows are padded to 4 bytes.
        let row = size.width * 3
        let rowStride = (row + 3) / 4 * 4
        let frameBytes = rowStride * size.height
        guard frameBytes > 0, bytes.count % frameBytes == 0 else {
            throw SubprocessError.failed("gst-launch-1.0", "\(bytes.count) bytes is not a whole number of \(size) frames")
        }
        return stride(from: 0, to: bytes.count, by: frameBytes).compactMap { start in
            var picture: [UInt8] = []
            picture.reserveCapacity(row * size.height)
            for y in 0..<size.height { picture += bytes[(start + y * rowStride)..<(start + y * rowStride + row)] }
            return PixelBuffer(width: size.width, height: size.height, bytes: picture)
        }
    }

    /// The first audio track of the MP4 `url` as libfaad (GStreamer's `faad`) decodes AAC
    /// behind GStreamer's own demuxer, which plays the track's edit list: 16-bit samples,
    /// interleaved, in `channels` channels (faad makes stereo of mono unless asked). faad
    /// leaves out the first 1,024 samples a stream decodes to (its decoder delay) on top of
    /// what the edit list skips, so compare its output with faad's decoding of another file,
    /// not with FFmpeg's.
    public static func aacSamples(of url: URL, channels: Int) throws -> [Int16] {
        let result = try Subprocess.run("gst-launch-1.0", [
            "-q", "filesrc", "location=\(url.path)", "!", "qtdemux", "!", "aacparse", "!", "faad", "!",
            "audioconvert", "!", "audio/x-raw,format=S16LE,channels=\(channels)", "!", "fdsink", "fd=1"])
        guard result.status == 0 else { throw SubprocessError.failed("gst-launch-1.0 (faad)", result.stderr) }
        return result.stdoutData.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }

    /// Every frame of `url`'s H.264 video as openh264 outputs it.
    public static func openH264Frames(of url: URL, size: PixelSize) throws -> [PixelBuffer] {
        try frames(of: url, size: size, decoder: .openH264)
    }

    /// The index each frame of `url`'s video draws (nil where it cannot be read), as `decoder`
    /// outputs them.
    public static func drawnIndices(of url: URL, size: PixelSize, decoder: Decoder) throws -> [Int?] {
        try frames(of: url, size: size, decoder: decoder).map(FrameIndexPattern.readIndex)
    }

    /// The index each frame of `url`'s HEVC video draws, decoded by libde265's own `dec265`
    /// from the byte stream GStreamer's demuxer and parser make of the file — no FFmpeg on the
    /// way, and every bit depth (GStreamer's libde265 element gives 8-bit pictures only).
    public static func dec265DrawnIndices(of url: URL, size: PixelSize, bitDepth: Int) throws -> [Int?] {
        try decodeByteStream(of: url, parser: "h265parse", caps: "video/x-h265") { stream, pictures in
            let decode = try Subprocess.run("libde265-dec265", ["-q", "-o", pictures.path, stream.path])
            guard decode.status == 0 else { throw SubprocessError.failed("libde265-dec265", decode.stderr + decode.stdout) }
            return try drawnIndices(planar: [UInt8](Data(contentsOf: pictures)), size: size, bitDepth: bitDepth,
                                    decoder: "libde265-dec265")
        }
    }

    /// Runs `decode` on the Annex B byte stream (one access unit a buffer) that GStreamer's
    /// demuxer and `parser` make of `url`'s video, with a path for the decoder's pictures; both
    /// files live in a folder removed afterwards.
    static func decodeByteStream<T>(of url: URL, parser: String, caps: String,
                                    _ decode: (_ stream: URL, _ pictures: URL) throws -> T) throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bytestream-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let stream = folder.appendingPathComponent("video.bitstream"), pictures = folder.appendingPathComponent("video.yuv")
        let parse = try Subprocess.run("gst-launch-1.0", [
            "-q", "filesrc", "location=\(url.path)", "!", "qtdemux", "!", parser, "!",
            "\(caps),stream-format=byte-stream,alignment=au", "!", "filesink", "location=\(stream.path)"])
        guard parse.status == 0 else { throw SubprocessError.failed("gst-launch-1.0 (\(parser))", parse.stderr) }
        return try decode(stream, pictures)
    }

    /// The index drawn in each picture of planar 4:2:0 `bytes` of `size` (one byte a sample to
    /// 8 bits, two little-endian above), read from luma as grey.
    static func drawnIndices(planar bytes: [UInt8], size: PixelSize, bitDepth: Int, decoder: String) throws -> [Int?] {
        let width = bitDepth > 8 ? 2 : 1
        let lumaBytes = size.width * size.height * width
        let frameBytes = lumaBytes + 2 * ((size.width + 1) / 2) * ((size.height + 1) / 2) * width
        guard frameBytes > 0, bytes.count % frameBytes == 0 else {
            throw SubprocessError.failed(decoder, "\(bytes.count) bytes is not a whole number of \(size) pictures")
        }
        return stride(from: 0, to: bytes.count, by: frameBytes).map { start -> Int? in
            var grey: [UInt8] = []
            grey.reserveCapacity(size.width * size.height * 3)
            for i in 0..<(size.width * size.height) {
                let at = start + i * width
                let value = width == 2 ? UInt8(min(255, (Int(bytes[at]) | Int(bytes[at + 1]) << 8) >> (bitDepth - 8)))
                                       : bytes[at]
                grey += [value, value, value]
            }
            return PixelBuffer(width: size.width, height: size.height, bytes: grey).flatMap(FrameIndexPattern.readIndex)
        }
    }

    /// The index each frame of `url`'s H.264 video draws (nil where it cannot be read), as
    /// openh264 outputs them.
    public static func openH264DrawnIndices(of url: URL, size: PixelSize) throws -> [Int?] {
        try openH264Frames(of: url, size: size).map(FrameIndexPattern.readIndex)
    }
}
