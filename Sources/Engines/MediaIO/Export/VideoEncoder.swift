internal import CFFmpeg
import Foundation
import ViewfinderCore

/// A video encoder that owns its context and converts incoming frames to its size and pixel
/// format: H.264 (libx264 when this FFmpeg has it, else MPEG-4 Part 2), or HEVC with libx265
/// for the HEVC edges of a smart cut and for HDR video.
package final class VideoEncoder {
    let context: UnsafeMutablePointer<AVCodecContext>
    package let name: String
    package let size: PixelSize
    private var scaler: OpaquePointer?
    private let path: String

    /// Quality settings: x264's CRF and preset, keyframe spacing and B-frames.
    struct Quality {
        var crf = 18
        var preset = "medium"
        var keyframeInterval: Int32 = 250
        var bFrames: Int32 = 3
        /// Keyframes only where asked, never at scene cuts (for predictable test clips).
        var fixedKeyframes = false
    }

    /// What a re-encoded stretch must share with the copied packets of the same track: the
    /// source's pixel format, aspect ratio, profile and level, and parameter-set ids of its own
    /// (x264's `sps-id`) so that both sets can sit in the one sample description.
    struct Match {
        /// The codecs a stretch can be re-encoded in to join copied packets.
        enum Codec { case h264, hevc }
        var codec: Codec = .h264
        var pixelFormat: AVPixelFormat
        var sampleAspectRatio: AVRational
        /// The encoder's profile name (x264's "high", "main", "baseline"; x265's "main", "main10").
        var profile: String
        /// H.264's level_idc (10 × the level) or HEVC's general_level_idc (30 × the level).
        var level: Int32
        /// x264's `sps-id` (x265 has none: HEVC stretches carry their parameter sets in band).
        var parameterSetID: Int
        /// x264's `ref`: the source's number of reference frames, so that the SPS of both can
        /// say the same. Nil: the preset's.
        var referenceFrames: Int? = nil
    }

    /// x264, else FFmpeg's MPEG-4 Part 2; nil when this FFmpeg has neither.
    static var codec: UnsafePointer<AVCodec>? {
        avcodec_find_encoder_by_name("libx264") ?? avcodec_find_encoder(AV_CODEC_ID_MPEG4)
    }

    /// The colour description an encoder writes into its bitstream's VUI (and its stream's
    /// parameters). It is given before the encoder opens: x264 and x265 read it only then.
    struct Colour {
        var range: AVColorRange
        var space: AVColorSpace
        var primaries: AVColorPrimaries
        var transfer: AVColorTransferCharacteristic

        /// BT.709, limited range: what Viewfinder's own pictures (cameras, animations) are.
        static let bt709 = Colour(range: AVCOL_RANGE_MPEG, space: AVCOL_SPC_BT709, primaries: AVCOL_PRI_BT709,
                                  transfer: AVCOL_TRC_BT709)

        /// Exactly what the source says, unsaid included (a smart cut's re-encoded frames must
        /// say what the copied ones say); only the range is made explicit.
        static func exactly(range: AVColorRange, space: AVColorSpace, primaries: AVColorPrimaries,
                            transfer: AVColorTransferCharacteristic) -> Colour {
            Colour(range: range == AVCOL_RANGE_JPEG ? AVCOL_RANGE_JPEG : AVCOL_RANGE_MPEG, space: space,
                   primaries: primaries, transfer: transfer)
        }

        /// What the source says, and where it says nothing, what players assume of it — full
        /// range for JPEG's "J" pixel formats, BT.601 (SMPTE 170M) for those and below 720
        /// lines, BT.709 from 720 lines — so a picture whose size crosses that guess (720p
        /// scaled to 540p) keeps its colours.
        static func guessing(range: AVColorRange, space: AVColorSpace, primaries: AVColorPrimaries,
                             transfer: AVColorTransferCharacteristic, sourceFormat: AVPixelFormat,
                             sourceHeight: Int32) -> Colour {
            let jpeg = VideoEncoder.fullRangeFormats.contains(sourceFormat)
            let standard = jpeg || sourceHeight < 720
            return Colour(
                range: range == AVCOL_RANGE_JPEG || (range == AVCOL_RANGE_UNSPECIFIED && jpeg) ? AVCOL_RANGE_JPEG : AVCOL_RANGE_MPEG,
                space: space != AVCOL_SPC_UNSPECIFIED && space != AVCOL_SPC_RGB ? space
                    : (standard ? AVCOL_SPC_SMPTE170M : AVCOL_SPC_BT709),
                primaries: primaries != AVCOL_PRI_UNSPECIFIED ? primaries : (standard ? AVCOL_PRI_SMPTE170M : AVCOL_PRI_BT709),
                transfer: transfer != AVCOL_TRC_UNSPECIFIED ? transfer : (standard ? AVCOL_TRC_SMPTE170M : AVCOL_TRC_BT709))
        }
    }

    /// A 10-bit HEVC (Main 10) encode of HLG or PQ video: the HDR10 metadata x265 writes as SEI
    /// messages beside the colour description.
    struct HDR {
        var metadata: HDRMetadata?
    }

    /// An encoder for `size` pictures. `match` makes it join copied packets (a smart cut's
    /// edges); `hdr` makes it x265 Main 10 for HDR video; otherwise it is x264 (or MPEG-4).
    init(size: PixelSize, timeBase: AVRational, frameRate: AVRational, quality: Quality,
         globalHeader: Bool, path: String, colour: Colour, match: Match? = nil, hdr: HDR? = nil) throws(MediaIOError) {
        self.size = size
        self.path = path
        let hevc = match?.codec == .hevc || hdr != nil
        let codec = hevc ? avcodec_find_encoder_by_name("libx265") : Self.codec
        guard let codec, let enc = avcodec_alloc_context3(codec) else {
            throw .encodeFailed(path: path, detail: hevc ? tr("no libx265 in this FFmpeg build to encode HEVC")
                                                         : tr("no H.264 or MPEG-4 encoder in this FFmpeg build"))
        }
        context = enc
        name = codec.pointee.name.map { String(cString: $0) } ?? "unknown"
        enc.pointee.width = Int32(size.width)
        enc.pointee.height = Int32(size.height)
        enc.pointee.pix_fmt = match?.pixelFormat ?? (hdr != nil ? AV_PIX_FMT_YUV420P10LE : AV_PIX_FMT_YUV420P)
        enc.pointee.time_base = timeBase
        enc.pointee.framerate = frameRate
        enc.pointee.gop_size = quality.keyframeInterval
        enc.pointee.max_b_frames = quality.bFrames
        enc.pointee.sample_aspect_ratio = match?.sampleAspectRatio ?? AVRational(num: 1, den: 1)
        enc.pointee.color_range = colour.range
        enc.pointee.colorspace = colour.space
        enc.pointee.color_primaries = colour.primaries
        enc.pointee.color_trc = colour.transfer
        // libavcodec's default is one thread; let x264 use every core (as the ffmpeg CLI does).
        enc.pointee.thread_count = 0
        if name == "libx264" {
            av_opt_set(enc.pointee.priv_data, "preset", quality.preset, 0)
            av_opt_set(enc.pointee.priv_data, "crf", String(quality.crf), 0)
            var params: [String] = []
            if quality.fixedKeyframes { params.append("scenecut=0") }
            if let match {
                params.append("sps-id=\(match.parameterSetID)")
                if let references = match.referenceFrames { params.append("ref=\(references)") }
                av_opt_set(enc.pointee.priv_data, "profile", match.profile, 0)
                enc.pointee.level = match.level
            }
            if !params.isEmpty { av_opt_set(enc.pointee.priv_data, "x264-params", params.joined(separator: ":"), 0) }
        } else if name == "libx265", let match {
            // One IDR at the start, no B-frames (decode order = presentation order), no scene
            // cuts; without a global header libavcodec has x265 repeat its VPS, SPS and PPS in
            // band before each IDR, which the copied stretches around it rely on.
            av_opt_set(enc.pointee.priv_data, "preset", quality.preset, 0)
            av_opt_set(enc.pointee.priv_data, "crf", String(quality.crf), 0)
            av_opt_set(enc.pointee.priv_data, "profile", match.profile, 0)
            let params = ["log-level=error", "bframes=\(quality.bFrames)", "keyint=\(quality.keyframeInterval)",
                          "min-keyint=\(quality.keyframeInterval)", "scenecut=0", "open-gop=0", "repeat-headers=1",
                          "level-idc=\(String(format: "%.1f", Double(match.level) / 30))"]
            av_opt_set(enc.pointee.priv_data, "x265-params", params.joined(separator: ":"), 0)
        } else if name == "libx265", let hdr {
            av_opt_set(enc.pointee.priv_data, "preset", quality.preset, 0)
            av_opt_set(enc.pointee.priv_data, "crf", String(quality.crf + ExportPreset.Encoding.x265Offset), 0)
            av_opt_set(enc.pointee.priv_data, "profile", "main10", 0)
            var params = ["log-level=error", "keyint=\(quality.keyframeInterval)", "bframes=\(quality.bFrames)"]
            if quality.fixedKeyframes { params.append("scenecut=0") }
            params += hdr.metadata.map(Self.x265Parameters) ?? []
            av_opt_set(enc.pointee.priv_data, "x265-params", params.joined(separator: ":"), 0)
        } else if match != nil {
            throw .encodeFailed(path: path, detail: tr("no libx264 in this FFmpeg build to re-encode the edges of a smart cut"))
        } else {
            enc.pointee.bit_rate = Int64(size.width * size.height * 4)
        }
        if globalHeader { enc.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER }
        let status = avcodec_open2(enc, codec, nil)
        guard status >= 0 else {
            throw .encodeFailed(path: path, detail: tr("cannot open the {codec} encoder: {reason}", ["codec": name, "reason": ffmpegMessage(status)]))
        }
    }

    /// x265's `master-display` (SMPTE ST 2086: primaries and white in units of 0.00002, light in
    /// units of 0.0001 nits) and `max-cll` parameters for HDR10 metadata; only the parts given.
    static func x265Parameters(_ metadata: HDRMetadata) -> [String] {
        var params: [String] = []
        if let display = metadata.displayPrimaries, let peak = metadata.masteringPeak {
            func xy(_ c: Chromaticity) -> String { "(\(Int((c.x * 50_000).rounded())),\(Int((c.y * 50_000).rounded())))" }
            let black = Int(((metadata.masteringBlack ?? 0) * 10_000).rounded())
            params.append("master-display=G\(xy(display.green))B\(xy(display.blue))R\(xy(display.red))WP\(xy(display.white))"
                          + "L(\(Int((peak * 10_000).rounded())),\(black))")
        }
        if metadata.maxContentLight != nil || metadata.maxFrameAverageLight != nil {
            params.append("max-cll=\(metadata.maxContentLight ?? 0),\(metadata.maxFrameAverageLight ?? 0)")
        }
        if !params.isEmpty { params.append("hdr10=1") }
        return params
    }

    deinit {
        sws_freeContext(scaler)
        var enc: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&enc)
    }

    /// FFmpeg's deprecated full-range ("J") YUV formats: MJPEG's pictures.
    static let fullRangeFormats: Set<AVPixelFormat> = [AV_PIX_FMT_YUVJ420P, AV_PIX_FMT_YUVJ422P, AV_PIX_FMT_YUVJ444P,
                                                       AV_PIX_FMT_YUVJ440P, AV_PIX_FMT_YUVJ411P]

    /// Encodes a decoded frame (any size and pixel format) at `pts` (encoder time base).
    func encode(_ source: OwnedFrame, pts: Int64) throws(MediaIOError) -> [OwnedPacket] {
        let s = source.pointer.pointee
        let format = context.pointee.pix_fmt
        if s.width == Int32(size.width), s.height == Int32(size.height), s.format == format.rawValue,
           s.color_range == context.pointee.color_range || s.color_range == AVCOL_RANGE_UNSPECIFIED,
           let shared = av_frame_clone(source.pointer) {
            // Already the encoder's size and format: hand over a new reference, no copy.
            let frame = OwnedFrame(adopting: shared)
            frame.pointer.pointee.pts = pts
            frame.pointer.pointee.pict_type = AV_PICTURE_TYPE_NONE
            return try send(frame)
        }
        guard let frame = OwnedFrame() else { throw .encodeFailed(path: path, detail: tr("out of memory")) }
        let f = frame.pointer
        f.pointee.format = format.rawValue
        f.pointee.width = Int32(size.width)
        f.pointee.height = Int32(size.height)
        guard av_frame_get_buffer(f, 0) >= 0 else { throw .encodeFailed(path: path, detail: tr("out of memory")) }
        scaler = sws_getCachedContext(scaler, s.width, s.height, AVPixelFormat(rawValue: s.format),
                                      Int32(size.width), Int32(size.height), format,
                                      SWS_LANCZOS | SWS_ACCURATE_RND, nil, nil, nil)
        guard let scaler else { throw .encodeFailed(path: path, detail: tr("no converter from this pixel format")) }
        // Keep the source's colour matrix and range where the encoder declares the same ones;
        // RGB sources are converted with the encoder's matrix (BT.709 unless told otherwise).
        let declared = context.pointee.colorspace
        let outSpace = Int32(declared == AVCOL_SPC_UNSPECIFIED ? AVCOL_SPC_BT709.rawValue : declared.rawValue)
        let inSpace = s.colorspace == AVCOL_SPC_UNSPECIFIED ? outSpace : Int32(s.colorspace.rawValue)
        let sourceFull = s.color_range == AVCOL_RANGE_JPEG || Self.fullRangeFormats.contains(AVPixelFormat(rawValue: s.format))
        if let input = sws_getCoefficients(inSpace), let output = sws_getCoefficients(outSpace) {
            sws_setColorspaceDetails(scaler, input, sourceFull ? 1 : 0, output,
                                     context.pointee.color_range == AVCOL_RANGE_JPEG ? 1 : 0, 0, 1 << 16, 1 << 16)
        }
        let rows = withUnsafePointer(to: source.pointer.pointee.data) { src in
            src.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { sources in
                withUnsafePointer(to: source.pointer.pointee.linesize) { srcLines in
                    srcLines.withMemoryRebound(to: Int32.self, capacity: 8) { sourceStrides in
                        withUnsafeMutablePointer(to: &f.pointee.data) { dst in
                            dst.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: 8) { planes in
                                withUnsafeMutablePointer(to: &f.pointee.linesize) { lines in
                                    lines.withMemoryRebound(to: Int32.self, capacity: 8) { strides in
                                        sws_scale(scaler, sources, sourceStrides, 0, s.height, planes, strides)
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        guard rows > 0 else { throw .encodeFailed(path: path, detail: tr("cannot convert the picture")) }
        f.pointee.pts = pts
        return try send(frame)
    }

    /// Encodes an RGB picture (sRGB-encoded, as Viewfinder's pictures are) at `pts`, converted
    /// with the encoder's colour matrix.
    func encode(_ picture: PixelBuffer, pts: Int64) throws(MediaIOError) -> [OwnedPacket] {
        guard let frame = OwnedFrame() else { throw .encodeFailed(path: path, detail: tr("out of memory")) }
        let f = frame.pointer
        f.pointee.format = AV_PIX_FMT_RGB24.rawValue
        f.pointee.width = Int32(picture.width)
        f.pointee.height = Int32(picture.height)
        guard av_frame_get_buffer(f, 0) >= 0, let plane = f.pointee.data.0 else {
            throw .encodeFailed(path: path, detail: tr("out of memory"))
        }
        let stride = Int(f.pointee.linesize.0)
        let rowBytes = picture.width * 3
        picture.bytes.withUnsafeBufferPointer { rgb in
            guard let base = rgb.baseAddress else { return }
            for y in 0..<picture.height { (plane + y * stride).update(from: base + y * rowBytes, count: rowBytes) }
        }
        return try encode(frame, pts: pts)
    }

    /// Encodes a frame already at the encoder's size and pixel format.
    func encodePrepared(_ frame: OwnedFrame) throws(MediaIOError) -> [OwnedPacket] {
        try send(frame)
    }

    /// The parameter sets the encoder put in its global header (Annex B extradata), as NAL units.
    var headerUnits: [[UInt8]] {
        let c = context.pointee
        guard let data = c.extradata, c.extradata_size > 0 else { return [] }
        return AVCConfiguration.annexBUnits(UnsafeBufferPointer(start: data, count: Int(c.extradata_size)))
    }

    /// Drains the encoder at the end.
    package func flush() throws(MediaIOError) -> [OwnedPacket] {
        try send(nil)
    }

    private func send(_ frame: OwnedFrame?) throws(MediaIOError) -> [OwnedPacket] {
        let packets = try encodePackets(context, frame, path: path)
        for packet in packets { settleDecodeTime(of: packet) }
        return packets
    }

    /// The decode time of the last packet out.
    private var lastDecodeTime: Int64?

    /// Keeps decode times rising and at or before presentation. x265 (3.5) measures its
    /// B-frame delay once the delay's worth of pictures has arrived; a clip shorter than that
    /// (one frame) never sets it, and the decode times it then gives are whatever the memory
    /// held, which MP4's muxer refuses ("pts/dts pair unsupported"). Such a time is replaced by
    /// one after the last (x264's are never touched: they are always plausible).
    private func settleDecodeTime(of packet: OwnedPacket) {
        let p = packet.pointer
        let pts = p.pointee.pts
        guard pts != noPTS else { return }
        var dts = p.pointee.dts
        let c = context.pointee
        let ticks = c.framerate.num > 0 && c.time_base.num > 0
            ? max(1, Int64(c.time_base.den) * Int64(c.framerate.den) / (Int64(c.time_base.num) * Int64(c.framerate.num))) : 1
        // Generous: variable-rate video may hold long gaps between frames.
        let reorder = 64 * ticks
        let plausible = dts != noPTS && dts <= pts && pts - dts <= reorder && (lastDecodeTime.map { dts > $0 } ?? true)
        if !plausible {
            dts = min(pts, lastDecodeTime.map { $0 + 1 } ?? pts)
            if let last = lastDecodeTime, dts <= last { dts = last + 1 }
            p.pointee.dts = dts
        }
        lastDecodeTime = dts
    }
}
