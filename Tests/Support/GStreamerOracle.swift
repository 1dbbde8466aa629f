import Foundation
import ViewfinderCore

/// GStreamer's gst-launch-1.0 as a second, independent decoder of what the engines write:
/// openh264 (Cisco's H.264 decoder) follows the standard's buffer rules (Annex C) where
/// FFmpeg is lenient, so it sees pictures a conformant player would drop.
public enum GStreamerOracle {
    /// Every frame of the MP4 or MOV `url`'s H.264 video as openh264 outputs it, as RGB of
    /// `size`, in output order.
    public static func openH264Frames(of url: URL, size: PixelSize) throws -> [PixelBuffer] {
        let result = try Subprocess.run("gst-launch-1.0", [
            "-q", "filesrc", "location=\(url.path)", "!", "qtdemux", "!", "h264parse", "!", "openh264dec", "!",
            "videoconvert", "!", "video/x-raw,format=RGB,width=\(size.width),height=\(size.height)", "!", "fdsink", "fd=1"])
        guard result.status == 0 else { throw SubprocessError.failed("gst-launch-1.0 (openh264dec)", result.stderr) }
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

    /// The index each frame of `url`'s H.264 video draws (nil where it cannot be read), as
    /// openh264 outputs them.
    public static func openH264DrawnIndices(of url: URL, size: PixelSize) throws -> [Int?] {
        try openH264Frames(of: url, size: size).map(FrameIndexPattern.readIndex)
    }
}
