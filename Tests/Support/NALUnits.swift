/// Reading the NAL units of an MP4 sample, as the tests check what a track's samples carry.
public enum NALUnits {
    /// The HEVC NAL unit types of a sample of four-byte length-prefixed units; nil when it
    /// does not parse.
    public static func hevcTypes(_ sample: [UInt8]) -> [UInt8]? {
        var types: [UInt8] = []
        var offset = 0
        while offset < sample.count {
            guard offset + 5 <= sample.count else { return nil }
            let length = sample[offset ..< offset + 4].reduce(0) { $0 << 8 | Int($1) }
            guard length > 0, offset + 4 + length <= sample.count else { return nil }
            types.append((sample[offset + 4] >> 1) & 0x3F)
            offset += 4 + length
        }
        return types
    }
}
