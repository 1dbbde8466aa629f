import Foundation
import Imaging
import MediaIO
import Testing
import ViewfinderCore
import ViewfinderTestSupport

@testable import MediaLibrary

/// A video's poster in the library: the chosen cover, else the embedded one, else the best
/// suggested frame — never the black frame a clip opens on.
@Suite("Library posters")
struct PosterTests {
    static func library(_ name: String) throws -> MediaLibrary {
        try MediaLibrary(folder: TestPaths.scratchFolder(name).appendingPathComponent("Library"))
    }

    static func ffmpeg(_ arguments: [String]) throws {
        let made = try Subprocess.run("ffmpeg", ["-v", "error", "-y"] + arguments)
        guard made.status == 0 else { throw SubprocessError.failed("ffmpeg", made.stderr) }
    }

    /// Mean luma (0…1) of a thumbnail file.
    static func brightness(_ url: URL) throws -> Double {
        let photo = try Photo(url: url)
        let picture = try photo.preview(fitting: photo.size)
        var sum = 0.0, n = 0.0
        for y in 0..<picture.height {
            for x in 0..<picture.width {
                let p = picture[x, y]
                sum += (0.2126 * Double(p[p.startIndex]) + 0.7152 * Double(p[p.startIndex + 1]) + 0.0722 * Double(p[p.startIndex + 2])) / 255
                n += 1
            }
        }
        return sum / n
    }

    /// The RGB pixels of a decoded image.
    static func rgb(_ image: RasterImage) -> PixelBuffer {
        var picture = PixelBuffer(width: image.width, height: image.height)
        for y in 0..<image.height {
            for x in 0..<image.width {
                let p = image[x, y]
                picture[x, y] = RGB(p[p.startIndex], p[p.startIndex + min(1, image.channels - 1)], p[p.startIndex + min(2, image.channels - 1)])
            }
        }
        return picture
    }

    @Test("a clip that opens on 2 s of black gets a poster that is not black")
    func notBlack() throws {
        let folder = TestPaths.scratchFolder("poster-black")
        let clip = folder.appendingPathComponent("dark-start.mp4")
        try Self.ffmpeg(["-f", "lavfi", "-i", "color=c=black:s=320x180:r=30:d=2", "-f", "lavfi", "-i", "testsrc2=s=320x180:r=30:d=2",
                         "-filter_complex", "[0][1]concat=n=2:v=1[v]", "-map", "[v]", "-c:v", "libx264", "-g", "30", "-pix_fmt", "yuv420p", clip.path])
        let lib = try Self.library("poster-black")
        let asset = try lib.importFile(clip).asset
        #expect(asset.posterTime == nil)
        let thumbnail = try lib.thumbnail(asset, size: PixelSize(width: 160, height: 160))
        #expect(try Self.brightness(thumbnail) > 0.2, "the grid shows a picture, not the black lead-in")
        // The grid thumbnail an import makes (the CLI's and the Studio's importer) too.
        let folder2 = TestPaths.scratchFolder("poster-black-import").appendingPathComponent("Library")
        let report = LibraryImporter(folder: folder2).run([clip], progress: Progress(totalUnitCount: 1))
        let imported = try #require(report.imported.first)
        let grid = try MediaLibrary(folder: folder2)
        let cached = folder2.appendingPathComponent("thumbnails/" + grid.thumbnailName(imported, size: PixelSize(width: 256, height: 256), mode: .fill, resize: .exact))
        #expect(FileManager.default.fileExists(atPath: cached.path), "the import made the grid thumbnail")
        #expect(try Self.brightness(cached) > 0.2, "the import's grid thumbnail is not the black lead-in")
        #expect(try FrameReader(url: clip).frame(at: .time(.zero)).image.bytes.allSatisfy { $0 < 20 }, "the clip does open on black")
    }

