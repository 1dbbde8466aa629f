internal import CVipsShim
import Foundation
import ViewfinderCore

/// A still image file opened for reading: only its header until pixels are asked for.
///
/// Pixels are always produced upright (the EXIF orientation applied exactly once), in 8-bit
/// sRGB (CMYK converted through its profile), with alpha kept. Decoding shrinks on load where
/// the format allows (JPEG by 2, 4 or 8; WebP by any factor), so the memory used follows the
/// size asked for rather than the size of the photo.
public final class Photo: @unchecked Sendable {
    // Immutable after init; libvips images are reference-counted and safe to read from any thread.
    public let url: URL
    /// What the header says.
    public let info: ImageInfo

    /// The default budget: a decode holds at most 100 megapixels.
    public static let defaultMaxPixels: Int64 = 100_000_000

    /// The budget on decoded memory, in pixels: what one decode may hold after shrink-on-load.
    public let maxPixels: Int64

    /// Whether pixels keep the colours of the photo's own ICC profile (`keptProfile`) instead
    /// of being converted to sRGB. Only RGB photos with a usable RGB profile keep theirs.
    public let keepsProfile: Bool

    /// Opens `url`, refusing — before any decoding — files that are not images and images
    /// that no decode can hold within `maxPixels`, even shrunk on load as far as the format
    /// allows (a 20000×14000 JPEG shrinks 8× on load; a 65536×65536 PNG cannot shrink).
    /// `keepingProfile` keeps an RGB photo's own colours (see `keptProfile`).
    public convenience init(url: URL, maxPixels: Int64 = Photo.defaultMaxPixels, keepingProfile: Bool = false) throws(ImagingError) {
        guard let info = try ImageInfo.probe(url) else { throw .notAnImage(path: url.path) }
        try self.init(url: url, info: info, maxPixels: maxPixels, keepingProfile: keepingProfile)
    }

    /// Opens `url` whose header the caller has already read (saves reading it twice).
    public init(url: URL, info: ImageInfo, maxPixels: Int64 = Photo.defaultMaxPixels,
                keepingProfile: Bool = false) throws(ImagingError) {
        self.url = url
        self.maxPixels = maxPixels
        self.info = info
        self.keepsProfile = keepingProfile
        if Self.decodedArea(info.storedSize, shrink: Self.largestShrink(format: info.format)) > maxPixels {
            throw .tooManyPixels(path: url.path, width: info.storedSize.width, height: info.storedSize.height, limit: maxPixels)
        }
    }

    /// How far a format shrinks while it loads: JPEG by 2, 4 or 8 (DCT scaling), WebP by any
    /// factor (8 is as far as `render` asks); the others load whole.
    static func largestShrink(format: String) -> Int {
        format == "jpeg" || format == "webp" ? 8 : 1
    }

    /// The pixels a decode of `size` shrunk `shrink` times on load holds.
    static func decodedArea(_ size: PixelSize, shrink: Int) -> Int64 {
        let s = Int64(max(1, shrink))
        return ((Int64(size.width) + s - 1) / s) * ((Int64(size.height) + s - 1) / s)
    }

    /// The upright size in pixels.
    public var size: PixelSize { info.displaySize }

    /// The whole photo, upright, fitted inside `box` (never enlarged): the editor's preview.
    public func preview(fitting box: PixelSize) throws(ImagingError) -> RasterImage {
        let target = size.fitting(in: box)
        return try render(x: 0, y: 0, width: Double(size.width), height: Double(size.height), to: target)
    }

