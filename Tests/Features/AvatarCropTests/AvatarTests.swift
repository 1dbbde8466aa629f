import Foundation
import Imaging
import Testing
import ViewfinderCore
import ViewfinderTestSupport

@testable import AvatarCrop

/// Mean absolute difference per channel value between two pictures of the same size.
func meanDifference(_ a: RasterImage, _ b: RasterImage) -> Double {
    let n = min(a.bytes.count, b.bytes.count)
    var total = 0
    for i in 0..<n { total += abs(Int(a.bytes[i]) - Int(b.bytes[i])) }
    return Double(total) / Double(max(n, 1))
}

@Suite("Avatars from photos")
struct AvatarTests {
    static let orientations = TestPaths.media.appendingPathComponent("exif_orientation")

    @Test("every EXIF orientation 1…8 gives the same avatar")
    func orientations() throws {
        var avatars: [RasterImage] = []
        for value in 1...8 {
            let photo = try Photo(url: Self.orientations.appendingPathComponent("Landscape_\(value).jpg"))
            #expect(photo.size == PixelSize(width: 1800, height: 1200))
            let spec = CropSpec.centred(imageSize: photo.size, shape: .square, outputSide: 128, zoom: 1.5,
                                        center: Point(x: 700, y: 500))
            avatars.append(try AvatarMaker.render(photo, spec))
        }
        for (i, avatar) in avatars.enumerated() {
            #expect(avatar.size == PixelSize(width: 128, height: 128))
            #expect(meanDifference(avatar, avatars[0]) < 3, "orientation \(i + 1) differs by \(meanDifference(avatar, avatars[0]))")
        }
        // And the crop is really off-centre: a different centre gives a different picture.
        let photo = try Photo(url: Self.orientations.appendingPathComponent("Landscape_1.jpg"))
        let other = try AvatarMaker.render(photo, CropSpec.centred(imageSize: photo.size, shape: .square, outputSide: 128,
                                                                   zoom: 1.5, center: Point(x: 1100, y: 700)))
        #expect(meanDifference(other, avatars[0]) > 10)
    }

    @Test("a circle is transparent in the corners, opaque in the middle, soft at the edge")
    func circleAlpha() throws {
        let photo = try Photo(url: TestPaths.media.appendingPathComponent("images/progressive_canon350d.jpg"))
        let spec = CropSpec.centred(imageSize: photo.size, shape: .circle, outputSide: 200)
        let avatar = try AvatarMaker.render(photo, spec)
        #expect(avatar.channels == 4)
        #expect(avatar.size == PixelSize(width: 200, height: 200))
        for (x, y) in [(0, 0), (199, 0), (0, 199), (199, 199), (20, 20)] {
            #expect(avatar[x, y].last == 0, "corner (\(x), \(y))")
        }
        for (x, y) in [(100, 100), (100, 5), (5, 100), (60, 60)] {
            #expect(avatar[x, y].last == 255, "inside (\(x), \(y))")
        }
        // Along the edge alpha takes intermediate values (antialiasing), and the colour there is
        // the photo's own colour, not darkened: compare with the square crop.
        let square = try AvatarMaker.render(photo, CropSpec(imageSize: spec.imageSize, rect: spec.rect, shape: .square,
                                                            outputSize: spec.outputSize))
        var partial = 0
        for y in 0..<200 {
            for x in 0..<200 {
                let a = avatar[x, y].last ?? 0
                if a > 0 && a < 255 {
                    partial += 1
                    #expect(Array(avatar[x, y].prefix(3)) == Array(square[x, y].prefix(3)))
                }
            }
        }
        #expect(partial > 300 && partial < 1600, "\(partial) edge pixels")
    }

    @Test("a photo with alpha keeps clean colour at transparent edges (premultiplied resampling)")
    func alphaSource() throws {
        let photo = try Photo(url: TestPaths.media.appendingPathComponent("images/png_rgba_alpha_rose.png"))
        let avatar = try AvatarMaker.render(photo, CropSpec.centred(imageSize: photo.size, shape: .square, outputSide: 64))
        #expect(avatar.channels == 4)
        // No pixel that is mostly opaque may be darker than its darkest opaque neighbours would allow:
        // a dark fringe shows as near-black colour under partial alpha.
        var fringe = 0
        for y in 0..<64 {
            for x in 0..<64 {
                let p = avatar[x, y]
                let alpha = Int(p.last ?? 0)
                if alpha > 32 && alpha < 224 && p.prefix(3).allSatisfy({ $0 < 8 }) { fringe += 1 }
            }
        }
        #expect(fringe == 0)
    }

    @Test("sizes are exact", arguments: [16, 17, 100, 511, 512, 1000])
    func sizes(_ side: Int) throws {
        let photo = try Photo(url: TestPaths.media.appendingPathComponent("images/exif_orient6_samsung_galaxyS.jpg"))
        let avatar = try AvatarMaker.render(photo, CropSpec.centred(imageSize: photo.size, shape: .circle, outputSide: side))
        #expect(avatar.size == PixelSize(width: side, height: side))
    }

    @Test("photos of many kinds decode upright in sRGB", arguments: [
        "images/cmyk_photo_with_icc.jpg", "images/cmyk_multiple_icc_segments.jpg", "images/png16_rgb_flag.png",
        "images/png16_grey_alpha.png", "images/webp_lossy_photo.webp", "images/webp_lossless_alpha_rose.webp",
        "images/iphone11pro_IMG_2927.HEIC", "images/progressive_beach_icc.jpg", "images/webp_animated_lossy_101frames.webp",
    ])
    func kinds(_ name: String) throws {
        let photo = try Photo(url: TestPaths.media.appendingPathComponent(name))
        let avatar = try AvatarMaker.render(photo, CropSpec.centred(imageSize: photo.size, shape: .square, outputSide: 48))
        #expect(avatar.size == PixelSize(width: 48, height: 48))
        #expect(avatar.channels == 3 || avatar.channels == 4)
        // A real picture, not a flat fill.
        let values = Set(stride(from: 0, to: avatar.bytes.count, by: 7).map { avatar.bytes[$0] })
        #expect(values.count > 8, "\(name) looks flat")
    }

    @Test("the Dutch flag stays red, white and blue after 16-bit to 8-bit conversion")
    func colour() throws {
        let photo = try Photo(url: TestPaths.media.appendingPathComponent("images/png16_rgb_flag.png"))
        let picture = try photo.preview(fitting: PixelSize(width: 90, height: 90))
        let top = Array(picture[picture.width / 2, 2].prefix(3))
        let bottom = Array(picture[picture.width / 2, picture.height - 3].prefix(3))
        #expect(top[0] > 150 && top[1] < 80 && top[2] < 80, "top \(top)")
        #expect(bottom[2] > 100 && bottom[0] < 80, "bottom \(bottom)")
    }

    @Test("a decompression bomb is refused before decoding")
    func bomb() throws {
        let url = TestPaths.media.appendingPathComponent("images/huge_dims_65536x65536_1bit.png")
        let started = Date()
        #expect(throws: ImagingError.tooManyPixels(path: url.path, width: 65536, height: 65536, limit: 100_000_000)) {
            try Photo(url: url)
        }
        #expect(Date().timeIntervalSince(started) < 1)
    }
}
