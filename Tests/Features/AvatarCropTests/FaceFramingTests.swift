import Faces
import Foundation
import Imaging
import Testing
import ViewfinderCore
import ViewfinderTestSupport

@testable import AvatarCrop

/// A portrait pasted into large landscapes at known places, so that where its face is, is known
/// exactly, and the photos with no face in them that serve as the landscapes.
enum FacePlacements {
    /// The astronaut's face in scikit-image's 512×512 `astronaut.png`, measured by eye on a
    /// grid: cheek to cheek and hairline to chin.
    static let face = Rect(x: 172, y: 75, width: 106, height: 103)
    /// The points of the hair that must be in the avatar too: its top and its widest points.
    static let hair = [Point(x: 225, y: 15), Point(x: 152, y: 90), Point(x: 300, y: 90)]

    static var portrait: URL { TestPaths.skimageData.appendingPathComponent("astronaut.png") }

    /// Photos without a face (checked by eye), from the corpus and scikit-image.
    static var landscapes: [URL] {
        [TestPaths.media.appendingPathComponent("images/exif_orient3_iphone5.jpg"),
         TestPaths.media.appendingPathComponent("images/progressive_beach_icc.jpg"),
         TestPaths.media.appendingPathComponent("exif_orientation/Landscape_1.jpg"),
         TestPaths.skimageData.appendingPathComponent("coffee.png"),
         TestPaths.skimageData.appendingPathComponent("rocket.jpg"),
         TestPaths.skimageData.appendingPathComponent("motorcycle_left.png")]
    }

    /// `picture` pasted into `canvas` with its top-left corner at (x, y).
    static func paste(_ picture: RasterImage, into canvas: inout RasterImage, x: Int, y: Int) {
        let rowBytes = picture.width * 3
        let canvasWidth = canvas.width
        canvas.withMutableBytes { out in
            picture.bytes.withUnsafeBufferPointer { src in
                for row in 0..<picture.height {
                    let to = ((y + row) * canvasWidth + x) * 3
                    for i in 0..<rowBytes { out[to + i] = src[row * rowBytes + i] }
                }
            }
        }
    }

    /// A `size` JPEG of landscape `index` with the portrait pasted in at `scale` × 512 pixels
    /// and at (x, y); returns where the face and head are in it.
    static func make(at url: URL, size: PixelSize, landscape index: Int, scale: Double, x: Int, y: Int) throws -> (face: Rect, hair: [Point]) {
        let background = try Photo(url: landscapes[index % landscapes.count])
        var canvas = try background.render(x: 0, y: 0, width: Double(background.size.width),
                                           height: Double(background.size.height), to: size)
        let side = Int((512 * scale).rounded())
        let person = try Photo(url: portrait).render(x: 0, y: 0, width: 512, height: 512,
                                                     to: PixelSize(width: side, height: side))
        let k = Double(person.width) / 512
        paste(person, into: &canvas, x: x, y: y)
        try ImageEncoder.write(canvas, to: url, quality: 92)
        func place(_ r: Rect) -> Rect {
            Rect(x: Double(x) + r.minX * k, y: Double(y) + r.minY * k, width: r.width * k, height: r.height * k)
        }
        return (place(face), hair.map { Point(x: Double(x) + $0.x * k, y: Double(y) + $0.y * k) })
    }
}

@Suite("Avatars start on the face")
struct FaceFramingTests {
    /// Whether the circle inscribed in `crop` holds every one of `points`.
    func circle(_ crop: Rect, holds points: [Point]) -> Bool {
        points.allSatisfy {
            let dx = $0.x - crop.midX, dy = $0.y - crop.midY
            return (dx * dx + dy * dy).squareRoot() <= crop.width / 2
        }
    }

    /// The corners of `box`.
    func corners(_ box: Rect) -> [Point] {
        [Point(x: box.minX, y: box.minY), Point(x: box.maxX, y: box.minY),
         Point(x: box.minX, y: box.maxY), Point(x: box.maxX, y: box.maxY)]
    }

    @Test("a face anywhere in a large landscape: the circle holds the face and the hair in ≥ 95 % of 40 placements")
    func placements() throws {
        let folder = TestPaths.scratchFolder("faces")
        defer { try? FileManager.default.removeItem(at: folder) }
        var random = SplitMix64(seed: 31)
        let size = PixelSize(width: 2400, height: 1800)
        var held = 0, misses: [String] = []
        for i in 0..<40 {
            // The portrait's height is 40–100 % of the short side: the face 8–20 % of it.
            let scale = Double(size.height) * Double.random(in: 0.4...1.0, using: &random) / 512
            let side = Int((512 * scale).rounded())
            let x = Int.random(in: 0...(size.width - side), using: &random)
            let y = Int.random(in: 0...(size.height - side), using: &random)
            let url = folder.appendingPathComponent("placed-\(i).jpg")
            let truth = try FacePlacements.make(at: url, size: size, landscape: i, scale: scale, x: x, y: y)
            let photo = try Photo(url: url)
            let spec = try FaceFraming.startingCrop(for: photo, shape: .circle, outputSide: 256, centre: .auto)
            #expect(try spec.validated() == spec)
            let minimumZoomKept = spec.rect.width <= Double(size.height) + 1e-6
            if spec.framing?.kind == .face, circle(spec.rect, holds: corners(truth.face) + truth.hair), minimumZoomKept {
                held += 1
                // Not so loose that the face is lost in it: hair to chin is over half the circle.
                let head = truth.face.maxY - truth.hair[0].y
                #expect(head / spec.rect.height > 0.5, "placement \(i): the head is small in the circle")
            } else {
                misses.append("\(i): \(spec.framing?.kind.rawValue ?? "none") crop \(spec.rect) face \(truth.face)")
            }
        }
        #expect(held >= 38, "the circle held the head in \(held) of 40: \(misses)")
        print("face placements: the circle held the face and hair in \(held) of 40")
    }

