import Foundation
import ViewfinderCore

/// Cuts avatars out of photos: a circle with transparent corners, or a square.
public enum AvatarRenderer {
    /// The shape of an avatar's outline.
    public enum Outline: Sendable, Hashable {
        case circle
        case square
    }

    /// The crop of `photo` at (x, y, width, height) (upright pixels; in the turned photo's axes
    /// when `rotation` is not 0: the photo turned by `rotation` degrees clockwise about the
    /// crop's centre), resampled to `size`, cut to `outline`. A circle gets straight alpha that
    /// falls off over one pixel at the edge; colour is left untouched there, so no dark or white
    /// fringe can appear. A turned crop is as opaque as the photo: past the photo's edge (which a
    /// valid crop only touches) the edge pixels are repeated.
    public static func render(_ photo: Photo, x: Double, y: Double, width: Double, height: Double,
                              size: PixelSize, outline: Outline, rotation: Double = 0) throws(ImagingError) -> RasterImage {
        let picture = try photo.render(Rect(x: x, y: y, width: width, height: height), turnedBy: rotation, to: size)
        switch outline {
        case .square: return picture
        case .circle: return maskToEllipse(picture)
        }
    }

    /// Multiplies alpha by the coverage of each pixel by the ellipse inscribed in the picture
    /// (a circle for square pictures): 1 inside, 0 outside, linear over one pixel at the edge.
    public static func maskToEllipse(_ picture: RasterImage) -> RasterImage {
        var out = picture.withAlpha()
        let (w, h, channels) = (out.width, out.height, out.channels)
        let rx = Double(w) / 2, ry = Double(h) / 2
        let radius = min(rx, ry)
        out.withMutableBytes { bytes in
            for y in 0..<h {
                let dy = (Double(y) + 0.5 - ry) / ry * radius
                for x in 0..<w {
                    let dx = (Double(x) + 0.5 - rx) / rx * radius
                    let distance = (dx * dx + dy * dy).squareRoot()
                    let coverage = min(1, max(0, radius - distance + 0.5))
                    let i = (y * w + x) * channels + channels - 1
                    bytes[i] = UInt8((Double(bytes[i]) * coverage).rounded())
                }
            }
        }
        return out
    }
}
