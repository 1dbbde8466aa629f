internal import CFFmpeg
import Foundation
import ViewfinderCore

/// Converts decoded frames of any pixel format to RGB at a chosen size (owns the `SwsContext`).
/// HLG and PQ frames are tone-mapped to SDR (`hdr` says how) after scaling, at the output size.
final class FrameScaler {
    private var context: OpaquePointer?
    /// What to do with HDR frames.
    var hdr: HDRConversion
    /// The stream's HDR10 metadata, for frames that carry none of their own.
    var streamMetadata: HDRMetadata?
    /// The mapper last used, kept while frames stay alike (one stream's frames do).
    private var toneMapper: ToneMapper?

    init(hdr: HDRConversion = .toneMap, streamMetadata: HDRMetadata? = nil) {
        self.hdr = hdr
        self.streamMetadata = streamMetadata
    }

    deinit {
        sws_freeContext(context)
    }

    /// The frame as RGB at `size` (in the frame's own orientation), with the colour matrix and
    /// range the frame declares (BT.709 for HD, BT.601 for SD when it declares none; BT.2020
    /// for HDR), tone-mapped when it is HDR.
    func convert(_ frame: OwnedFrame, to size: PixelSize) -> PixelBuffer? {
        let f = frame.pointer.pointee
        if hdr != .none, let transfer = HDRTransfer(f.color_trc) {
            let primaries = f.color_primaries == AVCOL_PRI_UNSPECIFIED ? nil
                : av_color_primaries_name(f.color_primaries).map { String(cString: $0) }
            let peak = (HDRMetadata(frame: frame.pointer) ?? streamMetadata)?.contentPeak
            if toneMapper.map({ $0.transfer != transfer || $0.conversion != hdr || $0.peak != peak }) ?? true {
                toneMapper = ToneMapper(transfer: transfer, conversion: hdr, peak: peak, primaries: primaries)
            }
            guard let mapper = toneMapper else { return nil }
            // Planar 16-bit: swscale's packed RGB48 writer costs about 40 ms a 1080p frame
            // more than its planar one.
            return scale(frame, to: size, into: AV_PIX_FMT_GBRP16LE, bytesPerPixel: 2, planes: 3,
                         defaultSpace: SWS_CS_BT2020) { planes, stride in
                let count = stride / 2 * size.height
                func samples(_ plane: UnsafeMutablePointer<UInt8>) -> UnsafePointer<UInt16> {
                    UnsafePointer(UnsafeRawPointer(plane).bindMemory(to: UInt16.self, capacity: count))
                }
                // GBRP's planes are green, blue, red.
                return mapper.picture(red: samples(planes[2]), green: samples(planes[0]), blue: samples(planes[1]),
                                      rowStride: stride / 2, width: size.width, height: size.height)
            }
        }
        return scale(frame, to: size, into: AV_PIX_FMT_RGB24, bytesPerPixel: 3, planes: 1,
                     defaultSpace: f.height >= 720 ? SWS_CS_ITU709 : SWS_CS_ITU601) { planes, stride in
            let base = planes[0]
            let rowBytes = size.width * 3
            var picture = PixelBuffer(width: size.width, height: size.height)
            picture.withMutableBytes { out in
                guard let outBase = out.baseAddress else { return }
                for y in 0..<size.height {
                    (outBase + y * rowBytes).update(from: base + y * stride, count: rowBytes)
                }
            }
            return picture
        }
    }

