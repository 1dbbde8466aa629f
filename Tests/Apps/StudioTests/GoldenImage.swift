import Foundation
import Testing
import ViewfinderCore
import ViewfinderTestSupport

/// Two pictures of one size held against each other (see `GoldenVerdict` for how a screenshot
/// is judged against its golden).
///
/// The tolerance: a pixel differs when any of its four channels (colours premultiplied by alpha)
/// is more than `channelTolerance` (24 of 255) away from the golden's; the two match when they are the same
/// size, at most `maxDifferingFraction` (0.2%) of the pixels differ and the mean difference over
/// every channel of every pixel is at most `maxMeanDifference` (1.0 of 255). That absorbs
/// anti-aliasing and rounding between Cairo or Pango builds, but not a changed colour, style,
/// layout or a glyph from another font.
struct GoldenComparison: CustomStringConvertible {
    static let channelTolerance = 24
    static let maxDifferingFraction = 0.002
    static let maxMeanDifference = 1.0

    let sameSize: Bool
    let differingPixels: Int
    let pixels: Int
    let meanDifference: Double

    var differingFraction: Double { pixels == 0 ? 1 : Double(differingPixels) / Double(pixels) }

    var matches: Bool {
        sameSize && differingFraction <= Self.maxDifferingFraction && meanDifference <= Self.maxMeanDifference
    }

    var description: String {
        guard sameSize else { return "the sizes differ" }
        return "\(differingPixels) of \(pixels) pixels differ (\(String(format: "%.3f", differingFraction * 100))%), "
            + "mean difference \(String(format: "%.3f", meanDifference))"
    }

    /// Compares two RGBA (or same-channel) pictures.
    init(_ actual: RasterImage, _ golden: RasterImage) {
        let count = golden.width * golden.height
        pixels = count
        guard actual.width == golden.width, actual.height == golden.height, actual.channels == golden.channels else {
            sameSize = false
            differingPixels = count
            meanDifference = 255
            return
        }
        sameSize = true
        var differing = 0, total = 0
        let channels = golden.channels
        // With alpha, colours are compared premultiplied: the colour of a nearly transparent
        // edge pixel is noise that nobody sees.
        let alpha = golden.hasAlpha ? channels - 1 : nil
        actual.bytes.withUnsafeBufferPointer { a in
            golden.bytes.withUnsafeBufferPointer { g in
                for p in 0..<count {
                    var worst = 0
                    let base = p * channels
                    for c in 0..<channels {
                        var (x, y) = (Int(a[base + c]), Int(g[base + c]))
                        if let alpha, c != alpha {
                            (x, y) = ((x * Int(a[base + alpha]) + 127) / 255, (y * Int(g[base + alpha]) + 127) / 255)
                        }
                        total += abs(x - y)
                        worst = max(worst, abs(x - y))
                    }
                    if worst > Self.channelTolerance { differing += 1 }
                }
            }
        }
        differingPixels = differing
        meanDifference = count == 0 ? 0 : Double(total) / Double(count * channels)
    }
}

/// A screenshot of the HUD overlay against its golden: the whole overlay (the view's dimming or
/// blur) and the 400 × 300 middle where the box is, each within `GoldenComparison`'s tolerance.
/// The middle counts on its own so that a small part of the box — one label's colour, a few
/// hundred pixels — is never lost among the pixels of a whole window.
struct GoldenVerdict: CustomStringConvertible {
    static let middle = (width: 400, height: 300)
    let whole: GoldenComparison
    let box: GoldenComparison

    var matches: Bool { whole.matches && box.matches }
    var description: String { "whole: \(whole); middle: \(box)" }

    init(_ actual: RasterImage, _ golden: RasterImage) {
        whole = GoldenComparison(actual, golden)
        box = GoldenComparison(Self.middle(of: actual), Self.middle(of: golden))
    }

    /// The middle of `image` (all of it when smaller), every channel kept.
    static func middle(of image: RasterImage) -> RasterImage {
        let (w, h) = (min(middle.width, image.width), min(middle.height, image.height))
        let (x0, y0) = ((image.width - w) / 2, (image.height - h) / 2)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(w * h * image.channels)
        for y in y0..<(y0 + h) {
            for x in x0..<(x0 + w) { bytes.append(contentsOf: image[x, y]) }
        }
        return RasterImage(width: w, height: h, channels: image.channels, bytes: bytes) ?? image
    }
}

enum Goldens {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Goldens")

    /// `VIEWFINDER_UPDATE_GOLDENS=1` writes new goldens instead of comparing (look at each before
    /// committing it).
    static let updating = ProcessInfo.processInfo.environment["VIEWFINDER_UPDATE_GOLDENS"] == "1"

    /// The font every golden was drawn in: fontconfig's "Sans" must be DejaVu Sans
    /// (fonts-dejavu-core, which scripts/install-deps installs), or the text would differ.
    static func sansIsDejaVu() throws -> String {
        let match = try Subprocess.run("fc-match", ["Sans"])
        return match.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Compares the screenshot at `shot` with the golden `name`.png (or replaces the golden).
    static func compare(_ shot: URL, with name: String) throws -> GoldenVerdict {
        let golden = folder.appendingPathComponent("\(name).png")
        if updating {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            _ = try? FileManager.default.removeItem(at: golden)
            try FileManager.default.copyItem(at: shot, to: golden)
        }
        return GoldenVerdict(try StudioHarness.pixels(of: shot), try StudioHarness.pixels(of: golden))
    }
}