    /// The part of the upright photo at (x, y) of `width` × `height` pixels, resampled to
    /// exactly `output` with a Lanczos-3 kernel (alpha premultiplied around the resampling).
    public func render(x: Double, y: Double, width: Double, height: Double,
                       to output: PixelSize) throws(ImagingError) -> RasterImage {
        guard width > 0, height > 0, output.width > 0, output.height > 0,
              x >= 0, y >= 0, x + width <= Double(size.width) + 1e-6, y + height <= Double(size.height) + 1e-6 else {
            throw .decodeFailed(path: url.path, detail: tr("the crop lies outside the {width}×{height} photo", ["width": size.width, "height": size.height]))
        }
        try Vips.start()
        // Shrink on load as far as still leaves at least one decoded pixel per output pixel.
        let reduction = min(width / Double(output.width), height / Double(output.height))
        let shrink = [8, 4, 2].first { Double($0) <= reduction } ?? 1
        // The budget holds for the decode this render needs, not only for the best case.
        let effective = min(shrink, Self.largestShrink(format: info.format))
        if Self.decodedArea(info.storedSize, shrink: effective) > maxPixels {
            throw .tooManyPixels(path: url.path, width: info.storedSize.width, height: info.storedSize.height, limit: maxPixels)
        }
        // Read top to bottom once when the upright picture keeps the file's row order (EXIF 1
        // and 2); turning it by a quarter or a half, or flipping it upside down, needs it all.
        let sequential: Int32 = info.orientation <= 2 ? 1 : 0
        guard let loaded = vf_vips_load(url.path, Int32(shrink), sequential) else { throw failure() }
        var image = VipsImageRef(loaded)
        image = try step(vf_vips_autorotate(image.pointer))
        image = try step(vf_vips_to_srgb8(image.pointer, keepsProfile ? 1 : 0))

        // The loader decides how much it really shrank: measure it.
        let loadedWidth = Double(vf_vips_width(image.pointer)), loadedHeight = Double(vf_vips_height(image.pointer))
        let fx = loadedWidth / Double(size.width), fy = loadedHeight / Double(size.height)
        let left = max(0, Int((x * fx).rounded())), top = max(0, Int((y * fy).rounded()))
        let cropWidth = max(1, min(Int(loadedWidth) - left, Int((width * fx).rounded())))
        let cropHeight = max(1, min(Int(loadedHeight) - top, Int((height * fy).rounded())))
        if left != 0 || top != 0 || cropWidth != Int(loadedWidth) || cropHeight != Int(loadedHeight) {
            image = try step(vf_vips_crop(image.pointer, Int32(left), Int32(top), Int32(cropWidth), Int32(cropHeight)))
        }
        if cropWidth != output.width || cropHeight != output.height {
            image = try step(vf_vips_resize(image.pointer, Double(output.width) / Double(cropWidth),
                                            Double(output.height) / Double(cropHeight)))
        }
        return try Vips.pixels(of: image, expecting: output, path: url.path)
    }

    /// The ICC profile the pixels are in when the photo keeps its own (an RGB photo with a
    /// usable RGB profile opened `keepingProfile`), for the writer to embed; nil when they are
    /// sRGB.
    public func keptProfile() throws(ImagingError) -> Data? {
        guard keepsProfile, case .embedded = info.profile else { return nil }
        try Vips.start()
        guard let header = vf_vips_open_header(url.path) else { throw failure() }
        let owner = VipsImageRef(header)
        var data: UnsafeMutableRawPointer?
        var length = 0
        guard vf_vips_rgb_profile_copy(owner.pointer, &data, &length) == 0, let data else { return nil }
        defer { vf_vips_free_buffer(data) }
        return Data(bytes: data, count: length)
    }

    private func step(_ next: OpaquePointer?) throws(ImagingError) -> VipsImageRef {
        guard let next else { throw failure() }
        return VipsImageRef(next)
    }

    private func failure() -> ImagingError {
        .decodeFailed(path: url.path, detail: Vips.lastError())
    }

}

extension RasterImage {
    /// Crops or edge-extends to exactly `size` (for one-pixel rounding differences).
    func resized(exactly size: PixelSize) -> RasterImage {
        var out = [UInt8](repeating: 0, count: size.width * size.height * channels)
        for y in 0..<size.height {
            let sy = min(y, height - 1)
            for x in 0..<size.width {
                let sx = min(x, width - 1)
                let s = (sy * width + sx) * channels, d = (y * size.width + x) * channels
                for c in 0..<channels { out[d + c] = bytes[s + c] }
            }
        }
        return RasterImage(width: size.width, height: size.height, channels: channels, bytes: out) ?? self
    }
}
