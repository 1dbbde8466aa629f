import Foundation
import Imaging
import Testing
import ViewfinderCore
import ViewfinderTestSupport

@testable import AvatarCrop

@Suite("Straightened avatars")
struct AvatarRotationTests {
    static let photoURL = TestPaths.media.appendingPathComponent("exif_orientation/Landscape_6.jpg")

    /// The lowest alpha among the pixels of `picture` (inside a circle of `radius` about the
    /// middle, if given).
    static func lowestAlpha(_ picture: RasterImage, within radius: Double? = nil) -> UInt8 {
        guard picture.hasAlpha else { return 255 }
        var lowest: UInt8 = 255
        for y in 0..<picture.height {
            for x in 0..<picture.width {
                if let radius {
                    let dx = Double(x) + 0.5 - Double(picture.width) / 2, dy = Double(y) + 0.5 - Double(picture.height) / 2
                    guard (dx * dx + dy * dy).squareRoot() <= radius else { continue }
                }
                lowest = min(lowest, picture[x, y].last ?? 255)
            }
        }
        return lowest
    }

    @Test("at the minimum zoom a turned crop never shows anything past the photo's edge", arguments: [0.0, 17, 45, 90])
    func noEmptySpace(_ degrees: Double) throws {
        let photo = try Photo(url: Self.photoURL)
        // Rendered with transparency outside the photo, to see exactly where nothing of it is.
        for shape in [CropShape.square, .circle] {
            let spec = try CropSpec.centred(imageSize: photo.size, shape: shape, outputSide: 200, rotation: degrees).validated()
            let shown = try photo.render(spec.rect, turnedBy: degrees, to: spec.outputSize, outside: .transparent)
            // Every pixel centre lies inside the photo: at most the outermost corner pixels are
            // partly outside (alpha ≥ ½). A circle must be covered only inside it.
            let lowest = Self.lowestAlpha(shown, within: shape == .circle ? 99 : nil)
            #expect(lowest >= 128, "\(shape) at \(degrees)°: a pixel with alpha \(lowest)")
            // And the avatar as written is opaque wherever its outline is.
            let avatar = try AvatarMaker.render(photo, spec)
            #expect(Self.lowestAlpha(avatar, within: shape == .circle ? 98 : nil) == 255, "\(shape) at \(degrees)°")
        }
    }

    @Test("the check can fail: a square 5 % larger than the minimum at 17° shows empty corners")
    func negative() throws {
        let photo = try Photo(url: Self.photoURL)
        let spec = CropSpec.centred(imageSize: photo.size, shape: .square, outputSide: 200, rotation: 17)
        let larger = Rect(center: spec.rect.center, size: Size(width: spec.rect.width * 1.05, height: spec.rect.height * 1.05))
        let shown = try photo.render(larger, turnedBy: 17, to: spec.outputSize, outside: .transparent)
        #expect(Self.lowestAlpha(shown) == 0)
    }

    @Test("a quarter turn is the photo turned: the turned avatar is the unturned one rotated by 90°")
    func quarterTurn() throws {
        let photo = try Photo(url: Self.photoURL)
        let plain = CropSpec.centred(imageSize: photo.size, shape: .square, outputSide: 120)
        var turned = plain
        turned.rotation = 90
        let a = try AvatarMaker.render(photo, plain), b = try AvatarMaker.render(photo, turned)
        #expect(a.channels == 3 && b.channels == 3)
        // b(x, y) = a(y, 119 − x): a clockwise quarter turn.
        var total = 0
        for y in 0..<120 { for x in 0..<120 {
            let p = b[x, y], q = a[y, 119 - x]
            for c in 0..<3 { total += abs(Int(p[p.startIndex + c]) - Int(q[q.startIndex + c])) }
        } }
        let mean = Double(total) / Double(120 * 120 * 3)
        #expect(mean < 2, "mean difference \(mean)")
    }
}
