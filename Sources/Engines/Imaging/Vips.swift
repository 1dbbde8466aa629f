internal import CVips
internal import CVipsShim
import Foundation
import ViewfinderCore

/// How libvips starts; set before the first image operation of the process.
public enum ImagingRuntime {
    /// Whether libvips loads its optional format modules (HEIF/HEIC, JPEG XL, PDF, ImageMagick,
    /// OpenSlide) when it starts. True by default. A short-lived tool that only writes images,
    /// or reads JPEG, PNG, WebP, GIF or TIFF, can turn it off before any image work to start
    /// faster and smaller (about 35 ms and 8 MB here); libvips starts once per process, so a
    /// later HEIC read in the same process would then fail with a clear error.
    public static var loadsOptionalFormats: Bool {
        get { Vips.runtime.value.modules }
        set { Vips.runtime.withLock { $0.modules = newValue } }
    }

    /// True when the file's first bytes show a format libvips reads without its modules.
    public static func isCoreFormat(_ url: URL) -> Bool {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return false }
        defer { try? handle.close() }
        let head = [UInt8]((try? handle.read(upToCount: 12)) ?? Data())
        guard head.count >= 4 else { return false }
        if head.starts(with: [0xFF, 0xD8, 0xFF]) { return true }                      // JPEG
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return true }                // PNG
        if head.starts(with: Array("GIF8".utf8)) { return true }                      // GIF
        if head.starts(with: [0x49, 0x49, 0x2A, 0x00]) || head.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) { return true } // TIFF
        if head.count >= 12, head.starts(with: Array("RIFF".utf8)), Array(head[8..<12]) == Array("WEBP".utf8) { return true }
        return false
    }
}

/// The libvips runtime: started once, on first use.
enum Vips {
    /// Whether libvips is to load its modules, and how its start went once it was tried.
    fileprivate struct Runtime {
        var modules = true
        var state: Result<Void, ImagingError>?
    }

    /// libvips starts under this lock too, so it starts once however many threads ask first.
    fileprivate static let runtime = Locked(Runtime())

    static func start() throws(ImagingError) {
        let result: Result<Void, ImagingError> = runtime.withLock { runtime in
            if let state = runtime.state { return state }
            let started: Result<Void, ImagingError> = vf_vips_start("viewfinder", runtime.modules ? 1 : 0) == 0
                ? .success(()) : .failure(.startFailed(lastError()))
            runtime.state = started
            return started
        }
        if case .failure(let error) = result { throw error }
    }

    /// The libvips version this was built against ("8.14.1").
    static let version = VIPS_VERSION

    /// libvips' error text, cleared after reading; one line.
    static func lastError() -> String {
        let text = vf_vips_last_error().map { String(cString: $0) } ?? ""
        vf_vips_clear_error()
        let line = text.split(separator: "\n").first.map(String.init) ?? ""
        return line.isEmpty ? tr("the data is damaged or incomplete") : line
    }
}

/// Owns one `VipsImage` reference.
final class VipsImageRef {
    let pointer: OpaquePointer

    init(_ pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        vf_vips_unref(pointer)
    }
}

extension Vips {
    /// Renders `image` into a raster of exactly `output` (libvips may round a side by one).
    static func pixels(of image: VipsImageRef, expecting output: PixelSize, path: String) throws(ImagingError) -> RasterImage {
        let w = Int(vf_vips_width(image.pointer)), h = Int(vf_vips_height(image.pointer))
        let bands = Int(vf_vips_bands(image.pointer))
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        guard vf_vips_pixels(image.pointer, &buffer, &length) == 0, let buffer else {
            throw .decodeFailed(path: path, detail: lastError())
        }
        defer { vf_vips_free_buffer(buffer) }
        let bytes = [UInt8](UnsafeRawBufferPointer(start: buffer, count: length))
        guard let raster = RasterImage(width: w, height: h, channels: bands, bytes: bytes) else {
            throw .decodeFailed(path: path, detail: trn("unexpected pixel layout ({count} band)", "unexpected pixel layout ({count} bands)", bands))
        }
        return raster.size == output ? raster : raster.resized(exactly: output)
    }
}

/// Resamples pictures already in memory.
public enum ImageScaler {
    /// `picture` resampled to exactly `size` with a Lanczos-3 kernel (alpha premultiplied).
    public static func scale(_ picture: RasterImage, to size: PixelSize) throws(ImagingError) -> RasterImage {
        guard picture.size != size else { return picture }
        try start()
        let image: OpaquePointer? = picture.bytes.withUnsafeBytes { raw in
            vf_vips_image_from_pixels(raw.baseAddress, raw.count, Int32(picture.width), Int32(picture.height), Int32(picture.channels))
        }
        guard let image, picture.width > 0, picture.height > 0 else {
            throw .decodeFailed(path: "", detail: tr("cannot wrap the picture"))
        }
        let source = VipsImageRef(image)
        guard let scaled = vf_vips_resize(source.pointer, Double(size.width) / Double(picture.width),
                                          Double(size.height) / Double(picture.height)) else {
            throw .decodeFailed(path: "", detail: Vips.lastError())
        }
        return try Vips.pixels(of: VipsImageRef(scaled), expecting: size, path: "")
    }

    /// What a turned picture shows where it reaches past the picture's edge.
    public enum Outside: Sendable, Hashable {
        /// The nearest edge pixel, repeated (no colour is invented; for outputs that must be opaque).
        case edge
        /// Transparent (alpha 0): shows exactly where nothing of the picture is.
        case transparent
    }

    /// A `size` picture of `picture` turned by `degrees` clockwise about `centre` (continuous
    /// pixel coordinates), which lands in its middle; bicubic, alpha premultiplied. The result
    /// has an alpha band.
    public static func turn(_ picture: RasterImage, by degrees: Double, about centre: Point, to size: PixelSize,
                            outside: Outside) throws(ImagingError) -> RasterImage {
        try start()
        let image: OpaquePointer? = picture.bytes.withUnsafeBytes { raw in
            vf_vips_image_from_pixels(raw.baseAddress, raw.count, Int32(picture.width), Int32(picture.height), Int32(picture.channels))
        }
        guard let image, picture.width > 0, picture.height > 0, size.width > 0, size.height > 0 else {
            throw .decodeFailed(path: "", detail: tr("cannot wrap the picture"))
        }
        let source = VipsImageRef(image)
        guard let turned = vf_vips_turn(source.pointer, degrees, centre.x, centre.y, Int32(size.width), Int32(size.height),
                                        outside == .transparent ? 1 : 0) else {
            throw .decodeFailed(path: "", detail: Vips.lastError())
        }
        return try Vips.pixels(of: VipsImageRef(turned), expecting: size, path: "")
    }

    private static func start() throws(ImagingError) { try Vips.start() }
}
