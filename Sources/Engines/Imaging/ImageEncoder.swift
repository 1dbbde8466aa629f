internal import CVipsShim
import Foundation
import ViewfinderCore

/// Encodes pictures with libvips.
public enum ImageEncoder {

    /// The encoded bytes of `picture`.
    public static func encode(_ picture: PixelBuffer, as format: ImageFormat) throws(ImagingError) -> Data {
        try encode(RasterImage(picture), as: format)
    }

    /// The encoded bytes of `picture`; alpha is kept by PNG and WebP, and composited over white
    /// for JPEG.
    /// With `profile` (ICC bytes) the picture's values are in that profile's colours and the
    /// profile is embedded; without, they are sRGB and nothing but the pixels is written.
    public static func encode(_ picture: RasterImage, as format: ImageFormat, profile: Data? = nil) throws(ImagingError) -> Data {
        try Vips.start()
        guard picture.width > 0, picture.height > 0 else {
            throw .encodeFailed(format: format.name, detail: tr("the picture is empty"))
        }
        let bands = Int32(picture.channels)
        // A copy the image owns: a saver runs cached libvips operations that keep their input
        // after it returns, so the bytes must not be borrowed.
        let image: OpaquePointer? = picture.bytes.withUnsafeBytes { raw in
            vf_vips_image_from_pixels(raw.baseAddress, raw.count, Int32(picture.width), Int32(picture.height), bands)
        }
        guard let image else { throw .encodeFailed(format: format.name, detail: Vips.lastError()) }
        var owner = VipsImageRef(image)
        // JPEG has no alpha: composite over white (libvips' flatten) before encoding.
        if case .jpeg = format, picture.hasAlpha {
            guard let flat = vf_vips_flatten_white(owner.pointer) else {
                throw .encodeFailed(format: format.name, detail: Vips.lastError())
            }
            owner = VipsImageRef(flat)
        }
        if let profile, !profile.isEmpty {
            let status = profile.withUnsafeBytes { vf_vips_attach_profile(owner.pointer, $0.baseAddress, $0.count) }
            guard status == 0 else { throw .encodeFailed(format: format.name, detail: tr("cannot attach the colour profile")) }
        }
        return try save(owner, as: format)
    }

    /// Runs the saver for `format` on `image` and returns the encoded bytes.
    private static func save(_ image: VipsImageRef, as format: ImageFormat) throws(ImagingError) -> Data {
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        let status: Int32
        switch format {
        case .jpeg(let quality, let halfChroma):
            status = vf_vips_save_jpeg(image.pointer, Int32(clamping: quality), halfChroma ? 1 : 0, &buffer, &length)
        // zlib level 3: within about 5 % of level 6 in size at about half the time (measured on
        // 512 px avatars), which matters when the encode is most of the work.
        case .png: status = vf_vips_save_png(image.pointer, 3, &buffer, &length)
        case .webp(let quality): status = vf_vips_save_webp(image.pointer, Int32(clamping: quality), &buffer, &length)
        }
        defer { vf_vips_free_buffer(buffer) }
        guard status == 0, let buffer, length > 0 else {
            throw .encodeFailed(format: format.name, detail: Vips.lastError())
        }
        return Data(bytes: buffer, count: length)
    }

    /// Encodes `picture` in the format its file name asks for and writes it atomically.
    public static func write(_ picture: PixelBuffer, to url: URL, quality: Int = 90) throws(ImagingError) {
        try write(RasterImage(picture), to: url, quality: quality)
    }

    /// A JPEG that records when it was taken (EXIF DateTimeOriginal, in UTC), written atomically.
    public static func writePhoto(_ picture: PixelBuffer, to url: URL, takenAt date: Date, quality: Int = 92) throws(ImagingError) {
        try Vips.start()
        let image: OpaquePointer? = picture.bytes.withUnsafeBytes { raw in
            vf_vips_image_from_pixels(raw.baseAddress, raw.count, Int32(picture.width), Int32(picture.height), 3)
        }
        guard let image else { throw .encodeFailed(format: "JPEG", detail: Vips.lastError()) }
        let owner = VipsImageRef(image)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let stamp = String(format: "%04d:%02d:%02d %02d:%02d:%02d", c.year ?? 0, c.month ?? 0, c.day ?? 0,
                           c.hour ?? 0, c.minute ?? 0, c.second ?? 0)
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        let status = vf_vips_save_jpeg_dated(owner.pointer, Int32(clamping: quality), stamp, &buffer, &length)
        defer { vf_vips_free_buffer(buffer) }
        guard status == 0, let buffer, length > 0 else { throw .encodeFailed(format: "JPEG", detail: Vips.lastError()) }
        do {
            try AtomicFile.write(Data(bytes: buffer, count: length), to: url)
        } catch {
            throw .encodeFailed(format: "JPEG", detail: error.description)
        }
    }

    /// Encodes `picture` in the format its file name asks for and writes it atomically.
    /// `profile` as for `encode`.
    public static func write(_ picture: RasterImage, to url: URL, quality: Int = 90, profile: Data? = nil) throws(ImagingError) {
        guard let format = ImageFormat(pathExtension: url.pathExtension, quality: quality) else {
            throw .unsupportedFormat(path: url.path)
        }
        let data = try encode(picture, as: format, profile: profile)
        do {
            try AtomicFile.write(data, to: url)
        } catch {
            throw .encodeFailed(format: format.name, detail: error.description)
        }
    }
}
