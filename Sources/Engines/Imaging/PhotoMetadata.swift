internal import CExivShim
internal import CVipsShim
import Foundation
import ViewfinderCore

/// Reading and removing a photo's metadata with exiv2 (through gexiv2).
public enum PhotoMetadata {
    /// Reads the metadata of the photo at `url`; a file exiv2 cannot read is an error.
    public static func read(_ url: URL) throws(ImagingError) -> CaptureMetadata {
        var raw = vf_photo_metadata()
        var error = [CChar](repeating: 0, count: 512)
        let status = vf_exiv_read(url.path, &raw, &error, error.count)
        // 2: a JPEG without EXIF, where libvips would find none either.
        if status != 0 && status != 2 {
            // A format this exiv2 cannot open, or a HEIF whose EXIF item the shim did not find:
            // the EXIF block libvips reads from it.
            if let exif = try exifBlock(url) {
                guard exif.withUnsafeBytes({ bytes in
                    vf_exiv_read_exif(bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count, &raw, &error, error.count)
                }) == 0 else {
                    throw .decodeFailed(path: url.path, detail: tr("its metadata cannot be read: {reason}", ["reason": Self.string(error)]))
                }
            } else if status < 0 {
                throw .decodeFailed(path: url.path, detail: tr("its metadata cannot be read: {reason}", ["reason": Self.string(error)]))
            }
        }
        func text<T>(_ field: T) -> String? {
            let value = withUnsafeBytes(of: field) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                .trimmingCharacters(in: .whitespaces)
            return value.isEmpty ? nil : value
        }
        var metadata = CaptureMetadata()
        if raw.has_gps != 0 {
            metadata.location = CaptureMetadata.Location(latitude: raw.latitude, longitude: raw.longitude,
                                         altitude: raw.has_altitude != 0 ? raw.altitude : nil)
        }
        metadata.make = text(raw.make)
        metadata.model = text(raw.model)
        metadata.lens = text(raw.lens)
        metadata.software = text(raw.software)
        if raw.exposure_den > 0 { metadata.exposureTime = MediaTime(value: Int64(raw.exposure_num), timescale: Int64(raw.exposure_den)) }
        metadata.fNumber = raw.f_number > 0 ? raw.f_number : nil
        metadata.iso = raw.iso > 0 ? Int(raw.iso) : nil
        metadata.focalLength = raw.focal_length > 0 ? raw.focal_length : nil
        metadata.flash = raw.flash >= 0 ? Int(raw.flash) : nil
        metadata.captureDate = text(raw.date)
        metadata.captureZone = text(raw.offset)
        return metadata
    }

    /// The raw EXIF block libvips finds in the file, nil when it has none.
    static func exifBlock(_ url: URL) throws(ImagingError) -> Data? {
        try Vips.start()
        guard let header = vf_vips_open_header(url.path) else { return nil }
        let image = VipsImageRef(header)
        var data: UnsafeMutableRawPointer?
        var length = 0
        guard vf_vips_exif_blob(image.pointer, &data, &length) == 0, let data else { return nil }
        defer { vf_vips_free_buffer(data) }
        return Data(bytes: data, count: length)
    }

    /// A C string from a buffer, up to its terminating zero.
    private static func string(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Removes the location from the photo file at `url`, in place (EXIF GPS, XMP GPS and
    /// place names, IPTC places; for HEIF, the GPS directory of its EXIF item, emptied where it
    /// lies): only its metadata is rewritten; the pixels stay the same bytes. A location still
    /// there afterwards is an error. For a file the caller owns (a copy being written), never
    /// an original.
    public static func removeLocation(from url: URL) throws(ImagingError) {
        var message = [CChar](repeating: 0, count: 512)
        guard vf_exiv_strip_location(url.path, &message, message.count) == 0 else {
            throw .decodeFailed(path: url.path, detail: tr("its location cannot be removed: {reason}", ["reason": Self.string(message)]))
        }
        try dropLeftoverLocation(in: url)
        // Read back: a writer that keeps the GPS and reports success is caught here.
        if (try? read(url))?.location != nil {
            throw .decodeFailed(path: url.path, detail: tr("its location cannot be removed: it is still there after the rewrite"))
        }
    }
}
