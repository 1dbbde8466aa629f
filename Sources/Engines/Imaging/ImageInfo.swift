internal import CVipsShim
import Foundation
import ViewfinderCore

/// What the header of a still image says.
public struct ImageInfo: Sendable, Equatable {
    /// libvips' loader, e.g. "jpegload", "pngload", "heifload".
    public let loader: String
    /// The format in plain words ("jpeg", "png", "heif", ...).
    public let format: String
    /// Stored size, before EXIF orientation.
    public let storedSize: PixelSize
    /// EXIF orientation, 1...8 (1 = upright).
    public let orientation: Int
    /// Bands per pixel (1 grey, 2 grey + alpha, 3 colour, 4 colour + alpha or CMYK).
    public let bands: Int
    /// When the photo was taken (EXIF DateTimeOriginal, read as UTC for want of a zone), if known.
    public var creationDate: Date? = nil
    /// The embedded ICC profile, which pixels are converted from (to sRGB).
    public var profile: ColourProfile = .none

    /// A photo's embedded colour profile.
    public enum ColourProfile: Sendable, Equatable {
        /// No profile: the pixels are taken as sRGB.
        case none
        /// A profile LittleCMS reads, with its description ("Display P3", "Adobe RGB (1998)").
        case embedded(String)
        /// A damaged profile, or one for other colours than the image's: the pixels are taken
        /// as sRGB (CMYK through a built-in profile).
        case unusable

        /// How `info` shows it, in English (`avatar --json` writes it); the fixed texts are
        /// marked for translation, so a person is shown `tr(summary)`.
        public var summary: String {
            switch self {
            case .none: N_("none (sRGB assumed)")
            case .embedded(let name): name.isEmpty ? N_("embedded (no description)") : name
            case .unusable: N_("damaged or not for these colours (read as sRGB)")
            }
        }
    }

    /// The size once the EXIF orientation is applied (5...8 swap the sides).
    public var displaySize: PixelSize { orientation >= 5 ? storedSize.transposed : storedSize }

    /// Reads the header of `url`, or nil when libvips has no loader for it. Pixel data is not
    /// decoded, so this is fast and small even for huge images.
    public static func probe(_ url: URL) throws(ImagingError) -> ImageInfo? {
        try Vips.start()
        guard let raw = vf_vips_loader_for(url.path) else {
            vf_vips_clear_error()
            return nil
        }
        let loader = String(cString: raw)
        // ImageMagick's loader claims nearly anything, videos included; we only trust the
        // native loaders.
        if loader.hasPrefix("magick") { return nil }
        guard let image = vf_vips_open_header(url.path) else {
            throw .unreadable(path: url.path, detail: Vips.lastError())
        }
        let owner = VipsImageRef(image)
        var format = loader
        for suffix in ["load_source", "load_buffer", "load"] where format.hasSuffix(suffix) {
            format.removeLast(suffix.count)
            break
        }
        var info = ImageInfo(
            loader: loader, format: format,
            storedSize: PixelSize(width: Int(vf_vips_width(owner.pointer)), height: Int(vf_vips_height(owner.pointer))),
            orientation: Int(vf_vips_orientation(owner.pointer)),
            bands: Int(vf_vips_bands(owner.pointer)))
        var buffer = [CChar](repeating: 0, count: 256)
        if vf_vips_metadata_string(owner.pointer, "exif-ifd2-DateTimeOriginal", &buffer, buffer.count) == 0 {
            let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            info.creationDate = ImageInfo.exifDate(text)
        }
        buffer = [CChar](repeating: 0, count: 256)
        switch vf_vips_profile(owner.pointer, &buffer, buffer.count) {
        case 1:
            // A description is the file's text: control characters never reach a terminal.
            let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            info.profile = .embedded(String(String.UnicodeScalarView(text.unicodeScalars.filter {
                $0.properties.generalCategory != .control
            })))
        case 0: info.profile = .none
        default: info.profile = .unusable
        }
        return info
    }

    /// "2019:05:03 12:34:56 (…)" as a date (libvips appends a description in brackets).
    static func exifDate(_ text: String) -> Date? {
        let digits = text.prefix(19)
        let parts = digits.split(whereSeparator: { $0 == ":" || $0 == " " }).compactMap { Int($0) }
        guard parts.count == 6, (1900...2999).contains(parts[0]), (1...12).contains(parts[1]), (1...31).contains(parts[2]) else {
            return nil
        }
        var components = DateComponents()
        (components.year, components.month, components.day) = (parts[0], parts[1], parts[2])
        (components.hour, components.minute, components.second) = (parts[3], parts[4], parts[5])
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        return calendar.date(from: components)
    }
}
