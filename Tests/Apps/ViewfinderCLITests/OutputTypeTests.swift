import Foundation
import Testing
import ViewfinderCore
import ViewfinderTestSupport

/// A file is what its name says: `.mov` is written as QuickTime, `.mp4` as MP4 (ffprobe reads the
/// brand); what cannot be both (a cover in a QuickTime file; an original copied unchanged under
/// another type's extension) is refused in one line, with nothing written.
@Suite("outputs are what their names say")
struct OutputTypeTests {
    static func brand(_ url: URL) throws -> String {
        let probe = try Subprocess.run("ffprobe", ["-v", "error", "-show_entries", "format_tags=major_brand", "-of", "csv=p=0", url.path])
        return probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("convert and trim write QuickTime for .mov and MP4 for .mp4, the same frames in both")
    func containerFollowsName() throws {
        let fixture = try FixtureFactory.shared.fixture(.h264BFrames)
        let folder = TestPaths.scratchFolder("output-type")
        for (name, brand) in [("c.mov", "qt"), ("c.mp4", "isom"), ("c.m4v", "isom")] {
            let out = folder.appendingPathComponent(name)
            let result = try viewfinder("convert", fixture.url.path, "-o", out.path, "--quiet")
            #expect(result.status == 0, "\(result.stderr)")
            #expect(try Self.brand(out) == brand, "\(name)")
        }
        for (name, brand) in [("t.mov", "qt"), ("t.mp4", "isom")] {
            let out = folder.appendingPathComponent(name)
            let result = try viewfinder("trim", fixture.url.path, "--from", "frame:15", "--to", "1.0", "-o", out.path, "--quiet")
            #expect(result.status == 0, "\(result.stderr)")
            #expect(try Self.brand(out) == brand, "\(name)")
            let count = try Subprocess.run("ffprobe", ["-v", "error", "-count_frames", "-select_streams", "v:0",
                                                       "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", out.path])
            #expect(count.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "15", "\(name)")
        }
    }

    @Test("a cover cannot go into a QuickTime file: cover --embed and convert --cover refuse .mov in one line")
    func coverNeedsMP4() throws {
        let fixture = try FixtureFactory.shared.fixture(.h264BFrames)
        let folder = TestPaths.scratchFolder("output-type-cover")
        let out = folder.appendingPathComponent("with-cover.mov")
        for arguments in [["cover", fixture.url.path, "--at", "0.5", "--embed", "-o", out.path],
                          ["convert", fixture.url.path, "--cover", "0.5", "-o", out.path]] {
            let result = try viewfinder(arguments)
            #expect(result.status == 2, "\(arguments[0]): \(result.stderr)")
            #expect(result.stderr.contains("cannot hold a cover here: name it .mp4 or .m4v"), "\(result.stderr)")
            #expect(result.stderr.split(separator: "\n").first?.hasPrefix("viewfinder") == true)
            #expect(leftovers(in: folder).isEmpty)
        }
        let mp4 = folder.appendingPathComponent("with-cover.mp4")
        #expect(try viewfinder("cover", fixture.url.path, "--at", "0.5", "--embed", "-o", mp4.path, "-q").status == 0)
    }

    @Test("library export keeps the original's type: a QuickTime original exports as .mov, byte for byte, and not as .mp4")
    func exportKeepsType() throws {
        let folder = TestPaths.scratchFolder("output-type-export")
        let movie = folder.appendingPathComponent("IMG_0001.MOV")
        let made = try Subprocess.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=160x90:r=10:d=1",
                                                 "-c:v", "libx264", "-pix_fmt", "yuv420p", "-f", "mov", movie.path])
        try #require(made.status == 0, "\(made.stderr)")
        #expect(try Self.brand(movie) == "qt")
        let library = folder.appendingPathComponent("Library").path
        let imported = try viewfinder("library", "--library", library, "import", movie.path, "-q")
        try #require(imported.status == 0, "\(imported.stderr)")
        let exports = folder.appendingPathComponent("exports")
        try FileManager.default.createDirectory(at: exports, withIntermediateDirectories: true)
        for extra in [[], ["--strip-location"]] {
            let wrong = exports.appendingPathComponent("clip.mp4")
            let refused = try viewfinder(["library", "--library", library, "export", "1", "-o", wrong.path] + extra)
            #expect(refused.status == 1, "\(refused.stderr)")
            #expect(refused.stderr == "viewfinder: clip.mp4 would not be what its name says: an export copies the original IMG_0001.MOV unchanged; give it the original's extension (.mov)\n")
            #expect(leftovers(in: exports).isEmpty)
        }
        // A name with no extension claims no type.
        let bare = exports.appendingPathComponent("clip")
        #expect(try viewfinder("library", "--library", library, "export", "1", "-o", bare.path).status == 0)
        let right = exports.appendingPathComponent("clip.mov")
        let exported = try viewfinder("library", "--library", library, "export", "1", "-o", right.path)
        #expect(exported.status == 0, "\(exported.stderr)")
        #expect(try Data(contentsOf: right) == Data(contentsOf: movie))
    }
}
