internal import CFFmpeg
import Foundation

extension HDRTransfer {
    /// The HDR transfer FFmpeg's characteristic names, nil for SDR ones.
    init?(_ transfer: AVColorTransferCharacteristic) {
        switch transfer {
        case AVCOL_TRC_SMPTE2084: self = .pq
        case AVCOL_TRC_ARIB_STD_B67: self = .hlg
        default: return nil
        }
    }
}

extension VideoColour {
    /// What a stream signals: its codec parameters (which the probe fills from the bitstream's
    /// VUI, else from the container's `colr` box) and its side data.
    init(stream: UnsafeMutablePointer<AVStream>) {
        let par = stream.parameters
        func name(_ text: UnsafePointer<CChar>?, unspecified: Bool) -> String? {
            unspecified ? nil : text.map { String(cString: $0) }
        }
        self.init(
            transfer: name(av_color_transfer_name(par.color_trc), unspecified: par.color_trc == AVCOL_TRC_UNSPECIFIED),
            primaries: name(av_color_primaries_name(par.color_primaries),
                            unspecified: par.color_primaries == AVCOL_PRI_UNSPECIFIED),
            matrix: name(av_color_space_name(par.color_space), unspecified: par.color_space == AVCOL_SPC_UNSPECIFIED),
            range: name(av_color_range_name(par.color_range), unspecified: par.color_range == AVCOL_RANGE_UNSPECIFIED),
            dynamicRange: HDRTransfer(par.color_trc))
        var size = 0
        if let data = av_stream_get_side_data(stream, AV_PKT_DATA_DOVI_CONF, &size),
           size >= MemoryLayout<AVDOVIDecoderConfigurationRecord>.size {
            let record = UnsafeRawPointer(data).loadUnaligned(as: AVDOVIDecoderConfigurationRecord.self)
            dolbyVision = DolbyVisionConfiguration(profile: Int(record.dv_profile), level: Int(record.dv_level),
                                                   compatibility: Int(record.dv_bl_signal_compatibility_id))
        }
        var metadata = HDRMetadata()
        if let data = av_stream_get_side_data(stream, AV_PKT_DATA_MASTERING_DISPLAY_METADATA, &size),
           size >= MemoryLayout<AVMasteringDisplayMetadata>.size {
            metadata.add(UnsafeRawPointer(data).loadUnaligned(as: AVMasteringDisplayMetadata.self))
        }
        if let data = av_stream_get_side_data(stream, AV_PKT_DATA_CONTENT_LIGHT_LEVEL, &size),
           size >= MemoryLayout<AVContentLightMetadata>.size {
            metadata.add(UnsafeRawPointer(data).loadUnaligned(as: AVContentLightMetadata.self))
        }
        mastering = metadata == HDRMetadata() ? nil : metadata
    }
}

extension HDRMetadata {
    /// What a decoded frame carries (HEVC's SEI messages), nil when it carries none.
    init?(frame: UnsafeMutablePointer<AVFrame>) {
        self.init()
        if let side = av_frame_get_side_data(frame, AV_FRAME_DATA_MASTERING_DISPLAY_METADATA),
           side.pointee.size >= MemoryLayout<AVMasteringDisplayMetadata>.size {
            add(UnsafeRawPointer(side.pointee.data).loadUnaligned(as: AVMasteringDisplayMetadata.self))
        }
        if let side = av_frame_get_side_data(frame, AV_FRAME_DATA_CONTENT_LIGHT_LEVEL),
           side.pointee.size >= MemoryLayout<AVContentLightMetadata>.size {
            add(UnsafeRawPointer(side.pointee.data).loadUnaligned(as: AVContentLightMetadata.self))
        }
        if self == HDRMetadata() { return nil }
    }

    mutating func add(_ display: AVMasteringDisplayMetadata) {
        func value(_ r: AVRational) -> Double? {
            guard r.den > 0, r.num >= 0 else { return nil }
            let value = Double(r.num) / Double(r.den)
            return value.isFinite ? value : nil
        }
        if display.has_luminance != 0 {
            masteringPeak = value(display.max_luminance)
            masteringBlack = value(display.min_luminance)
        }
        guard display.has_primaries != 0 else { return }
        // FFmpeg's order is red, green, blue; chromaticities lie in 0...1.
        let points = withUnsafeBytes(of: display.display_primaries) { raw in
            (0..<3).map { raw.loadUnaligned(fromByteOffset: $0 * 2 * MemoryLayout<AVRational>.stride, as: (AVRational, AVRational).self) }
        }
        func xy(_ pair: (AVRational, AVRational)) -> Chromaticity? {
            guard let x = value(pair.0), let y = value(pair.1), (0...1).contains(x), (0...1).contains(y) else { return nil }
            return Chromaticity(x: x, y: y)
        }
        if let red = xy(points[0]), let green = xy(points[1]), let blue = xy(points[2]), let white = xy(display.white_point) {
            displayPrimaries = DisplayPrimaries(red: red, green: green, blue: blue, white: white)
        }
    }

    mutating func add(_ light: AVContentLightMetadata) {
        maxContentLight = light.MaxCLL > 0 ? Int(light.MaxCLL) : nil
        maxFrameAverageLight = light.MaxFALL > 0 ? Int(light.MaxFALL) : nil
    }
}
