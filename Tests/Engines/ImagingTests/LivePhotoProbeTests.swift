import Foundation
import Testing
import ViewfinderCore
import ViewfinderTestSupport

@testable import Imaging

/// Live Photos and Motion Photos told apart from ordinary photos, on the corpus's pairs and on
/// Motion Photos made here (a JPEG with XMP written by exiftool and an MP4 appended).
@Suite("Live Photo and Motion Photo detection")
struct LivePhotoProbeTests {
    static let media = TestPaths.media

    @Test("an iPhone Live Photo still: the content identifier of Apple's MakerNote, as exiftool reads it")
    func appleStill() throws {
        let still = Self.media.appendingPathComponent("images/iphone13pro_livephoto_still_small.HEIC")
        let result = try Subprocess.run("exiftool", ["-s3", "-Apple:MediaGroupUUID", still.path])
        let expected = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(expected == "9B539AB8-A668-4FA6-9207-EB653A5E7E3C")
        #expect(LivePhotoProbe.role(ofPhoto: still) == .appleStill(contentIdentifier: expected))
    }

    @Test("a Google HEIC Motion Photo: the MP4's byte range from the XMP, checked against the bytes")
    func heicMotionPhoto() throws {
        let photo = Self.media.appendingPathComponent("images/motionphoto_sample_MP.heic")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: photo.path)[.size] as? Int)
        let role = LivePhotoProbe.role(ofPhoto: photo)
        #expect(role == .motionPhoto(MotionPhotoLayout(offset: Int64(size - 28803), length: 28803, presentationTime: .zero)))
        // exiftool's own extraction of the video is the same bytes.
        let extracted = try Subprocess.run("exiftool", ["-b", "-MotionPhotoVideo", photo.path])
        let bytes = try Data(contentsOf: photo)
        #expect(extracted.stdoutData == bytes.suffix(28803))
    }

    @Test("ordinary photos are neither")
    func ordinary() throws {
        for name in ["exif_orientation/Landscape_1.jpg", "images/png16_rgb_flag.png", "images/samsung_s10_orient6.heic"] {
            #expect(LivePhotoProbe.role(ofPhoto: Self.media.appendingPathComponent(name)) == nil, "\(name)")
        }
    }

    @Test("a JPEG Motion Photo (MicroVideo, offset from the end) is found; a declared video that is not there is not")
    func jpegMicroVideo() throws {
        let folder = TestPaths.scratchFolder("motion-photo")
        let jpeg = folder.appendingPathComponent("still.jpg"), mp4 = folder.appendingPathComponent("motion.mp4")
        _ = try Subprocess.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=160x90", "-frames:v", "1", jpeg.path])
        _ = try Subprocess.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=160x90:d=1", "-c:v", "libx264", mp4.path])
        let video = try Data(contentsOf: mp4)
        let tagged = try Subprocess.run("exiftool", ["-q", "-overwrite_original", "-XMP-GCamera:MicroVideo=1", "-XMP-GCamera:MicroVideoVersion=1",
                                                     "-XMP-GCamera:MicroVideoOffset=\(video.count)",
                                                     "-XMP-GCamera:MicroVideoPresentationTimestampUs=500000", jpeg.path])
        #expect(tagged.status == 0, "\(tagged.stderr)")
        let still = try Data(contentsOf: jpeg)
        let motion = folder.appendingPathComponent("motion-photo.jpg")
        try (still + video).write(to: motion)
        #expect(LivePhotoProbe.role(ofPhoto: motion) == .motionPhoto(MotionPhotoLayout(
            offset: Int64(still.count), length: Int64(video.count), presentationTime: MediaTime(value: 1, timescale: 2))))
        // The XMP alone, with no MP4 where it points, is not a Motion Photo.
        #expect(LivePhotoProbe.role(ofPhoto: jpeg) == nil)
    }
}
