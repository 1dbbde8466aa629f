import Foundation
import Imaging
import MediaIO
import Store
import Testing
import ViewfinderCore
import ViewfinderTestSupport

@testable import MediaLibrary

/// Live Photos and Motion Photos in the library: one asset of kind live each, however the files
/// arrive, and a key photo chosen from the motion.
@Suite("Library live assets")
struct LiveAssetTests {
    static let still = TestPaths.media.appendingPathComponent("images/iphone13pro_livephoto_still_small.HEIC")
    static let movie = TestPaths.media.appendingPathComponent("phone_video/iphone13pro_livephoto_companion_h264_vfr.MOV")
    static let motionPhoto = TestPaths.media.appendingPathComponent("images/motionphoto_sample_MP.heic")
    static let identifier = "9B539AB8-A668-4FA6-9207-EB653A5E7E3C"

    static func library(_ name: String) throws -> MediaLibrary {
        try MediaLibrary(folder: TestPaths.scratchFolder(name).appendingPathComponent("Library"))
    }

    /// The mean absolute difference of two same-sized pictures' RGB values (0…255).
    static func meanDifference(_ a: RasterImage, _ b: RasterImage) -> Double {
        let (x, y) = (PosterTests.rgb(a), PosterTests.rgb(b))
        var sum = 0.0
        for row in 0..<min(x.height, y.height) {
            for column in 0..<min(x.width, y.width) {
                let (p, q) = (x[column, row], y[column, row])
                sum += abs(Double(p.r) - Double(q.r)) + abs(Double(p.g) - Double(q.g)) + abs(Double(p.b) - Double(q.b))
            }
        }
        return sum / Double(3 * max(1, min(x.width, y.width) * min(x.height, y.height)))
    }

    /// What every import of the corpus pair must give: one live asset, the still's picture and
    /// name, the movie's length, both stored byte for byte.
    static func expectPair(_ lib: MediaLibrary) throws {
        let assets = try lib.assets()
        #expect(assets.count == 1, "\(assets.map(\.kind))")
        let asset = try #require(assets.first)
        #expect(asset.kind == .live)
        #expect(asset.originalFilename == still.lastPathComponent)
        #expect(asset.size == PixelSize(width: 100, height: 133), "as libvips decodes it (vipsheader says 100x133)")
        #expect(asset.contentIdentifier == identifier)
        #expect(asset.motion?.filename == movie.lastPathComponent)
        #expect(asset.duration == (try probeMedia(at: movie).duration))
        #expect(try Data(contentsOf: lib.originalURL(of: asset)) == Data(contentsOf: still))
        #expect(try Data(contentsOf: lib.movieURL(of: asset)) == Data(contentsOf: movie))
        #expect(try lib.assets(FetchRequest(kinds: [.live])).map(\.id) == [asset.id])
        #expect(try lib.assets(FetchRequest(group: .photos)).map(\.id) == [asset.id], "a Live Photo is among the photos")
        #expect(try lib.assets(FetchRequest(group: .videos)).isEmpty)
        #expect(try lib.check(repair: false, verify: true).isClean, "the motion is a stored file the check knows")
    }

    @Test("the corpus pair imported in one call is one live asset")
    func pairInOneCall() throws {
        let lib = try Self.library("live-one-call")
        let report = LibraryImporter(folder: lib.folder).run([Self.still, Self.movie], progress: Progress(totalUnitCount: 1))
        #expect(report.failures.isEmpty)
        #expect(Set(report.storedFiles.map(\.asset.id)).count == 1)
        #expect(report.imported.map(\.kind) == [.live], "one new asset, listed once")
        try Self.expectPair(lib)
    }

    @Test("still then movie, and movie then still, in two calls: one live asset, the first one's id")
    func pairInTwoCalls() throws {
        for (name, first, second) in [("live-still-first", Self.still, Self.movie), ("live-movie-first", Self.movie, Self.still)] {
            let lib = try Self.library(name)
            let one = try lib.importFile(first, thumbnail: PixelSize(width: 64, height: 64)).asset
            #expect(one.kind == (first == Self.still ? .photo : .video))
            #expect(one.contentIdentifier == Self.identifier)
            // A cover chosen for the lone movie does not become the key photo.
            if one.kind == .video { try lib.setPoster(of: one, at: MediaTime(value: 1, timescale: 2)) }
            let two = try lib.importFile(second, thumbnail: PixelSize(width: 64, height: 64))
            #expect(two.asset.posterTime == nil, "\(name): the still shows")
            #expect(two.isNew && two.asset.id == one.id && two.asset.kind == .live, "\(name)")
            try Self.expectPair(lib)
            // The grid shows the still, whichever came first.
            let cell = try lib.thumbnailImage(two.asset, size: PixelSize(width: 64, height: 64))
            let direct = try MediaLibrary.thumbnail(of: try Photo(url: Self.still), size: PixelSize(width: 64, height: 64), mode: .fill)
            #expect(cell.width == direct.width && cell.height == direct.height)
            // (The cached cell is a JPEG; the movie's own poster shows the same scene, so the cell
            // must be nearer the still than that.)
            let moviePoster = try MediaLibrary.thumbnail(of: try MediaLibrary.posterPicture(chosen: nil, from: FrameReader(url: Self.movie)),
                                                         size: PixelSize(width: 64, height: 64), mode: .fill)
            let (toStill, toMovie) = (Self.meanDifference(cell, direct), Self.meanDifference(cell, moviePoster))
            #expect(toStill < 8 && toStill < toMovie, "\(name): the cell is the still's picture (\(toStill) vs \(toMovie))")
            // Either file again is already stored.
            #expect(try !lib.importFile(first).isNew && !lib.importFile(second).isNew)
            #expect(try lib.assets().count == 1)
            // Deleting it removes both stored files.
            let motion = try lib.movieURL(of: two.asset), original = try lib.originalURL(of: two.asset)
            try lib.delete(id: one.id)
            #expect(!FileManager.default.fileExists(atPath: motion.path) && !FileManager.default.fileExists(atPath: original.path))
        }
    }

