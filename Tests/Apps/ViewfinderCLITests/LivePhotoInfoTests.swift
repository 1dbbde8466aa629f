import Foundation
import Testing
import ViewfinderCore
import ViewfinderTestSupport

@Suite("info on Live Photos and Motion Photos")
struct LivePhotoInfoTests {
    static let id = "9B539AB8-A668-4FA6-9207-EB653A5E7E3C"

    @Test("the corpus's iPhone pair: still and movie name the same content identifier")
    func applePair() throws {
        let still = TestPaths.media.appendingPathComponent("images/iphone13pro_livephoto_still_small.HEIC")
        let movie = TestPaths.media.appendingPathComponent("phone_video/iphone13pro_livephoto_companion_h264_vfr.MOV")
        let stillText = try viewfinder("info", still.path)
        #expect(stillText.stdout.contains("\n  live        Live Photo still (its movie shares the content identifier \(Self.id))"), "\(stillText.stdout)")
        let movieText = try viewfinder("info", movie.path)
        #expect(movieText.stdout.contains("\n  live        Live Photo movie (its still shares the content identifier \(Self.id))"), "\(movieText.stdout)")
        let stillJSON = try #require(jsonObject(try viewfinder("info", still.path, "--json"))?["live"] as? [String: Any])
        #expect(stillJSON["kind"] as? String == "livePhotoStill" && stillJSON["contentIdentifier"] as? String == Self.id)
        let movieJSON = try #require(jsonObject(try viewfinder("info", movie.path, "--json"))?["live"] as? [String: Any])
        #expect(movieJSON["kind"] as? String == "livePhotoMovie" && movieJSON["contentIdentifier"] as? String == Self.id)
    }

    @Test("the corpus's Motion Photo: the MP4 inside; an ordinary video and photo say nothing")
    func motionPhoto() throws {
        let photo = TestPaths.media.appendingPathComponent("images/motionphoto_sample_MP.heic")
        let json = try #require(jsonObject(try viewfinder("info", photo.path, "--json"))?["live"] as? [String: Any])
        #expect(json["kind"] as? String == "motionPhoto")
        #expect(json["videoOffset"] as? Int == 57672 - 28803 && json["videoLength"] as? Int == 28803)
        let text = try viewfinder("info", photo.path)
        #expect(text.stdout.contains("\n  live        Motion Photo (an MP4 of 28803 bytes inside, from byte 28869, the still at 0 s)"))
        let plain = try FixtureFactory.shared.fixture(.h264BFrames)
        #expect(jsonObject(try viewfinder("info", plain.url.path, "--json"))?["live"] is NSNull)
        let jpeg = TestPaths.media.appendingPathComponent("exif_orientation/Landscape_1.jpg")
        #expect(jsonObject(try viewfinder("info", jpeg.path, "--json"))?["live"] is NSNull)
        #expect(!(try viewfinder("info", jpeg.path)).stdout.contains("live"))
    }
}

@Suite("library on Live Photos and Motion Photos")
struct LibraryLiveCommandTests {
    @Test("the pair imports as one live asset (both files in one call); list --json gives both paths; cover --at sets its key photo")
    func importListAndKeyPhoto() throws {
        let library = TestPaths.scratchFolder("cli-live").appendingPathComponent("Lib").path
        let still = TestPaths.media.appendingPathComponent("images/iphone13pro_livephoto_still_small.HEIC")
        let movie = TestPaths.media.appendingPathComponent("phone_video/iphone13pro_livephoto_companion_h264_vfr.MOV")
        let imported = try viewfinder("library", "--library", library, "import", still.path, movie.path, "-q")
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.hasSuffix("2 of 2 files stored\n"), "\(imported.stdout)")
        let items = try #require(try JSONSerialization.jsonObject(with: try viewfinder("library", "--library", library, "list", "--json").stdoutData) as? [[String: Any]])
        #expect(items.count == 1)
        let item = try #require(items.first)
        #expect(item["kind"] as? String == "live")
        #expect(item["contentIdentifier"] as? String == LivePhotoInfoTests.id)
        #expect(item["motionFilename"] as? String == movie.lastPathComponent)
        let path = try #require(item["path"] as? String), motionPath = try #require(item["motionPath"] as? String)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(contentsOf: still))
        #expect(try Data(contentsOf: URL(fileURLWithPath: motionPath)) == Data(contentsOf: movie))
        let id = try #require(item["id"] as? Int)
        #expect(try viewfinder("library", "--library", library, "list", "--type", "live").stdout.split(separator: "\n").count == 1)

        let set = try viewfinder("library", "--library", library, "cover", "\(id)", "--at", "0.5")
        #expect(set.stdout == "asset \(id): key photo at 0.5 s of its motion\n", "\(set.stderr)")
        let key = TestPaths.scratchFolder("cli-live-out").appendingPathComponent("key.jpg")
        #expect(try viewfinder("library", "--library", library, "export", "\(id)", "-o", key.path).status == 0)
        let size = try Subprocess.run("ffprobe", ["-v", "error", "-show_entries", "stream=width,height", "-of", "csv=p=0", key.path])
        #expect(size.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "480,640", "the key photo is a frame of the 480×640 motion")
        let cleared = try viewfinder("library", "--library", library, "cover", "\(id)", "--clear")
        #expect(cleared.stdout == "asset \(id): key photo is the original still\n")
        // The original still is back, copied unchanged: as a HEIC, not under the key photo's .jpg.
        let refused = try viewfinder("library", "--library", library, "export", "\(id)", "-o", key.path)
        #expect(refused.status == 1 && refused.stderr.contains("give it the original's extension (.heic)"), "\(refused.stderr)")
        let back = key.deletingLastPathComponent().appendingPathComponent("still.heic")
        #expect(try viewfinder("library", "--library", library, "export", "\(id)", "-o", back.path).status == 0)
        #expect(try Data(contentsOf: back) == Data(contentsOf: still), "the original still is back")
    }
}
