import Foundation
import Imaging
import MediaIO
import Store
import Testing
import ViewfinderCore
import ViewfinderTestSupport

@testable import MediaLibrary

@Suite("Media library")
struct MediaLibraryTests {
    static let media = TestPaths.media

    func library() throws -> MediaLibrary {
        try MediaLibrary(folder: TestPaths.scratchFolder("library").appendingPathComponent("Library"))
    }

    @Test("invalid data is refused, not stored and not listed")
    func invalidData() throws {
        let lib = try library()
        for name in ["broken/jpeg_truncated.jpg", "broken/png_broken_80bytes.png", "video_features/audioonly_alac.m4a"] {
            #expect(throws: LibraryError.self, "\(name)") { try lib.importFile(Self.media.appendingPathComponent(name)) }
        }
        let text = TestPaths.scratchFolder("text").appendingPathComponent("a.jpg")
        try Data("not a photo".utf8).write(to: text)
        let refusal = #expect(throws: LibraryError.self) { try lib.importFile(text) }
        #expect(refusal?.description.hasPrefix("Invalid data:") == true)
        #expect(try lib.assets().isEmpty)
        #expect(try lib.check(repair: false).isClean, "no stray files either")
    }

    @Test("metadata, creation-date order (EXIF, container, file date) and de-duplication")
    func orderAndMetadata() throws {
        let lib = try library()
        let heic = try lib.importFile(Self.media.appendingPathComponent("images/iphoneXR_orient6.heic"))  // EXIF 2019-08-21
        let mov = try lib.importFile(Self.media.appendingPathComponent("phone_video/iphone6s_h264_rot90_ios9.mov"))  // 2016-02-02
        #expect(heic.isNew && mov.isNew)
        #expect(heic.asset.kind == .photo && heic.asset.size == PixelSize(width: 3024, height: 4032) && heic.asset.duration == nil)
        #expect(mov.asset.kind == .video && mov.asset.size == PixelSize(width: 720, height: 1280))
        #expect(mov.asset.duration == MediaTime(value: 7, timescale: 15))
        let dates = ISO8601DateFormatter()
        #expect(dates.string(from: heic.asset.creationDate) == "2019-08-21T11:21:36Z")
        #expect(dates.string(from: mov.asset.creationDate) == "2016-02-02T17:51:27Z")
        // A file with no date at all gets its modification time.
        let copy = TestPaths.scratchFolder("nodate").appendingPathComponent("plain.jpg")
        try FileManager.default.copyItem(at: Self.media.appendingPathComponent("exif_orientation/Landscape_1.jpg"), to: copy)
        let old = Date(timeIntervalSince1970: 1_000_000_000)  // 2001-09-09
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: copy.path)
        let plain = try lib.importFile(copy)
        #expect(plain.asset.creationDate == old)

        #expect(try lib.assets(FetchRequest(order: .newestFirst)).map(\.id) == [heic.asset.id, mov.asset.id, plain.asset.id])
        #expect(try lib.assets(FetchRequest(order: .oldestFirst)).map(\.id) == [plain.asset.id, mov.asset.id, heic.asset.id])
        // By the names the files came with: iphone6s…mov, iphoneXR…heic, plain.jpg.
        #expect(try lib.assets(FetchRequest(order: .byName)).map(\.id) == [mov.asset.id, heic.asset.id, plain.asset.id])
        #expect(try lib.assets(FetchRequest(group: .videos)).map(\.id) == [mov.asset.id])
        #expect(try lib.assets(FetchRequest(kinds: [.photo], limit: 1, offset: 1)).map(\.id) == [plain.asset.id])

