import Foundation
import ViewfinderCore

/// What a frame's picture measures, on a small copy (luma and colour in 0…1).
public struct FrameQuality: Sendable, Equatable {
    /// Mean luma.
    public var brightness = 0.0
    /// Standard deviation of luma.
    public var contrast = 0.0
    /// Variance of the luma's Laplacian: high for sharp pictures, low for blurred or smeared ones.
    public var sharpness = 0.0
    /// Hasler and Süsstrunk's colourfulness (0 for grey).
    public var colourfulness = 0.0
    /// Mean absolute luma difference with the frame two frames later: motion, a cut.
    public var change = 0.0
    /// Luma mean difference with the frame two frames later: a fade or a flash.
    public var brightnessChange = 0.0
    /// Why the frame makes a bad cover, if it does: "near-black", "near-white", "flat",
    /// "blurred", "fade or flash", "cut". In English, as `--json` writes it; marked for
    /// translation, so a person is shown `tr(rejection)`.
    public var rejection: String?

    /// Measures `picture`, with `companion` (the frame two frames later) for what changes.
    public init(_ picture: PixelBuffer, companion: PixelBuffer?) {
        let luma = Self.luma(picture)
        let n = Double(max(1, luma.count))
        brightness = luma.reduce(0, +) / n
        contrast = (luma.reduce(0) { $0 + ($1 - brightness) * ($1 - brightness) } / n).squareRoot()
        sharpness = Self.laplacianVariance(luma, width: picture.width, height: picture.height)
        colourfulness = Self.colourfulness(picture)
        if let companion, companion.size == picture.size {
            let other = Self.luma(companion)
            change = zip(luma, other).reduce(0) { $0 + abs($1.0 - $1.1) } / n
            brightnessChange = abs(other.reduce(0, +) / n - brightness)
        }
        if brightness < 0.1 {
            rejection = N_("near-black")
        } else if brightness > 0.92 {
            rejection = N_("near-white")
        } else if contrast < 0.04 {
            rejection = N_("flat")
        } else if brightnessChange > 0.012 {
            rejection = N_("fade or flash")
        } else if change > 0.2 {
            rejection = N_("cut")
        }
    }

    /// Rec. 709 luma of each pixel, 0…1.
    public static func luma(_ picture: PixelBuffer) -> [Double] {
        let bytes = picture.bytes
        var result = [Double](repeating: 0, count: picture.width * picture.height)
        for i in result.indices {
            let p = i * 3
            result[i] = (0.2126 * Double(bytes[p]) + 0.7152 * Double(bytes[p + 1]) + 0.0722 * Double(bytes[p + 2])) / 255
        }
        return result
    }

    /// The variance of the 4-neighbour Laplacian over the inner pixels of a `width` × `height`
    /// luma picture.
    public static func laplacianVariance(_ luma: [Double], width: Int, height: Int) -> Double {
        guard width >= 3, height >= 3 else { return 0 }
        var sum = 0.0, squares = 0.0
        for y in 1..<(height - 1) {
            for x in 1..<(width - 1) {
                let i = y * width + x
                let l = luma[i - 1] + luma[i + 1] + luma[i - width] + luma[i + width] - 4 * luma[i]
                sum += l
                squares += l * l
            }
        }
        let n = Double((width - 2) * (height - 2))
        let mean = sum / n
        return squares / n - mean * mean
    }

    /// Hasler and Süsstrunk (2003): spread and mean of the opponent channels R−G and (R+G)/2−B.
    static func colourfulness(_ picture: PixelBuffer) -> Double {
        let bytes = picture.bytes
        let n = Double(max(1, picture.width * picture.height))
        var rg = 0.0, yb = 0.0, rg2 = 0.0, yb2 = 0.0
        for p in stride(from: 0, to: bytes.count, by: 3) {
            let (r, g, b) = (Double(bytes[p]) / 255, Double(bytes[p + 1]) / 255, Double(bytes[p + 2]) / 255)
            let a = r - g, c = 0.5 * (r + g) - b
            rg += a; yb += c; rg2 += a * a; yb2 += c * c
        }
        let (mrg, myb) = (rg / n, yb / n)
        let spread = (max(0, rg2 / n - mrg * mrg) + max(0, yb2 / n - myb * myb)).squareRoot()
        return spread + 0.3 * (mrg * mrg + myb * myb).squareRoot()
    }
}
