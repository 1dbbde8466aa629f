import Foundation
import ViewfinderCore

extension Photo {
    /// The crop `rect` of the upright photo turned by `degrees` clockwise about the rect's centre
    /// (the rect is in the turned photo's axes, as `CropSpec.rotation` says), resampled to exactly
    /// `output`. Where the turned crop reaches past the photo's edge it shows `outside` (with
    /// `.transparent` the result always has an alpha band; with `.edge`, only when the photo has).
    ///
    /// Only the part of the photo the turned crop covers is decoded (shrunk on load as far as the
    /// output allows) and resampled with Lanczos-3 to the output's scale; the turn itself is one
    /// bicubic pass at that scale, so a large photo costs what its crop does. An unturned crop
    /// with `.edge` is `render(x:y:width:height:to:)` exactly.
    public func render(_ rect: Rect, turnedBy degrees: Double, to output: PixelSize,
                       outside: ImageScaler.Outside = .edge) throws(ImagingError) -> RasterImage {
        let turn = degrees.truncatingRemainder(dividingBy: 360)
        if turn == 0, outside == .edge {
            return try render(x: rect.minX, y: rect.minY, width: rect.width, height: rect.height, to: output)
        }
        guard rect.isFinite, rect.width > 0, rect.height > 0, output.width > 0, output.height > 0, degrees.isFinite else {
            throw .decodeFailed(path: url.path, detail: tr("the crop {rectangle} turned by {degrees}° cannot be cut", ["rectangle": rect, "degrees": degrees]))
        }
        // Output pixels per photo pixel, and the turned crop's bounding box in the photo, with
        // four output pixels more on each side for the resampling kernels.
        let scale = Double(output.width) / rect.width
        let margin = 4 / scale
        let box = rect.size.boundingSize(turnedBy: turn)
        let half = (x: box.width / 2 + margin, y: box.height / 2 + margin)
        let photo = (width: Double(size.width), height: Double(size.height))
        let left = max(0, (rect.midX - half.x).rounded(.down)), top = max(0, (rect.midY - half.y).rounded(.down))
        let right = min(photo.width, (rect.midX + half.x).rounded(.up)), bottom = min(photo.height, (rect.midY + half.y).rounded(.up))
        guard right > left, bottom > top else {
            throw .decodeFailed(path: url.path, detail: tr("the crop {rectangle} lies outside the {width}×{height} photo", ["rectangle": rect, "width": size.width, "height": size.height]))
        }
        let regionOut = PixelSize(width: max(1, Int(((right - left) * scale).rounded())),
                                  height: max(1, Int(((bottom - top) * scale).rounded())))
        let region = try render(x: left, y: top, width: right - left, height: bottom - top, to: regionOut)
        let centre = Point(x: (rect.midX - left) * Double(regionOut.width) / (right - left),
                           y: (rect.midY - top) * Double(regionOut.height) / (bottom - top))
        let turned = try ImageScaler.turn(region, by: turn, about: centre, to: output, outside: outside)
        // Edge pixels repeated keep an opaque photo opaque: give it back without the alpha band.
        return outside == .edge && !region.hasAlpha ? turned.withoutAlpha() : turned
    }
}
