import Foundation
import Store
import Testing
import ViewfinderCore
import ViewfinderTestSupport

@testable import MediaLibrary

/// What is stored is what was validated: a source that changes while its bytes are copied is
/// refused, whatever the change, and nothing is left behind.
@Suite("Import of a changing file")
struct LibraryImportChangeTests {
    static let photo = TestPaths.media.appendingPathComponent("exif_orientation/Portrait_5.jpg")

    @Test("grown, shrunk, rewritten in place or touched between the copy and the last look: refused",
          arguments: ["grow", "shrink", "rewrite", "touch"])
    func changed(_ how: String) throws {
        let folder = TestPaths.scratchFolder("import-change-\(how)")
        let source = folder.appendingPathComponent("photo.jpg")
        try FileManager.default.copyItem(at: Self.photo, to: source)
        let library = try MediaLibrary(folder: folder.appendingPathComponent("Lib"))
        let path = source.path
        library.afterCopy = { _ in
            guard let handle = FileHandle(forUpdatingAtPath: path) else { return }
            defer { try? handle.close() }
            switch how {
            case "grow":
                _ = try? handle.seekToEnd()
                try? handle.write(contentsOf: Data(repeating: 0, count: 10))
            case "shrink":
                try? handle.truncate(atOffset: 9)
            case "rewrite":
                try? handle.write(contentsOf: Data(repeating: 0xFF, count: 4))
                // A rewrite of the same size: only the modification time tells.
                let later = Date().addingTimeInterval(5)
                try? FileManager.default.setAttributes([.modificationDate: later], ofItemAtPath: path)
            default:
                try? FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(60)], ofItemAtPath: path)
            }
        }
        #expect(throws: LibraryError.changedDuringImport(path: path)) { try library.importFile(source) }
        #expect(try library.assets().isEmpty)
        #expect(try library.check(repair: false, verify: true).isClean, "nothing half-imported is left")
    }

    @Test("an unchanged file imports, and its stored bytes are the ones validated")
    func unchanged() throws {
        let library = try MediaLibrary(folder: TestPaths.scratchFolder("import-unchanged").appendingPathComponent("Lib"))
        let asset = try library.importFile(Self.photo).asset
        #expect(try Data(contentsOf: library.originalURL(of: asset)) == Data(contentsOf: Self.photo))
        #expect(asset.byteSize == Int64(try Data(contentsOf: Self.photo).count))
        #expect(try library.check(repair: false, verify: true).isClean)
    }
}