    /// Scales and converts the frame into `format` (`planes` planes of `bytesPerPixel` bytes a
    /// pixel) in a scratch buffer and hands the planes (rows `stride` bytes apart) to `body`;
    /// nil when swscale cannot.
    private func scale(_ frame: OwnedFrame, to size: PixelSize, into output: AVPixelFormat, bytesPerPixel: Int,
                       planes: Int, defaultSpace: Int32,
                       _ body: ([UnsafeMutablePointer<UInt8>], Int) -> PixelBuffer) -> PixelBuffer? {
        let f = frame.pointer.pointee
        guard f.width > 0, f.height > 0, size.width > 0, size.height > 0 else { return nil }
        let (format, fullRange) = FrameScaler.normalised(AVPixelFormat(rawValue: f.format), f.color_range)
        // Lanczos keeps modest reductions sharp; for thumbnail-sized ones (3× and more) bicubic
        // resamples just as cleanly (swscale widens every filter with the factor, so neither
        // aliases) at about two thirds of the cost. Enlargements use bicubic.
        let downscale = size.width < Int(f.width) || size.height < Int(f.height)
        let thumbnail = size.width * 3 <= Int(f.width) && size.height * 3 <= Int(f.height)
        // At the frame's own size nothing is resampled but the chroma: swscale's unscaled
        // YUV→RGB converter (no ACCURATE_RND, no full chroma interpolation) does that in about
        // a fifth of the time of the filtered path (a cover embedded at full size, a still).
        let sameSize = size.width == Int(f.width) && size.height == Int(f.height) && size.height % 2 == 0
        let flags = sameSize ? SWS_BILINEAR
            : (downscale && !thumbnail ? SWS_LANCZOS : SWS_BICUBIC) | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT
        context = sws_getCachedContext(
            context, f.width, f.height, format, Int32(size.width), Int32(size.height), output,
            Int32(flags), nil, nil, nil)
        guard let context else { return nil }

        var space = Int32(f.colorspace.rawValue)
        if f.colorspace == AVCOL_SPC_UNSPECIFIED || f.colorspace == AVCOL_SPC_RGB {
            space = defaultSpace
        }
        if let table = sws_getCoefficients(space), let outputTable = sws_getCoefficients(SWS_CS_DEFAULT) {
            sws_setColorspaceDetails(context, table, fullRange ? 1 : 0, outputTable, 1, 0, 1 << 16, 1 << 16)
        }

        // swscale's SIMD paths may write a little past a row, so scale into aligned, padded
        // planes.
        let stride = (size.width * bytesPerPixel + 63) & ~63
        let planeBytes = stride * size.height + 64
        guard let scratch = av_malloc(planeBytes * planes) else { return nil }
        defer { av_free(scratch) }
        let base = scratch.assumingMemoryBound(to: UInt8.self)
        let planeBases = (0..<planes).map { base + $0 * planeBytes }
        var destination: [UnsafeMutablePointer<UInt8>?] = (0..<4).map { $0 < planes ? planeBases[$0] : nil }
        var destinationStride: [Int32] = (0..<4).map { $0 < planes ? Int32(stride) : 0 }
        let sources = withUnsafeBytes(of: frame.pointer.pointee.data) { raw in
            (0..<4).map { raw.load(fromByteOffset: $0 * MemoryLayout<UnsafeMutablePointer<UInt8>?>.stride,
                                   as: UnsafeMutablePointer<UInt8>?.self) }
        }
        let sourceStrides = withUnsafeBytes(of: frame.pointer.pointee.linesize) { raw in
            (0..<4).map { raw.load(fromByteOffset: $0 * 4, as: Int32.self) }
        }
        let rows = sources.map { UnsafePointer($0) }.withUnsafeBufferPointer { src in
            sws_scale(context, src.baseAddress, sourceStrides, 0, f.height, &destination, &destinationStride)
        }
        guard rows == Int32(size.height) else { return nil }
        return body(planeBases, stride)
    }

    /// Maps FFmpeg's deprecated full-range "J" formats to their plain ones plus a range flag.
    private static func normalised(_ format: AVPixelFormat, _ range: AVColorRange) -> (AVPixelFormat, Bool) {
        switch format {
        case AV_PIX_FMT_YUVJ420P: return (AV_PIX_FMT_YUV420P, true)
        case AV_PIX_FMT_YUVJ422P: return (AV_PIX_FMT_YUV422P, true)
        case AV_PIX_FMT_YUVJ444P: return (AV_PIX_FMT_YUV444P, true)
        case AV_PIX_FMT_YUVJ440P: return (AV_PIX_FMT_YUV440P, true)
        default: return (format, range == AVCOL_RANGE_JPEG)
        }
    }
}