    @Test("a Motion Photo is one live asset whose motion is the MP4 inside it")
    func motionPhotoImport() throws {
        let lib = try Self.library("live-motion-photo")
        let asset = try lib.importFile(Self.motionPhoto).asset
        #expect(asset.kind == .live && asset.contentIdentifier == nil)
        #expect(asset.motion?.filename == "motionphoto_sample_MP.heic#motion.mp4")
        let bytes = try Data(contentsOf: Self.motionPhoto)
        #expect(try Data(contentsOf: lib.movieURL(of: asset)) == bytes.suffix(28803))
        #expect(asset.motion?.byteSize == 28803)
        #expect(try Data(contentsOf: lib.originalURL(of: asset)) == bytes, "the original is kept whole")
        #expect(try lib.check(repair: false, verify: true).isClean)
        // A lost motion leaves the still as a photo after a repair.
        try FileManager.default.removeItem(at: try lib.movieURL(of: asset))
        let report = try lib.check()
        #expect(report.missingMotions == [asset.id] && report.missingFiles.isEmpty)
        let kept = try lib.asset(id: asset.id)
        #expect(kept.kind == .photo && kept.motion == nil)
    }

    @Test("a catalogue whose kind CHECK predates live is rebuilt: rows, ids, albums and posters kept, live accepted; a dangling membership is dropped, not fatal",
          arguments: [false, true])
    func rebuildsOldCatalogue(_ dangling: Bool) throws {
        let folder = TestPaths.scratchFolder("live-old-catalogue-\(dangling)").appendingPathComponent("Library")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let catalogue = folder.appendingPathComponent("catalogue.sqlite").path
        do {
            // The catalogue as it was before live assets: posters and metadata, but a CHECK of two kinds.
            let old = try Database(path: catalogue)
            try old.execute("""
                CREATE TABLE assets (id INTEGER PRIMARY KEY, kind TEXT NOT NULL CHECK (kind IN ('photo', 'video')),
                    creation_date REAL NOT NULL, import_date REAL NOT NULL, width INTEGER NOT NULL, height INTEGER NOT NULL,
                    duration_value INTEGER, duration_scale INTEGER, original_filename TEXT NOT NULL, byte_size INTEGER NOT NULL,
                    content_hash TEXT NOT NULL UNIQUE, path TEXT NOT NULL UNIQUE, source TEXT NOT NULL DEFAULT 'import',
                    poster_value INTEGER, poster_scale INTEGER, make TEXT);
                CREATE TABLE albums (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
                CREATE TABLE album_assets (
                    album_id INTEGER NOT NULL REFERENCES albums (id) ON DELETE CASCADE,
                    asset_id INTEGER NOT NULL REFERENCES assets (id) ON DELETE CASCADE,
                    PRIMARY KEY (album_id, asset_id));
                INSERT INTO assets (id, kind, creation_date, import_date, width, height, duration_value, duration_scale,
                                    original_filename, byte_size, content_hash, path, poster_value, poster_scale, make)
                    VALUES (7, 'video', 1000, 2000, 4, 3, 90, 30, 'old.mp4', 10, 'abc', 'originals/ab/abc.mp4', 45, 30, 'Acme');
                INSERT INTO albums (id, name) VALUES (1, 'Trip');
                INSERT INTO album_assets VALUES (1, 7);
                """)
            if dangling {
                // A membership of an asset that is gone (foreign keys were off when it went).
                try old.execute("PRAGMA foreign_keys = OFF; INSERT INTO album_assets VALUES (1, 99)")
            }
            #expect(throws: StoreError.self) {
                try old.execute("INSERT INTO assets (kind, creation_date, import_date, width, height, original_filename, byte_size, content_hash, path) VALUES ('live', 0, 0, 1, 1, 'x', 1, 'h', 'p')")
            }
        }
        let lib = try MediaLibrary(folder: folder)
        let kept = try lib.asset(id: 7)
        #expect(kept.kind == .video && kept.originalFilename == "old.mp4" && kept.metadata.make == "Acme")
        #expect(kept.posterTime == MediaTime(value: 45, timescale: 30) && kept.duration == MediaTime(value: 3, timescale: 1))
        #expect(try lib.albums() == [Album(name: "Trip", count: 1)], "the rebuild did not cascade into album memberships")
        let live = try lib.importFile(Self.motionPhoto).asset
        #expect(live.kind == .live)
        let check = try Database(path: catalogue)
        let table = try check.prepare("SELECT sql FROM sqlite_master WHERE name = 'assets'")
        #expect(try table.step() && table.text(0).contains("'live'"))
        let indexes = try check.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'assets' ORDER BY name")
        var names: [String] = []
        while try indexes.step() { names.append(indexes.text(0)) }
        #expect(names.contains("assets_by_kind_date") && names.contains("assets_by_motion_hash"), "\(names)")
        let keys = try check.prepare("PRAGMA foreign_key_check")
        #expect(try !keys.step())
        // Opened again, nothing changes.
        #expect(try MediaLibrary(folder: folder).assets().map(\.id).sorted() == [7, live.id])
    }

    /// A JPEG Motion Photo whose MP4 draws its own frame index (the still is a plain test card).
    static func indexedMotionPhoto(in folder: URL) throws -> (url: URL, fixture: Fixture) {
        let fixture = try FixtureFactory.shared.fixture(.h264BFrames)
        let jpeg = folder.appendingPathComponent("still.jpg")
        let made = try Subprocess.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=192x108", "-frames:v", "1", jpeg.path])
        #expect(made.status == 0, "\(made.stderr)")
        let video = try Data(contentsOf: fixture.url)
        let tagged = try Subprocess.run("exiftool", ["-q", "-overwrite_original", "-XMP-GCamera:MicroVideo=1", "-XMP-GCamera:MicroVideoVersion=1",
                                                     "-XMP-GCamera:MicroVideoOffset=\(video.count)", jpeg.path])
        #expect(tagged.status == 0, "\(tagged.stderr)")
        let url = folder.appendingPathComponent("PXL_motion.MP.jpg")
        try (try Data(contentsOf: jpeg) + video).write(to: url)
        return (url, fixture)
    }

    @Test("a key photo chosen from the motion is what export writes and the grid shows; clearing restores the still")
    func keyPhoto() throws {
        let folder = TestPaths.scratchFolder("live-key-photo")
        let (url, fixture) = try Self.indexedMotionPhoto(in: folder)
        let lib = try Self.library("live-key-photo")
        let asset = try lib.importFile(url).asset
        #expect(asset.kind == .live)
        let chosen = try lib.setKeyPhoto(of: asset, at: fixture.time(ofFrame: 29))
        #expect(chosen.posterTime == fixture.time(ofFrame: 29))
        let exported = folder.appendingPathComponent("key.png")
        try lib.export(chosen, to: exported)
        let key = try Photo(url: exported)
        #expect(key.size == fixture.spec.size)
        #expect(FrameIndexPattern.readIndex(from: PosterTests.rgb(try key.preview(fitting: key.size))) == 29)
        // Without its location too: written through a hidden file beside the target, still in the
        // format the target's name asks for (the hidden name has no image extension).
        let privateKey = folder.appendingPathComponent("key-private.png")
        try lib.exportWithoutLocation(chosen, to: privateKey)
        #expect(try Data(contentsOf: privateKey).prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        let privatePhoto = try Photo(url: privateKey)
        #expect(FrameIndexPattern.readIndex(from: PosterTests.rgb(try privatePhoto.preview(fitting: privatePhoto.size))) == 29)
        let cell = try lib.thumbnailImage(chosen, size: PixelSize(width: 192, height: 108), mode: .fit)
        #expect(FrameIndexPattern.readIndex(from: PosterTests.rgb(cell)) == 29, "the grid shows the key photo")
        // It survives a reopen; the original still is kept and comes back.
        let reopened = try MediaLibrary(folder: lib.folder)
        #expect(try reopened.asset(id: asset.id).posterTime == fixture.time(ofFrame: 29))
        let restored = try reopened.setKeyPhoto(of: chosen, at: nil)
        let plain = folder.appendingPathComponent("still-again.jpg")
        try reopened.export(restored, to: plain)
        #expect(try Data(contentsOf: plain) == Data(contentsOf: url), "the original, byte for byte")
        // The original copied unchanged cannot be named as another type of file.
        let renamed = folder.appendingPathComponent("still-again.png")
        #expect(throws: LibraryError.exportChangesType(path: renamed.path, original: asset.originalFilename)) {
            try reopened.export(restored, to: renamed)
        }
        #expect(!FileManager.default.fileExists(atPath: renamed.path))
        // Only a live asset has a key photo.
        let photo = try lib.importFile(TestPaths.media.appendingPathComponent("exif_orientation/Landscape_1.jpg")).asset
        #expect(throws: LibraryError.notLive(photo.id)) { try lib.setKeyPhoto(of: photo, at: .zero) }
    }
}