        let again = try lib.importFile(Self.media.appendingPathComponent("images/iphoneXR_orient6.heic"))
        #expect(!again.isNew && again.asset.id == heic.asset.id)
        #expect(try lib.assets().count == 3)
    }

    @Test("albums: create, rename, add, remove, delete; an asset in several albums")
    func albums() throws {
        let lib = try library()
        let a = try lib.importFile(Self.media.appendingPathComponent("exif_orientation/Portrait_3.jpg")).asset
        let b = try lib.importFile(Self.media.appendingPathComponent("exif_orientation/Portrait_5.jpg"), album: "Trip").asset
        try lib.createAlbum("Family")
        try lib.add([a.id, b.id], toAlbum: "Family")
        #expect(try lib.albums() == [Album(name: "Family", count: 2), Album(name: "Trip", count: 1)])
        #expect(throws: LibraryError.albumExists("Trip")) { try lib.createAlbum("Trip") }
        try lib.renameAlbum("Trip", to: "Holiday")
        try lib.remove([a.id], fromAlbum: "Family")
        #expect(try lib.assets(FetchRequest(group: .album("Family"))).map(\.id) == [b.id])
        #expect(try lib.assets(FetchRequest(group: .album("Holiday"))).map(\.id) == [b.id])
        try lib.deleteAlbum("Family")
        #expect(throws: LibraryError.noSuchAlbum("Family")) { try lib.deleteAlbum("Family") }
        #expect(try lib.assets().count == 2, "deleting an album keeps its assets")
        #expect(throws: LibraryError.invalidName("   ")) { try lib.createAlbum("   ") }
        #expect(throws: LibraryError.noSuchAsset(999)) { try lib.add([999], toAlbum: "Holiday") }
    }

    @Test("thumbnails fit or fill their box; exact and fast sizes", arguments: [ThumbnailContentMode.fit, .fill])
    func thumbnails(_ mode: ThumbnailContentMode) throws {
        let lib = try library()
        let photo = try lib.importFile(Self.media.appendingPathComponent("exif_orientation/Landscape_6.jpg")).asset
        let video = try lib.importFile(Self.media.appendingPathComponent("phone_video/iphone4s_h264_rot90_vfr_sideways.mov")).asset
        let box = PixelSize(width: 120, height: 120)
        for asset in [photo, video] {
            let url = try lib.thumbnail(asset, size: box, mode: mode)
            let info = try #require(try ImageInfo.probe(url))
            let expected = mode == .fill ? box : asset.size.fitting(in: box)
            #expect(info.storedSize == expected, "\(asset.kind) \(mode)")
        }
        let fast = try #require(try ImageInfo.probe(try lib.thumbnail(photo, size: PixelSize(width: 200, height: 200), resize: .fast)))
        #expect(fast.storedSize.width >= 200 && fast.storedSize.width <= 400)
        try lib.delete(id: photo.id)
        #expect(try FileManager.default.contentsOfDirectory(atPath: lib.thumbnailFolder.path).allSatisfy { !$0.hasPrefix("\(photo.id)-") })
    }

    @Test("chunked reads and exports equal the original byte for byte", arguments: [1024, 7, 1 << 20])
    func originals(_ chunk: Int) async throws {
        let lib = try library()
        let source = Self.media.appendingPathComponent("phone_video/iphone6s_h264_rot90_ios9.mov")
        let asset = try lib.importFile(source).asset
        let original = try Data(contentsOf: source)
        var hasher = SHA256()
        var count = 0
        for try await piece in lib.chunks(of: asset, size: chunk) {
            #expect(piece.count <= chunk)
            hasher.update(piece)
            count += piece.count
        }
        #expect(count == original.count)
        #expect(hasher.finalize() == SHA256.hex(of: original))
        #expect(asset.contentHash == SHA256.hex(of: original))
        #expect(try lib.read(asset, offset: 100, length: 50) == original[100..<150])
        let out = TestPaths.scratchFolder("export").appendingPathComponent("copy.mov")
        try lib.export(asset, to: out)
        #expect(try Data(contentsOf: out) == original)
    }

    @Test("a read-only library opens for reading and refuses changes")
    func readOnly() throws {
        let lib = try library()
        let asset = try lib.importFile(Self.media.appendingPathComponent("exif_orientation/Portrait_2.jpg")).asset
        let reader = try MediaLibrary(folder: lib.folder, readOnly: true)
        #expect(try reader.assets().map(\.id) == [asset.id])
        #expect(throws: LibraryError.permissionDenied(path: lib.folder.path)) {
            try reader.importFile(Self.media.appendingPathComponent("exif_orientation/Portrait_4.jpg"))
        }
        #expect(throws: LibraryError.permissionDenied(path: lib.folder.path)) { try reader.delete(id: asset.id) }
        #expect(throws: LibraryError.permissionDenied(path: lib.folder.path)) { try reader.createAlbum("X") }
    }

    @Test("check removes what a crash can leave: orphan files, rows without files, partial imports")
    func check() throws {
        let lib = try library()
        let kept = try lib.importFile(Self.media.appendingPathComponent("exif_orientation/Portrait_7.jpg")).asset
        let lost = try lib.importFile(Self.media.appendingPathComponent("exif_orientation/Portrait_8.jpg")).asset
        try FileManager.default.removeItem(at: lib.originalURL(of: lost))
        let orphan = lib.folder.appendingPathComponent("originals/ff/ff00.jpg")
        try FileManager.default.createDirectory(at: orphan.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("x".utf8).write(to: orphan)
        let partial = lib.folder.appendingPathComponent(".incoming/123.partial")
        try Data("y".utf8).write(to: partial)
        let report = try lib.check()
        #expect(report.orphanFiles == ["originals/ff/ff00.jpg"])
        #expect(report.missingFiles == [lost.id])
        #expect(report.partialImports == 1)
        #expect(try lib.check().isClean)
        #expect(try lib.assets().map(\.id) == [kept.id])
    }

    @Test("paging stays on an index with 100 000 assets")
    func paging() throws {
        let lib = try library()
        try lib.database.transaction {
            let insert = try lib.database.prepare("""
                INSERT INTO assets (kind, creation_date, import_date, width, height, original_filename, byte_size, content_hash, path)
                VALUES (?, ?, 0, 1, 1, 'x', 1, ?, ?)
                """)
            for i in 0..<100_000 {
                try insert.run([.text(i % 3 == 0 ? "video" : "photo"), .double(Double(i % 5000)), .text("h\(i)"), .text("p\(i)")])
            }
        }
        for request in [FetchRequest(limit: 200), FetchRequest(group: .videos, order: .oldestFirst, limit: 200, offset: 400),
                        FetchRequest(kinds: [.photo], limit: 200)] {
            let (sql, values) = Catalogue.fetch(request)
            let plan = try lib.database.prepare("EXPLAIN QUERY PLAN " + sql)
            try plan.bind(values)
            var steps: [String] = []
            while try plan.step() { steps.append(plan.text(3)) }
            #expect(steps.allSatisfy { !$0.contains("USE TEMP B-TREE") }, "\(steps)")
            #expect(steps.contains { $0.contains("USING INDEX") }, "\(steps)")
            let page = try lib.assets(request)
            #expect(page.count == 200)
            let dates = page.map(\.creationDate)
            #expect(dates == (request.order == .newestFirst ? dates.sorted(by: >) : dates.sorted()))
        }
    }
}

