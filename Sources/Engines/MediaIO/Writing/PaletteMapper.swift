internal import CImageQuant
import Foundation
import ViewfinderCore

extension ColorPalette {
    /// The palette of at most `count` colours (2...256) that best covers the pixels of
    /// `pictures`, made by libimagequant from their histogram. Pictures with at most `count`
    /// colours in all keep exactly those colours.
    public init(quantizing pictures: [PixelBuffer], count: Int = 256) throws(MediaIOError) {
        guard let attr = liq_attr_create() else { throw PaletteMapper.outOfMemory }
        defer { liq_attr_destroy(attr) }
        _ = liq_set_max_colors(attr, Int32(max(2, min(256, count))))
        guard let histogram = liq_histogram_create(attr) else { throw PaletteMapper.outOfMemory }
        defer { liq_histogram_destroy(histogram) }
        for picture in pictures where picture.width > 0 && picture.height > 0 {
            var rgba = PaletteMapper.rgba(picture)
            let added = rgba.withUnsafeMutableBytes { bytes -> Bool in
                guard let base = bytes.baseAddress,
                      let image = liq_image_create_rgba(attr, base, Int32(picture.width), Int32(picture.height), 0) else { return false }
                defer { liq_image_destroy(image) }
                return liq_histogram_add_image(histogram, attr, image) == LIQ_OK
            }
            guard added else { throw PaletteMapper.outOfMemory }
        }
        var made: OpaquePointer?
        guard liq_histogram_quantize(histogram, attr, &made) == LIQ_OK, let result = made else {
            self.init(colors: [RGB(0, 0, 0)])
            return
        }
        defer { liq_result_destroy(result) }
        self.init(colors: PaletteMapper.colors(of: result))
    }
}

/// Maps pictures onto a fixed palette with libimagequant: each pixel to its nearest palette
/// colour, undithered, so a colour maps to the same entry in every frame and an animation
/// does not shimmer. Owns its libimagequant handles.
final class PaletteMapper {
    private let attr: OpaquePointer
    private let result: OpaquePointer
    /// The palette in the order the indices refer to (libimagequant may reorder it).
    let colors: [RGB]

    static let outOfMemory = MediaIOError.encodeFailed(path: "GIF palette", detail: tr("out of memory making the palette"))

    /// A mapper onto exactly `palette`'s colours; nil when libimagequant cannot allocate.
    init?(palette: ColorPalette) {
        guard let attr = liq_attr_create() else { return nil }
        guard let histogram = liq_histogram_create(attr) else {
            liq_attr_destroy(attr)
            return nil
        }
        defer { liq_histogram_destroy(histogram) }
        // Fixed colours alone make an empty histogram, which libimagequant refuses; each is
        // also added once as a histogram entry.
        let fixed = palette.colors.isEmpty ? [RGB(0, 0, 0)] : palette.colors
        let entries = fixed.map { liq_histogram_entry(color: liq_color(r: $0.r, g: $0.g, b: $0.b, a: 255), count: 1) }
        guard liq_histogram_add_colors(histogram, attr, entries, Int32(entries.count), 0) == LIQ_OK else {
            liq_attr_destroy(attr)
            return nil
        }
        for entry in entries { _ = liq_histogram_add_fixed_color(histogram, entry.color, 0) }
        _ = liq_set_max_colors(attr, Int32(max(2, fixed.count)))
        var made: OpaquePointer?
        guard liq_histogram_quantize(histogram, attr, &made) == LIQ_OK, let made else {
            liq_attr_destroy(attr)
            return nil
        }
        _ = liq_set_dithering_level(made, 0)
        self.attr = attr
        result = made
        colors = PaletteMapper.colors(of: made)
    }

    deinit {
        liq_result_destroy(result)
        liq_attr_destroy(attr)
    }

    /// The palette index of every pixel, row by row; nil when libimagequant cannot allocate.
    func indices(for picture: PixelBuffer) -> [UInt8]? {
        guard picture.width > 0, picture.height > 0 else { return [] }
        var rgba = PaletteMapper.rgba(picture)
        var out = [UInt8](repeating: 0, count: picture.width * picture.height)
        let status = rgba.withUnsafeMutableBytes { bytes -> liq_error in
            guard let base = bytes.baseAddress,
                  let image = liq_image_create_rgba(attr, base, Int32(picture.width), Int32(picture.height), 0) else {
                return LIQ_OUT_OF_MEMORY
            }
            defer { liq_image_destroy(image) }
            return out.withUnsafeMutableBytes { target in
                guard let address = target.baseAddress else { return LIQ_OUT_OF_MEMORY }
                return liq_write_remapped_image(result, image, address, target.count)
            }
        }
        return status == LIQ_OK ? out : nil
    }

    static func colors(of result: OpaquePointer) -> [RGB] {
        guard let palette = liq_get_palette(result) else { return [RGB(0, 0, 0)] }
        let count = min(256, Int(palette.pointee.count))
        return withUnsafeBytes(of: palette.pointee.entries) { raw in
            raw.bindMemory(to: liq_color.self).prefix(count).map { RGB($0.r, $0.g, $0.b) }
        }
    }

    /// The picture as opaque RGBA, libimagequant's input.
    static func rgba(_ picture: PixelBuffer) -> [UInt8] {
        var out = [UInt8](repeating: 255, count: picture.width * picture.height * 4)
        picture.bytes.withUnsafeBufferPointer { rgb in
            out.withUnsafeMutableBufferPointer { rgba in
                for p in 0..<(picture.width * picture.height) {
                    rgba[4 * p] = rgb[3 * p]
                    rgba[4 * p + 1] = rgb[3 * p + 1]
                    rgba[4 * p + 2] = rgb[3 * p + 2]
                }
            }
        }
        return out
    }
}
