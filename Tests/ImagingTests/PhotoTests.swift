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
}