@Suite("Catalogue metadata")
struct CatalogueMetadataTests {
    @Test("imported photos and videos keep their metadata in the catalogue, as read from the file")
    func stored() throws {
        let lib = try MediaLibrary(folder: TestPaths.scratchFolder("meta-lib").appendingPathComponent("Library"))
        let photo = TestPaths.media.appendingPathComponent("images/exif_orient3_iphone5.jpg")
        let video = TestPaths.media.appendingPathComponent("phone_video/android601_h264_1080p_gps.mp4")
        let storedPhoto = try lib.importFile(photo).asset
        let storedVideo = try lib.importFile(video).asset
        #expect(storedPhoto.metadata == (try PhotoMetadata.read(photo)))
        #expect(storedVideo.metadata == (try probeMedia(at: video).metadata))
        #expect(storedPhoto.metadata.model == "iPhone 5")
        #expect(storedVideo.metadata.location == CaptureMetadata.Location(latitude: 51.4169, longitude: -0.0806))
        let again = try MediaLibrary(folder: lib.folder).assets()
        #expect(Set(again.map(\.metadata.location?.latitude)) == [storedPhoto.metadata.location?.latitude, 51.4169])
    }

    @Test("a catalogue made before posters and metadata is migrated: columns and indexes added, old rows keep none")
    func migrates() throws {
        let folder = TestPaths.scratchFolder("meta-old").appendingPathComponent("Library")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        do {
            let old = try Database(path: folder.appendingPathComponent("catalogue.sqlite").path)
            try old.execute("""
                CREATE TABLE assets (id INTEGER PRIMARY KEY, kind TEXT NOT NULL CHECK (kind IN ('photo', 'video')),
                    creation_date REAL NOT NULL, import_date REAL NOT NULL, width INTEGER NOT NULL, height INTEGER NOT NULL,
                    duration_value INTEGER, duration_scale INTEGER, original_filename TEXT NOT NULL, byte_size INTEGER NOT NULL,
                    content_hash TEXT NOT NULL UNIQUE, path TEXT NOT NULL UNIQUE, source TEXT NOT NULL DEFAULT 'import');
                INSERT INTO assets (kind, creation_date, import_date, width, height, original_filename, byte_size, content_hash, path)
                    VALUES ('photo', 1000, 2000, 4, 3, 'old.jpg', 10, 'abc', 'originals/ab/abc.jpg');
                """)
        }
        let lib = try MediaLibrary(folder: folder)
        let old = try #require(try lib.assets().first)
        #expect(old.originalFilename == "old.jpg" && old.metadata.isEmpty && old.posterTime == nil)
        let photo = try lib.importFile(TestPaths.media.appendingPathComponent("images/exif_orient3_iphone5.jpg")).asset
        #expect(photo.metadata.model == "iPhone 5")
        let check = try Database(path: folder.appendingPathComponent("catalogue.sqlite").path)
        let indexes = try check.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'assets' ORDER BY name")
        var names: [String] = []
        while try indexes.step() { names.append(indexes.text(0)) }
        #expect(names.contains("assets_by_place") && names.contains("assets_by_capture_date"), "\(names)")
        let plan = try check.prepare("EXPLAIN QUERY PLAN SELECT id FROM assets WHERE latitude BETWEEN 47 AND 48 AND longitude BETWEEN -123 AND -122")
        var steps: [String] = []
        while try plan.step() { steps.append(plan.text(3)) }
        #expect(steps.contains { $0.contains("assets_by_place") }, "\(steps)")
        // Opening it again changes nothing.
        #expect(try MediaLibrary(folder: folder).assets().count == 2)
    }
}