    @Test("a chosen cover is the exact frame in the grid, survives reopening, and can be cleared")
    func chosen() throws {
        let fixture = try FixtureFactory.shared.fixture(.h264BFrames)
        let folder = TestPaths.scratchFolder("poster-chosen")
        let lib = try MediaLibrary(folder: folder.appendingPathComponent("Library"))
        let asset = try lib.importFile(fixture.url).asset
        let box = PixelSize(width: 192, height: 108)
        let before = try lib.thumbnail(asset, size: box)
        let chosen = try lib.setPoster(of: asset, at: fixture.time(ofFrame: 30))
        #expect(chosen.posterTime == fixture.time(ofFrame: 30))
        #expect(!FileManager.default.fileExists(atPath: before.path), "the old thumbnail is gone")
        let after = try lib.thumbnail(chosen, size: box)
        let picture = try Photo(url: after).preview(fitting: box)
        #expect(FrameIndexPattern.readIndex(from: Self.rgb(picture)) == 30)

        let reopened = try MediaLibrary(folder: folder.appendingPathComponent("Library"))
        #expect(try reopened.asset(id: asset.id).posterTime == fixture.time(ofFrame: 30))
        #expect(try MediaLibrary(folder: folder.appendingPathComponent("Library"), readOnly: true).asset(id: asset.id).posterTime != nil)
        let cleared = try reopened.setPoster(of: chosen, at: nil)
        #expect(cleared.posterTime == nil)
        #expect(!FileManager.default.fileExists(atPath: after.path))
    }

    @Test("without a chosen cover, an embedded one is the poster")
    func embedded() throws {
        let fixture = try FixtureFactory.shared.fixture(.h264BFrames)
        let folder = TestPaths.scratchFolder("poster-embedded")
        let art = folder.appendingPathComponent("art.png"), clip = folder.appendingPathComponent("with-art.mp4")
        try Self.ffmpeg(["-f", "lavfi", "-i", "color=c=red:s=64x36", "-frames:v", "1", art.path])
        try Self.ffmpeg(["-i", fixture.url.path, "-i", art.path, "-map", "0", "-map", "1", "-c", "copy", "-disposition:v:1", "attached_pic", clip.path])
        #expect(try FrameReader(url: clip).info.embeddedCover == "png")
        let lib = try Self.library("poster-embedded")
        let asset = try lib.importFile(clip).asset
        let thumbnail = try Photo(url: try lib.thumbnail(asset, size: PixelSize(width: 64, height: 64)))
        #expect(thumbnail.size == PixelSize(width: 64, height: 36))
        let picture = try thumbnail.preview(fitting: thumbnail.size)
        let middle = picture[32, 18]
        #expect(middle[middle.startIndex] > 200 && middle[middle.startIndex + 1] < 40, "the red cover art")
    }

    @Test("refusals: a photo, a time past the end, a read-only library")
    func refusals() throws {
        let fixture = try FixtureFactory.shared.fixture(.h264BFrames)
        let folder = TestPaths.scratchFolder("poster-refuse")
        let lib = try MediaLibrary(folder: folder.appendingPathComponent("Library"))
        let video = try lib.importFile(fixture.url).asset
        let photo = try lib.importFile(TestPaths.media.appendingPathComponent("exif_orientation/Landscape_1.jpg")).asset
        #expect(throws: LibraryError.notAVideo(photo.id)) { try lib.setPoster(of: photo, at: .zero) }
        let late = MediaTime(seconds: 5)
        #expect(throws: LibraryError.posterOutOfRange(id: video.id, time: late, duration: MediaTime(value: 8, timescale: 5))) {
            try lib.setPoster(of: video, at: late)
        }
        let readOnly = try MediaLibrary(folder: folder.appendingPathComponent("Library"), readOnly: true)
        #expect(throws: LibraryError.permissionDenied(path: folder.appendingPathComponent("Library").path)) {
            try readOnly.setPoster(of: video, at: .zero)
        }
    }

    @Test("a catalogue made before posters gains the column, and reads read-only without it")
    func olderCatalogue() throws {
        let fixture = try FixtureFactory.shared.fixture(.h264BFrames)
        let folder = TestPaths.scratchFolder("poster-migrate").appendingPathComponent("Library")
        let id = try MediaLibrary(folder: folder).importFile(fixture.url).asset.id
        let catalogue = folder.appendingPathComponent("catalogue.sqlite").path
        let dropped = try Subprocess.run("python3", ["-c", """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            db.execute('ALTER TABLE assets DROP COLUMN poster_value')
            db.execute('ALTER TABLE assets DROP COLUMN poster_scale')
            db.commit()
            """, catalogue])
        try #require(dropped.status == 0, "\(dropped.stderr)")
        #expect(try MediaLibrary(folder: folder, readOnly: true).asset(id: id).posterTime == nil)
        let lib = try MediaLibrary(folder: folder)
        let asset = try lib.setPoster(of: try lib.asset(id: id), at: fixture.time(ofFrame: 12))
        #expect(try MediaLibrary(folder: folder, readOnly: true).asset(id: id).posterTime == asset.posterTime)
    }
}
