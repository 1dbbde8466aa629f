internal import CFFmpeg
import Foundation
import ViewfinderCore

/// An open media file: owns the `AVFormatContext` and knows its chosen video stream.
final class MediaContainer {
    let path: String
    let context: UnsafeMutablePointer<AVFormatContext>
    let fileSize: Int64

    /// Opens and probes `url`, turning every failure into a `MediaIOError`. With `analyze` false
    /// only the header is read (no frames are decoded to fill in stream details): enough for a
    /// second reader of a file that was already probed.
    init(url: URL, analyze: Bool = true) throws(MediaIOError) {
        _ = FFmpegRuntime.configure
        let path = url.path
        self.path = path
        fileSize = try MediaContainer.checkReadableFile(path)

        var ctx: UnsafeMutablePointer<AVFormatContext>? = avformat_alloc_context()
        guard ctx != nil else { throw .unreadable(path: path, reason: tr("out of memory")) }
        let openResult = avformat_open_input(&ctx, path, nil, nil)
        guard openResult >= 0, let opened = ctx else {
            // avformat_open_input frees the context on failure.
            if openResult == vf_averror_enomem() {
                throw .corrupt(path: path, detail: tr("the header asks for more memory than allowed"))
            }
            throw .notMedia(path: path)
        }
        context = opened
        if analyze { try analyzeStreams() }
    }

    /// Fills in stream details by reading (and, for some codecs, decoding) the first packets.
    func analyzeStreams() throws(MediaIOError) {
        let infoResult = avformat_find_stream_info(context, nil)
        if infoResult < 0 && context.pointee.nb_streams == 0 {
            throw .corrupt(path: path, detail: ffmpegMessage(infoResult))
        }
    }

    deinit {
        var ctx: UnsafeMutablePointer<AVFormatContext>? = context
        avformat_close_input(&ctx)
    }

