import Foundation

/// An 8-bit picture with 1 to 4 interleaved channels (grey, grey + alpha, RGB, RGBA), rows top
/// to bottom, no padding. Alpha, when present, is straight (not premultiplied).
public struct RasterImage: Sendable, Hashable {
    public let width: Int
    public let height: Int
    /// Channels per pixel: 3 for RGB, 4 for RGBA.
    public let channels: Int
    public private(set) var bytes: [UInt8]

    /// Wraps bytes; nil when the count does not match.
    public init?(width: Int, height: Int, channels: Int, bytes: [UInt8]) {
        guard width >= 0, height >= 0, (1...4).contains(channels), bytes.count == width * height * channels else {
            return nil
        }
        self.width = width
        self.height = height
        self.channels = channels
        self.bytes = bytes
    }

    /// An RGB picture as a raster.
    public init(_ picture: PixelBuffer) {
        width = picture.width
        height = picture.height
        channels = 3
        bytes = picture.bytes
    }

    public var size: PixelSize { PixelSize(width: width, height: height) }

    /// Whether the last channel is alpha.
    public var hasAlpha: Bool { channels == 2 || channels == 4 }

    /// The channel values of the pixel at (x, y).
    public subscript(x: Int, y: Int) -> ArraySlice<UInt8> {
        let i = (y * width + x) * channels
        return bytes[i..<(i + channels)]
    }

    /// Direct access for writers that fill whole pictures.
    public mutating func withMutableBytes<T>(_ body: (inout UnsafeMutableBufferPointer<UInt8>) throws -> T) rethrows -> T {
        try bytes.withUnsafeMutableBufferPointer { try body(&$0) }
    }

    /// The same picture without its alpha channel (the colour kept as it is, not composited).
    public func withoutAlpha() -> RasterImage {
        guard hasAlpha else { return self }
        let kept = channels - 1
        var out = [UInt8](repeating: 0, count: width * height * kept)
        for p in 0..<(width * height) {
            for c in 0..<kept { out[p * kept + c] = bytes[p * channels + c] }
        }
        return RasterImage(width: width, height: height, channels: kept, bytes: out) ?? self
    }

    /// The same picture with an alpha channel (opaque where there was none).
    public func withAlpha() -> RasterImage {
        guard !hasAlpha else { return self }
        var out = [UInt8](repeating: 255, count: width * height * (channels + 1))
        bytes.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for p in 0..<(width * height) {
                    for c in 0..<channels { dst[p * (channels + 1) + c] = src[p * channels + c] }
                }
            }
        }
        return RasterImage(width: width, height: height, channels: channels + 1, bytes: out) ?? self
    }
}