    @Test("photos without a face keep the centred crop")
    func noFace() throws {
        for url in FacePlacements.landscapes {
            let photo = try Photo(url: url)
            let spec = try FaceFraming.startingCrop(for: photo, shape: .circle, outputSide: 256, centre: .auto)
            let middle = CropSpec.centred(imageSize: photo.size, shape: .circle, outputSide: 256)
            #expect(spec.rect == middle.rect, "\(url.lastPathComponent)")
            #expect(spec.framing == CropFraming(.middle, note: "no face found"), "\(url.lastPathComponent)")
            #expect(throws: AvatarFramingError.noFace(path: url.path)) {
                try FaceFraming.startingCrop(for: photo, shape: .circle, outputSide: 256, centre: .face)
            }
        }
    }

    @Test("EXIF-rotated and mirrored portraits are searched upright")
    func upright() throws {
        // Grace Hopper's portrait stored mirrored (2), upside down mirrored (4), and turned by a
        // quarter both ways (5, 7): the frontal detector finds no face in a sideways picture,
        // so finding one means the photo was turned upright first.
        var boxes: [Rect] = []
        for orientation in [2, 4, 5, 7] {
            let photo = try Photo(url: TestPaths.media.appendingPathComponent("images/exif_orient\(orientation)_hopper.jpg"))
            let faces = try FaceFraming.faces(in: photo)
            let face = try #require(faces.mostProminent(in: photo.size), "orientation \(orientation)")
            boxes.append(face.bounds)
        }
        // Upright, the face is in the upper middle of the picture, and the same place every time
        // (mirroring only moves it left or right of the middle line, by a few pixels here).
        for (box, orientation) in zip(boxes, [2, 4, 5, 7]) {
            #expect(box.midY < 64 && abs(box.midX - 64) < 12, "orientation \(orientation): \(box)")
            #expect(abs(box.midY - boxes[0].midY) < 6 && abs(box.width - boxes[0].width) < 10, "orientation \(orientation): \(box) vs \(boxes[0])")
        }
    }

    @Test("the most prominent face is the large, central, clear one")
    func prominence() {
        let size = PixelSize(width: 1000, height: 800)
        let small = DetectedFace(bounds: Rect(x: 480, y: 380, width: 40, height: 40), votes: 20)
        let large = DetectedFace(bounds: Rect(x: 100, y: 100, width: 160, height: 160), votes: 6)
        let faint = DetectedFace(bounds: Rect(x: 400, y: 300, width: 170, height: 170), votes: 1)
        #expect([small, large].mostProminent(in: size) == large)
        #expect([small, large, faint].mostProminent(in: size) == large)
        #expect([DetectedFace]().mostProminent(in: size) == nil)
    }

    @Test("a face too large for the framing keeps the minimum zoom and stays as near the face as it can")
    func largeFace() {
        let size = PixelSize(width: 1200, height: 900)
        let face = Rect(x: 700, y: 300, width: 500, height: 500)
        let spec = FaceFraming.crop(around: face, imageSize: size, shape: .circle, outputSide: 512)
        #expect(spec.rect.width == 900 && spec.rect.height == 900)
        #expect(spec.rect.minX == 300 && spec.rect.minY == 0)
        #expect(spec.framing == CropFraming(.face, face: face))
    }
}

@Suite("Crop editor opens on the face")
@MainActor
struct CropSessionFaceTests {
    @Test("the session opens around the face, reset returns there, and the spec says face until the crop moves")
    func opensOnFace() async throws {
        let folder = TestPaths.scratchFolder("session-face")
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("placed.jpg")
        let truth = try FacePlacements.make(at: url, size: PixelSize(width: 2000, height: 1500), landscape: 1,
                                            scale: 2, x: 1100, y: 300)
        let session = CropSession(viewportSize: Size(width: 400, height: 300), shape: .circle)
        try await session.load(url)
        let opened = try #require(session.spec())
        #expect(opened.framing?.kind == .face)
        let expected = FaceFraming.crop(around: try #require(opened.framing?.face), imageSize: opened.imageSize,
                                        shape: .circle, outputSide: 512)
        for (a, b) in [(opened.rect.minX, expected.rect.minX), (opened.rect.minY, expected.rect.minY), (opened.rect.width, expected.rect.width)] {
            #expect(abs(a - b) < 1e-6, "\(opened.rect) vs \(expected.rect)")
        }
        #expect(opened.rect.contains(truth.face))
        session.pan(by: Point(x: 30, y: 0))
        #expect(session.spec()?.framing == CropFraming(.editor))
        session.reset()
        #expect(session.spec() == opened)
        // Asked for the middle, it opens as before: the whole photo at the initial zoom.
        let middle = CropSession(viewportSize: Size(width: 400, height: 300), shape: .circle)
        try await middle.load(url, centre: .middle)
        #expect(middle.state == middle.geometry?.initialState)
        #expect(middle.spec()?.framing == CropFraming(.middle))
    }
}