    /// Size in bytes of a regular, readable file; otherwise the reason it cannot be used.
    static func checkReadableFile(_ path: String) throws(MediaIOError) -> Int64 {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .fileNotFound(path: path)
        }
        if isDirectory.boolValue { throw .isDirectory(path: path) }
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw .unreadable(path: path, reason: tr("permission denied"))
        }
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        var info = stat()
        if stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG { throw .notRegularFile(path: path) }
        let size = (attributes?[.size] as? NSNumber)?.int64Value ?? 0
        if size == 0 { throw .emptyFile(path: path) }
        return size
    }

    var streams: [UnsafeMutablePointer<AVStream>] {
        (0..<Int(context.pointee.nb_streams)).compactMap { context.pointee.streams[$0] }
    }

    /// The codec of a single still picture when FFmpeg opened the file as an image
    /// (its image2 and *_pipe demuxers), nil for real video containers.
    var stillImageCodec: String? {
        guard let format = context.pointee.iformat, let raw = format.pointee.name else { return nil }
        let name = String(cString: raw)
        guard name == "image2" || name.hasSuffix("_pipe") else { return nil }
        return videoStream.map { codecName($0.parameters.codec_id) } ?? name
    }

    /// The main video stream: FFmpeg's best pick, never a cover-art picture.
    var videoStream: UnsafeMutablePointer<AVStream>? {
        let candidates = streams.filter {
            $0.mediaType == AVMEDIA_TYPE_VIDEO
                && $0.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC == 0
        }
        guard !candidates.isEmpty else { return nil }
        let best = av_find_best_stream(context, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0)
        return candidates.first { $0.pointee.index == best } ?? candidates.first
    }

    var audioStream: UnsafeMutablePointer<AVStream>? {
        streams.first { $0.mediaType == AVMEDIA_TYPE_AUDIO }
    }

    /// The container's tag `key`, nil when absent or empty.
    private func tag(_ key: String) -> String? {
        guard let entry = av_dict_get(context.pointee.metadata, key, nil, 0), let value = entry.pointee.value else { return nil }
        let text = String(cString: value).trimmingCharacters(in: .whitespaces)
        return text.isEmpty ? nil : text
    }

    /// What the container says of the recording: Apple's QuickTime keys, or the MP4 "location"
    /// (©xyz) phones write.
    var captureMetadata: CaptureMetadata {
        var metadata = CaptureMetadata()
        if let place = tag("com.apple.quicktime.location.ISO6709") ?? tag("location") {
            metadata.location = CaptureMetadata.Location(iso6709: place)
        }
        metadata.make = tag("com.apple.quicktime.make") ?? tag("make")
        metadata.model = tag("com.apple.quicktime.model") ?? tag("model")
        metadata.software = tag("com.apple.quicktime.software")
        if let created = tag("com.apple.quicktime.creationdate").flatMap(CaptureMetadata.splitCreationDate) {
            metadata.captureDate = created.date
            metadata.captureZone = created.zone
        }
        return metadata
    }

    /// Everything `info` reports.
    func probe() throws(MediaIOError) -> MediaInfo {
        var video = videoStream.map(trackInfo)
        if let stream = videoStream, video?.colour.dynamicRange == .pq, video?.colour.mastering == nil {
            video?.colour.mastering = bitstreamHDRMetadata(of: stream)
        }
        guard video != nil || audioStream != nil else { throw .notMedia(path: path) }
        guard let duration = duration() ?? scannedDuration() else { throw .unknownDuration(path: path) }
        var info = MediaInfo(
            path: path,
            container: containerName,
            containerDescription: context.pointee.iformat.flatMap { $0.pointee.long_name.map { String(cString: $0) } } ?? "",
            duration: duration,
            fileSize: fileSize,
            video: video,
            audioCodec: audioStream.map { codecName($0.parameters.codec_id) })
        info.embeddedCover = coverStream.map { codecName($0.parameters.codec_id) }
        info.metadata = captureMetadata
        info.livePhoto = tag("com.apple.quicktime.content.identifier").map { .appleMotion(contentIdentifier: $0) }
        info.creationDate = metadata("creation_time").flatMap(MediaContainer.isoDate)
        return info
    }

    /// "2019-05-03T12:34:56.000000Z" (FFmpeg's form of creation_time) as a date.
    static func isoDate(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }

    /// Duration of the video stream (else of the file), exact in the stream's time base.
    func duration() -> MediaTime? {
        if let stream = videoStream ?? audioStream {
            let d = stream.pointee.duration
            let tb = stream.pointee.time_base
            if d != noPTS, d > 0, tb.den > 0, tb.num > 0,
               let t = MediaTime.ticks(d, timeBase: Int64(tb.num), Int64(tb.den)) {
                return t
            }
        }
        let d = context.pointee.duration
        if d != noPTS, d > 0 {
            return MediaTime(value: d, timescale: Int64(vf_av_time_base()))
        }
        return nil
    }

    /// Length found by reading every packet of the main stream, for files whose header does
    /// not record it (live recordings, unfinished files). Leaves the file rewound.
    private func scannedDuration() -> MediaTime? {
        guard let stream = videoStream ?? audioStream else { return nil }
        let tb = stream.pointee.time_base
        guard tb.num > 0, tb.den > 0 else { return nil }
        var first: Int64?
        var end: Int64?
        let index = stream.pointee.index
        while let packet = try? readPacket(onDamage: .skip, accepting: { $0 == index }) {
            guard !packet.isDiscarded, let pts = packet.pts else { continue }
            first = min(first ?? pts, pts)
            end = max(end ?? pts, pts &+ max(packet.pointer.pointee.duration, 0))
        }
        rewind()
        guard let first, let end, end > first else { return nil }
        return MediaTime.ticks(end &- first, timeBase: Int64(tb.num), Int64(tb.den))
    }

    /// What to do when the demuxer reports damage before the end of the file.
    enum DamagePolicy {
        /// Skip up to 32 read errors, then stop as at the end (probing, previews).
        case skip
        /// Report it: a conversion must not end early as if the file had ended.
        case fail
    }

    /// The next packet of a stream `accepting` takes; nil at the end of the file.
    func readPacket(onDamage policy: DamagePolicy, accepting: (Int32) -> Bool) throws(MediaIOError) -> OwnedPacket? {
        var failures = 0
        while true {
            guard let packet = OwnedPacket() else { throw .unreadable(path: path, reason: tr("out of memory")) }
            let status = av_read_frame(context, packet.pointer)
            if status == errorEOF { return nil }
            if status < 0 {
                if context.pointee.pb?.pointee.eof_reached != 0 { return nil }
                if policy == .fail { throw .corrupt(path: path, detail: ffmpegMessage(status)) }
                failures += 1
                if failures > 32 || status == vf_averror_enomem() { return nil }
                continue
            }
            if accepting(packet.streamIndex) { return packet }
        }
    }

    /// Back to the first packet.
    func rewind() {
        let start = context.pointee.start_time
        // ANY: the first packet, whether or not the index lists it as a keyframe (a file whose
        // only listed keyframe is late would otherwise be read from there, and look truncated).
        if av_seek_frame(context, -1, start == noPTS ? 0 : start, AVSEEK_FLAG_BACKWARD | AVSEEK_FLAG_ANY) >= 0 { return }
        _ = av_seek_frame(context, -1, 0, AVSEEK_FLAG_BYTE)
    }

    private var containerName: String {
        guard let format = context.pointee.iformat, let raw = format.pointee.name else { return "unknown" }
        let name = String(cString: raw)
        let ext = (path as NSString).pathExtension.lowercased()
        if name.hasPrefix("mov,mp4") {
            let brand = metadata("major_brand")?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
            if brand == "qt" { return "mov" }
            if brand.hasPrefix("3gp") || brand.hasPrefix("3g2") { return "3gp" }
            if brand.hasPrefix("m4a") { return "m4a" }
            if brand.isEmpty && ext == "mov" { return "mov" }
            return "mp4"
        }
        if name == "matroska,webm" {
            return ext == "webm" || metadata("doctype") == "webm" ? "webm" : "matroska"
        }
        return name.split(separator: ",").first.map(String.init) ?? name
    }

    private func metadata(_ key: String) -> String? {
        guard let entry = av_dict_get(context.pointee.metadata, key, nil, 0), let value = entry.pointee.value else {
            return nil
        }
        return String(cString: value)
    }

    private func trackInfo(_ stream: UnsafeMutablePointer<AVStream>) -> VideoTrackInfo {
        let par = stream.parameters
        let avg = stream.pointee.avg_frame_rate
        let real = stream.pointee.r_frame_rate
        let rate = (avg.num > 0 && avg.den > 0) ? avg : real
        // The container's aspect ratio wins over the bitstream's, as in FFmpeg's own tools.
        let sar = av_guess_sample_aspect_ratio(context, stream, nil)
        let frames = stream.pointee.nb_frames
        let pixelFormat = av_get_pix_fmt_name(AVPixelFormat(rawValue: par.format)).map { String(cString: $0) }
        var track = VideoTrackInfo(
            streamIndex: Int(stream.pointee.index),
            codec: codecName(par.codec_id),
            codedSize: PixelSize(width: Int(par.width), height: Int(par.height)),
            sampleAspectRatio: (sar.num > 0 && sar.den > 0)
                ? MediaTime(value: Int64(sar.num), timescale: Int64(sar.den)) : MediaTime(value: 1, timescale: 1),
            rotation: MediaContainer.rotation(of: stream),
            frameRate: (rate.num > 0 && rate.den > 0) ? rate.mediaTime : nil,
            frameCount: frames > 0 ? Int(frames) : nil,
            pixelFormat: pixelFormat)
        track.colour = VideoColour(stream: stream)
        return track
    }

    /// The clockwise quarter turn in the stream's display matrix (FFmpeg reports counter-clockwise).
    static func rotation(of stream: UnsafeMutablePointer<AVStream>) -> Rotation {
        var size: Int = 0
        guard let data = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &size),
              size >= 9 * MemoryLayout<Int32>.size
        else { return .none }
        let angle = data.withMemoryRebound(to: Int32.self, capacity: 9) { av_display_rotation_get($0) }
        guard angle.isFinite else { return .none }
        return Rotation(clockwiseDegrees: -angle)
    }
}

