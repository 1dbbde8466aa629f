import Foundation
import Testing
import ViewfinderCore
import ViewfinderTestSupport

@testable import Imaging

@Suite("Photos")
struct PhotoTests {
    /// The corpus' photo of one scene under every EXIF orientation (0–8).
    static let oriented = TestPaths.mediaFiles(in: "exif_orientation").filter { $0.pathExtension == "jpg" }

    @Test("the editor's preview of every EXIF orientation decodes upright and alike (3 and 4 once failed with 'out of order read')",
          arguments: ["Landscape", "Portrait"])
    func previews(_ kind: String) throws {
        let files = Self.oriented.filter { $0.lastPathComponent.hasPrefix(kind) }
        try #require(files.count == 9)
        let box = PixelSize(width: 480, height: 480)
        let pictures = try files.map { try Photo(url: $0).preview(fitting: box) }
        let reference = pictures[1]   // orientation 1: stored upright
        for (file, picture) in zip(files, pictures) {
            #expect(picture.size == reference.size, "\(file.lastPathComponent)")
            // Same scene, same way up: the mean difference per channel stays small.
            var total = 0
            for (a, b) in zip(picture.bytes, reference.bytes) { total += abs(Int(a) - Int(b)) }
            let mean = Double(total) / Double(max(1, picture.bytes.count))
            #expect(mean < 12, "\(file.lastPathComponent) differs by \(mean) per channel from the upright one")
        }
    }
    @Test("the pixel budget holds for what a decode holds: a JPEG shrunk on load fits, a full decode of it or a PNG does not")
    func decodeBudget() throws {
        let folder = TestPaths.scratchFolder("photo-budget")
        let jpeg = folder.appendingPathComponent("p.jpg"), png = folder.appendingPathComponent("p.png")
        let picture = FrameIndexPattern.render(index: 5, size: PixelSize(width: 400, height: 400))
        try ImageEncoder.write(picture, to: jpeg)
        try ImageEncoder.write(picture, to: png)
        // 400×400 is 160 000 pixels; shrunk 8× on load a JPEG decode holds 50×50 = 2 500.
        let budget: Int64 = 10_000
        let photo = try Photo(url: jpeg, maxPixels: budget)
        let small = try photo.preview(fitting: PixelSize(width: 50, height: 50))
        #expect(small.size == PixelSize(width: 50, height: 50))
        #expect(throws: ImagingError.tooManyPixels(path: jpeg.path, width: 400, height: 400, limit: budget)) {
            try photo.render(x: 0, y: 0, width: 100, height: 100, to: PixelSize(width: 100, height: 100))
        }
        #expect(throws: ImagingError.tooManyPixels(path: png.path, width: 400, height: 400, limit: budget)) {
            try Photo(url: png, maxPixels: budget)
        }
        #expect(Photo.decodedArea(PixelSize(width: 20000, height: 14000), shrink: 8) == 2500 * 1750)
        #expect(Photo.decodedArea(PixelSize(width: 401, height: 3), shrink: 8) == 51 * 1)
    }
}
