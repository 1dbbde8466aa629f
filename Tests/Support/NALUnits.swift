/// Reading the NAL units of an MP4 sample, as the tests check what a track's samples carry.
public enum NALUnits {
    /// The HEVC NAL unit types of a sample of four-byte length-prefixed units; nil when it
    /// does not parse.
    public static func hevcTypes(_ sample: [UInt8]) -> [UInt8]? {
        types(sample) { ($0 >> 1) & 0x3F }
    }

    /// The H.264 NAL unit types of a sample of four-byte length-prefixed units; nil when it
    /// does not parse.
    public static func h264Types(_ sample: [UInt8]) -> [UInt8]? {
        types(sample) { $0 & 0x1F }
    }

    /// The type `type` reads from each unit's first byte.
    private static func types(_ sample: [UInt8], _ type: (UInt8) -> UInt8) -> [UInt8]? {
        var types: [UInt8] = []
        var offset = 0
        while offset < sample.count {
            guard offset + 5 <= sample.count else { return nil }
            let length = sample[offset ..< offset + 4].reduce(0) { $0 << 8 | Int($1) }
            guard length > 0, offset + 4 + length <= sample.count else { return nil }
            types.append(type(sample[offset + 4]))
            offset += 4 + length
        }
        return types
    }
}
