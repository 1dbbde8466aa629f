import Foundation
import ViewfinderCore

/// The ffmpeg CLI as an independent decoder of what the engines write.
public enum FFmpegOracle {
    /// Every frame of `url`'s first video stream as RGB of `size`, in presentation order, none
    /// duplicated or dropped to fit a frame rate.
    /// With `autorotate` false the pictures stay as coded (the display matrix is not applied).
    public static func frames(of url: URL, size: PixelSize, autorotate: Bool = true) throws -> [PixelBuffer] {
        let result = try Subprocess.run("ffmpeg", ["-v", "error"] + (autorotate ? [] : ["-noautorotate"]) + [
            "-i", url.path, "-map", "0:v:0", "-fps_mode", "passthrough", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"])
        guard result.status == 0 else { throw SubprocessError.failed("ffmpeg", result.stderr) }
        let bytes = [UInt8](result.stdoutData)
        let frameBytes = size.width * size.height * 3
        guard frameBytes > 0, bytes.count % frameBytes == 0 else {
            throw SubprocessError.failed("ffmpeg", "\(bytes.count) bytes is not a whole number of \(size) frames")
        }
        return stride(from: 0, to: bytes.count, by: frameBytes).compactMap {
            PixelBuffer(width: size.width, height: size.height, bytes: Array(bytes[$0..<($0 + frameBytes)]))
        }
    }

    /// The index each frame of `url`'s video draws (nil where it cannot be read), in
    /// presentation order, as the ffmpeg CLI decodes them.
    public static func drawnIndices(of url: URL, size: PixelSize, autorotate: Bool = true) throws -> [Int?] {
        try frames(of: url, size: size, autorotate: autorotate).map(FrameIndexPattern.readIndex)
    }

    /// The MD5 of every packet of the first video stream (or of `stream`, an ffprobe stream
    /// specifier such as "a:0"), in decode order (ffprobe's data hash); with `timing`, each
    /// line also holds the packet's pts, dts and duration in the stream's time base.
    public static func packetHashes(of url: URL, stream: String = "v:0", timing: Bool = false) throws -> [String] {
        let entries = timing ? "packet=pts,dts,duration,data_hash" : "packet=data_hash"
        let result = try Subprocess.run("ffprobe", ["-v", "error", "-select_streams", stream, "-show_data_hash", "md5",
                                                    "-show_entries", entries, "-of", "csv=p=0", url.path])
        guard result.status == 0 else { throw SubprocessError.failed("ffprobe", result.stderr) }
        return result.stdout.split(separator: "\n").map { String($0) }
    }

    /// The md5 of each video packet (decode order) with its VPS, SPS and PPS NAL units removed:
    /// the bytes of an HEVC packet that a smart cut copies (a source may carry its parameter
    /// sets in band, which the cut's sample descriptions hold instead).
    public static func hevcSliceHashes(of url: URL) throws -> [String] {
        let result = try Subprocess.run("ffmpeg", ["-v", "error", "-i", url.path, "-map", "0:v:0", "-c", "copy",
                                                   "-bsf:v", "filter_units=remove_types=32|33|34", "-f", "framemd5", "-"])
        guard result.status == 0 else { throw SubprocessError.failed("ffmpeg", result.stderr) }
        return result.stdout.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap {
            // stream, dts, pts, duration, size, hash — then side data (a new sample description's).
            let fields = $0.split(separator: ",")
            return fields.count > 5 ? fields[5].trimmingCharacters(in: .whitespaces) : nil
        }
    }

    /// What the bitstream itself says, read by FFmpeg's `trace_headers` filter (no decoding, no
    /// container): for each sequence parameter set in the first video stream (the sample
    /// description's and every one in band) its colour description as "primaries/transfer/matrix"
    /// in the VUI's code points ("-" when it has none), and the names of the SEI messages seen.
    public static func bitstreamHeaders(of url: URL) throws -> (sequenceColours: [String], seiMessages: Set<String>) {
        let result = try Subprocess.run("ffmpeg", ["-v", "trace", "-i", url.path, "-map", "0:v:0", "-c", "copy",
                                                   "-bsf:v", "trace_headers", "-f", "null", "-"])
        guard result.status == 0 else { throw SubprocessError.failed("ffmpeg", String(result.stderr.suffix(2000))) }
        var colours: [String] = []
        var current: [String: String]?
        var sei = Set<String>()
        func close() {
            if let c = current { colours.append(c.isEmpty ? "-" : "\(c["p"] ?? "?")/\(c["t"] ?? "?")/\(c["m"] ?? "?")") }
            current = nil
        }
        for line in result.stderr.split(separator: "\n") where line.contains("[trace_headers") {
            let text = line.split(separator: "]", maxSplits: 1).last.map(String.init) ?? ""
            let fields = text.split(separator: " ", omittingEmptySubsequences: true)
            if text.contains("Sequence Parameter Set") { close(); current = [:]; continue }
            if text.contains("Parameter Set") || text.contains("Slice") || text.hasPrefix(" Packet") { close() }
            for name in ["Mastering Display Colour Volume", "Content Light Level Information"] where text.contains(name) {
                sei.insert(name)
            }
            guard current != nil, fields.count >= 4, let value = fields.last else { continue }
            switch fields[1] {
            case "colour_primaries": current?["p"] = String(value)
            case "transfer_characteristics": current?["t"] = String(value)
            case "matrix_coefficients", "matrix_coeffs": current?["m"] = String(value)
            default: break
            }
        }
        close()
        return (colours, sei)
    }

    /// What `ffmpeg -v error -i URL -f null -` prints (empty for a file that decodes cleanly).
    public static func decodeErrors(of url: URL) throws -> String {
        let result = try Subprocess.run("ffmpeg", ["-v", "error", "-i", url.path, "-f", "null", "-"])
        return result.stderr + (result.status == 0 ? "" : "exit \(result.status)")
    }

    /// The audio of `url` decoded to interleaved 16-bit samples at its own rate and channel count.
    public static func audioSamples(of url: URL) throws -> [Int16] {
        let result = try Subprocess.run("ffmpeg", ["-v", "error", "-i", url.path, "-map", "0:a:0", "-f", "s16le", "-acodec", "pcm_s16le", "-"])
        guard result.status == 0 else { throw SubprocessError.failed("ffmpeg", result.stderr) }
        return result.stdoutData.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }

    /// The presentation times (seconds) of the frames of `url`'s video whose top quarter is
    /// white on average (luma above 200), as the ffmpeg CLI decodes and measures them.
    public static func whiteTopFrameTimes(of url: URL) throws -> [Double] {
        let result = try Subprocess.run("ffmpeg", ["-v", "error", "-i", url.path, "-map", "0:v:0", "-vf",
                                                   "crop=iw:ih/4:0:0,signalstats,metadata=print:key=lavfi.signalstats.YAVG:file=-",
                                                   "-f", "null", "-"])
        guard result.status == 0 else { throw SubprocessError.failed("ffmpeg", result.stderr) }
        // Pairs of lines: "frame:0 pts:0 pts_time:0" then "lavfi.signalstats.YAVG=30.2".
        var times: [Double] = []
        var time: Double?
        for line in result.stdout.split(separator: "\n") {
            if let field = line.split(separator: " ").first(where: { $0.hasPrefix("pts_time:") }) {
                time = Double(field.dropFirst("pts_time:".count))
            } else if line.hasPrefix("lavfi.signalstats.YAVG="), let value = Double(line.dropFirst("lavfi.signalstats.YAVG=".count)),
                      value > 200, let time {
                times.append(time)
            }
        }
        return times
    }

    /// The presentation time (seconds) and mean luma (0–255) of every frame of `url`'s video, as
    /// the ffmpeg CLI decodes and measures them, in order; on the same timeline as
    /// `monoSamplesOnTimeline`.
    public static func frameLuma(of url: URL) throws -> [(time: Double, luma: Double)] {
        let result = try Subprocess.run("ffmpeg", ["-v", "error", "-i", url.path, "-map", "0:v:0", "-vf",
                                                   "signalstats,metadata=print:key=lavfi.signalstats.YAVG:file=-", "-f", "null", "-"])
        guard result.status == 0 else { throw SubprocessError.failed("ffmpeg", result.stderr) }
        var frames: [(time: Double, luma: Double)] = []
        var time: Double?
        for line in result.stdout.split(separator: "\n") {
            if let field = line.split(separator: " ").first(where: { $0.hasPrefix("pts_time:") }) {
                time = Double(field.dropFirst("pts_time:".count))
            } else if line.hasPrefix("lavfi.signalstats.YAVG="), let value = Double(line.dropFirst("lavfi.signalstats.YAVG=".count)), let time {
                frames.append((time, value))
            }
        }
        return frames
    }

    /// The audio of `url` as mono 16-bit samples at `rate`, placed on the file's timeline: sample
    /// i sounds at i / rate seconds (silence is put before a stream that starts late, so its
    /// start is kept), the timeline `frameLuma` reports frames on.
    public static func monoSamplesOnTimeline(of url: URL, rate: Int = 48000) throws -> [Int16] {
        let result = try Subprocess.run("ffmpeg", ["-v", "error", "-i", url.path, "-map", "0:a:0", "-af", "aresample=async=1:first_pts=0",
                                                   "-ac", "1", "-ar", "\(rate)", "-f", "s16le", "-acodec", "pcm_s16le", "-"])
        guard result.status == 0 else { throw SubprocessError.failed("ffmpeg", result.stderr) }
        return result.stdoutData.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }

    /// The entries ffprobe shows for every frame of one stream (`select` as in "v:0", "a:0").
    public static func frameEntries(of url: URL, select: String, entries: String) throws -> [[String: Any]] {
        let result = try Subprocess.run("ffprobe", ["-v", "error", "-select_streams", select, "-show_entries", "frame=\(entries)",
                                                    "-of", "json", url.path])
        guard result.status == 0, let json = try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any] else {
            throw SubprocessError.failed("ffprobe", result.stderr)
        }
        return json["frames"] as? [[String: Any]] ?? []
    }

    /// The bytes of every packet of the first video stream of `url`, in decode order, as the
    /// container stores them (length-prefixed NAL units for H.264 and HEVC in MP4).
    public static func videoSamples(of url: URL) throws -> [[UInt8]] {
        let sizes = try Subprocess.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=size",
                                                   "-of", "csv=p=0", url.path])
        let data = try Subprocess.run("ffmpeg", ["-v", "error", "-i", url.path, "-map", "0:v:0", "-c", "copy", "-f", "data", "-"])
        guard sizes.status == 0, data.status == 0 else { throw SubprocessError.failed("ffmpeg", sizes.stderr + data.stderr) }
        let bytes = [UInt8](data.stdoutData)
        var samples: [[UInt8]] = []
        var offset = 0
        // A packet with side data (a new sample description) gets more columns: the size is the first.
        for line in sizes.stdout.split(separator: "\n") {
            guard let size = line.split(separator: ",").first.flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }) else { continue }
            guard offset + size <= bytes.count else { throw SubprocessError.failed("ffmpeg", "the packets end early") }
            samples.append(Array(bytes[offset ..< offset + size]))
            offset += size
        }
        return samples
    }

    /// The decode positions of the video packets of `url` that hand the decoder a new sample
    /// description (FFmpeg's demuxer marks them with "New Extradata" where a track's samples
    /// switch between descriptions).
    public static func newDescriptionPositions(of url: URL) throws -> [Int] {
        let result = try Subprocess.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries",
                                                    "packet=pts:packet_side_data=side_data_type", "-of", "json", url.path])
        guard result.status == 0, let json = try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any] else {
            throw SubprocessError.failed("ffprobe", result.stderr)
        }
        let packets = json["packets"] as? [[String: Any]] ?? []
        return packets.indices.filter { i in
            let sides = packets[i]["side_data_list"] as? [[String: Any]] ?? []
            return sides.contains { $0["side_data_type"] as? String == "New Extradata" }
        }
    }

    /// The packets of stream `select` of `url` in file (decode) order: their decode and
    /// presentation times in stream ticks (nil where the container gives none).
    public static func packetTimes(of url: URL, select: String) throws -> [(dts: Int64?, pts: Int64?)] {
        let result = try Subprocess.run("ffprobe", ["-v", "error", "-select_streams", select, "-show_entries", "packet=pts,dts",
                                                    "-of", "json", url.path])
        guard result.status == 0, let json = try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any] else {
            throw SubprocessError.failed("ffprobe", result.stderr)
        }
        let packets = json["packets"] as? [[String: Any]] ?? []
        return packets.map { (($0["dts"] as? Int).map(Int64.init), ($0["pts"] as? Int).map(Int64.init)) }
    }
}