/// FFmpeg's name of a codec; "unknown" for a track whose codec the demuxer could not tell
/// (FFmpeg calls it "none", which reads as if there were no track).
func codecName(_ id: AVCodecID) -> String {
    guard id != AV_CODEC_ID_NONE else { return "unknown" }
    return avcodec_get_name(id).map { String(cString: $0) } ?? "unknown"
}

/// Probes a file: container, duration, tracks and size, without decoding any picture.
public func probeMedia(at url: URL) throws(MediaIOError) -> MediaInfo {
    try MediaContainer(url: url).probe()
}

/// The size of `url` when it is a readable, non-empty regular file; otherwise the error that
/// says why it cannot be used.
public func checkReadableMediaFile(_ url: URL) throws(MediaIOError) -> Int64 {
    try MediaContainer.checkReadableFile(url.path)
}

/// The duration a file's header records, read without decoding anything (nil when the header
/// does not record one, as in live recordings). Used to refuse long videos before any work; a
/// single picture (a JPEG, a PNG) is no video and says so (`MediaIOError.stillImage`), rather
/// than report the 0.04 s FFmpeg gives it.
public func headerDuration(of url: URL) throws(MediaIOError) -> MediaTime? {
    let header = try MediaHeader(url: url)
    if let codec = header.container.stillImageCodec { throw .stillImage(path: url.path, format: codec) }
    return header.recordedDuration
}

/// A media file opened with only its header read, nothing analyzed or decoded: what the header
/// records (its duration) can refuse the file before any work, and a `FrameReader` made from it
/// goes on with the same open file instead of opening it again.
public final class MediaHeader {
    let container: MediaContainer

    /// Opens `url` and reads its header.
    public init(url: URL) throws(MediaIOError) {
        container = try MediaContainer(url: url, analyze: false)
    }

    /// The path as opened.
    public var path: String { container.path }

    /// The duration the header records, nil when it records none (live recordings).
    public var recordedDuration: MediaTime? { container.duration() }
}
