import Foundation
import Testing
import ViewfinderCore
import ViewfinderTestSupport

@Suite("avatar command: faces and straightening")
struct AvatarFaceCommandTests {
    /// A 1600×1200 JPEG: a no-face photo with scikit-image's astronaut pasted at the right,
    /// her face (cheek to cheek, hairline to chin) at about (1214, 515)–(1340, 637).
    static func placedPortrait(in folder: URL) throws -> URL {
        let url = folder.appendingPathComponent("placed.jpg")
        // The ffmpeg CLI makes the fixture: an independent way to lay one picture over another.
        let made = try Subprocess.run("ffmpeg", ["-v", "error", "-y",
            "-i", TestPaths.media.appendingPathComponent("images/exif_orient3_iphone5.jpg").path,
            "-i", TestPaths.skimageData.appendingPathComponent("astronaut.png").path,
            "-filter_complex", "[0]scale=1600:1200,setsar=1[bg];[1]scale=608:608[p];[bg][p]overlay=1010:426",
            "-frames:v", "1", "-q:v", "2", url.path])
        #expect(made.status == 0, "\(made.stderr)")
        return url
    }

    @Test("by default the circle is around the face; --center middle is the old centred crop; --json says which")
    func faceByDefault() throws {
        let folder = TestPaths.scratchFolder("avatar-face")
        let photo = try Self.placedPortrait(in: folder)
        let out = folder.appendingPathComponent("a.png")
        let result = try viewfinder("avatar", photo.path, "-o", out.path, "--json")
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(jsonObject(result))
        let framing = try #require(json["framing"] as? [String: Any])
        #expect(framing["kind"] as? String == "face")
        let face = try #require(framing["face"] as? [String: Any])
        let (fx, fy, fw) = (try #require(face["x"] as? Double), try #require(face["y"] as? Double), try #require(face["width"] as? Double))
        // The astronaut's face is at x 1214…1340 (1.1875 × her 172…278), y 515…637.
        #expect(abs(fx - 1214) < 25 && abs(fy - 505) < 35 && abs(fw - 122) < 25, "\(face)")
        let crop = try #require(json["crop"] as? [String: Any])
        let side = try #require((crop["width"] as? Double) ?? (crop["width"] as? Int).map(Double.init))
        #expect(abs(side - 2.6 * fw) < 1, "2.6 face widths: \(side)")

        let middle = try viewfinder("avatar", photo.path, "-o", out.path, "--center", "middle", "--json")
        let centred = try #require(jsonObject(middle))
        #expect((centred["framing"] as? [String: Any])?["kind"] as? String == "middle")
        let box = try #require(centred["crop"] as? [String: Any])
        #expect(box["x"] as? Int == 200 && box["y"] as? Int == 0 && box["width"] as? Int == 1200)

        let text = try viewfinder("avatar", photo.path, "-o", out.path)
        #expect(text.stdout.contains(", around the face at "), "\(text.stdout)")
    }

    @Test("the face crop's spec records the face and replays byte for byte")
    func replay() throws {
        let folder = TestPaths.scratchFolder("avatar-face-spec")
        let photo = try Self.placedPortrait(in: folder)
        let first = folder.appendingPathComponent("first.png")
        let printed = try viewfinder("avatar", photo.path, "-o", first.path, "--size", "300", "--print-spec")
        #expect(printed.status == 0, "\(printed.stderr)")
        let spec = try CropSpec.parse(printed.stdoutData)
        #expect(spec.framing?.kind == .face && spec.framing?.face != nil)
        let specURL = folder.appendingPathComponent("spec.json")
        try printed.stdoutData.write(to: specURL)
        let second = folder.appendingPathComponent("second.png")
        #expect(try viewfinder("avatar", photo.path, "-o", second.path, "--spec", specURL.path).status == 0)
        #expect(try Data(contentsOf: first) == Data(contentsOf: second))
        // A spec written before faces were looked for (no "framing") still replays.
        let old = CropSpec(imageSize: spec.imageSize, rect: spec.rect, shape: spec.shape, outputSize: spec.outputSize)
        #expect(!old.json().contains("framing"))
        try Data(old.json().utf8).write(to: specURL)
        let third = folder.appendingPathComponent("third.png")
        #expect(try viewfinder("avatar", photo.path, "-o", third.path, "--spec", specURL.path).status == 0)
        #expect(try Data(contentsOf: first) == Data(contentsOf: third))
    }

    @Test("--center face on a photo with no face is a one-line error, exit 1, nothing written")
    func noFace() throws {
        let folder = TestPaths.scratchFolder("avatar-noface")
        let out = folder.appendingPathComponent("a.png")
        let photo = TestPaths.media.appendingPathComponent("images/progressive_beach_icc.jpg")
        let result = try viewfinder("avatar", photo.path, "-o", out.path, "--center", "face")
        #expect(result.status == 1)
        #expect(result.stderr == "viewfinder: no face found in progressive_beach_icc.jpg; use --center auto (the middle when there is no face), middle, or X,Y\n")
        #expect(!FileManager.default.fileExists(atPath: out.path))
        let auto = try viewfinder("avatar", photo.path, "-o", out.path)
        #expect(auto.status == 0 && auto.stdout.hasSuffix(", in the middle (no face found)\n"), "\(auto.stdout)")
        let bad = try viewfinder("avatar", photo.path, "-o", out.path, "--center", "nose")
        #expect(bad.status == 2 && bad.stderr.contains("expected auto, face, middle or X,Y"))
    }

    @Test("--rotate turns the photo, the spec records the angle and --spec replays it byte for byte; bad angles are usage errors")
    func rotate() throws {
        let folder = TestPaths.scratchFolder("avatar-rotate")
        let photo = TestPaths.media.appendingPathComponent("exif_orientation/Landscape_6.jpg")
        let first = folder.appendingPathComponent("first.png")
        let printed = try viewfinder("avatar", photo.path, "-o", first.path, "--shape", "square", "--size", "200",
                                     "--rotate", "17", "--print-spec")
        #expect(printed.status == 0, "\(printed.stderr)")
        let spec = try CropSpec.parse(printed.stdoutData)
        #expect(spec.rotation == 17)
        // The largest square the turned 1800×1200 photo covers: 1200 / (cos 17° + sin 17°).
        let side = 1200 / (cos(17 * Double.pi / 180) + sin(17 * Double.pi / 180))
        #expect(abs(spec.rect.width - side) < 1e-6, "\(spec.rect)")
        let specURL = folder.appendingPathComponent("spec.json")
        try printed.stdoutData.write(to: specURL)
        let second = folder.appendingPathComponent("second.png")
        #expect(try viewfinder("avatar", photo.path, "-o", second.path, "--spec", specURL.path).status == 0)
        #expect(try Data(contentsOf: first) == Data(contentsOf: second))
        // Turned, it is not the unturned avatar.
        let plain = folder.appendingPathComponent("plain.png")
        #expect(try viewfinder("avatar", photo.path, "-o", plain.path, "--shape", "square", "--size", "200").status == 0)
        #expect(try Data(contentsOf: first) != Data(contentsOf: plain))
        for bad in ["400", "nan", "left"] {
            let result = try viewfinder("avatar", photo.path, "-o", first.path, "--rotate", bad)
            #expect(result.status == 2 && result.stderr.contains("expected degrees from -360 to 360"), "\(bad): \(result.stderr)")
        }
    }
}
