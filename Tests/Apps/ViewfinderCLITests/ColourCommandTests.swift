import Foundation
import Testing
import ViewfinderCore
import ViewfinderTestSupport

/// The colour of what the commands write and report, on made charts and on the corpus's
/// iPhone HDR clips, against ffmpeg's zscale as the independent renderer.
@Suite("Colour from the command line")
struct ColourCommandTests {
    static let folder = TestPaths.scratchFolder("colour-cli")

    /// The corpus's HDR phone clips (both Dolby Vision 8.4 over an HLG base layer).
    static let phoneHDR = ["iphone12promax_hevc_hdr_rot90.mov", "iphone14pro_hevc_main10_dolbyvision_rot90.MOV"]

    static func difference(_ a: PixelBuffer, _ b: PixelBuffer) -> (mean: Double, max: Double) {
        let d = zip(ColourChart.gridColours(of: a, cells: 8), ColourChart.gridColours(of: b, cells: 8)).map { CIEDE2000.difference($0, $1) }
        return (d.reduce(0, +) / Double(d.count), d.max() ?? 0)
    }

    @Test("info names the kind: Dolby Vision 8.4 over HLG, for the iPhone clips", arguments: phoneHDR)
    func infoOfPhoneClips(_ name: String) throws {
        let result = try viewfinder("info", TestPaths.media.appendingPathComponent("phone_video/\(name)").path, "--json")
        #expect(result.status == 0, "\(result.stderr)")
        let colour = try #require(jsonObject(result)?["colour"] as? [String: Any])
        #expect(colour["hdr"] as? String == "hlg")
        #expect(colour["transfer"] as? String == "arib-std-b67" && colour["primaries"] as? String == "bt2020")
        #expect((colour["dolbyVision"] as? [String: Any])?["name"] as? String == "8.4")
        let text = try viewfinder("info", TestPaths.media.appendingPathComponent("phone_video/\(name)").path)
        #expect(text.stdout.contains("colour      Dolby Vision 8.4 (HLG base layer) (transfer arib-std-b67, primaries bt2020, matrix bt2020nc, range tv)"), "\(text.stdout)")
    }

    @Test("an iPhone HDR cover converted without compression matches zscale's rendering; taken as SDR it does not", arguments: phoneHDR)
    func phoneCoverAgainstZscale(_ name: String) throws {
        let input = TestPaths.media.appendingPathComponent("phone_video/\(name)")
        let clip = Self.folder.appendingPathComponent("\(name)-clip.png")
        let none = Self.folder.appendingPathComponent("\(name)-none.png")
        let mapped = Self.folder.appendingPathComponent("\(name)-tonemap.png")
        for (output, mode) in [(clip, "clip"), (none, "none"), (mapped, "tonemap")] {
            let result = try viewfinder("cover", input.path, "--at", "0", "--hdr", mode, "--max-size", "360x360", "-o", output.path)
            #expect(result.status == 0, "\(mode): \(result.stderr)")
        }
        let ours = try #require(try decodeImage(clip))
        let reference = Self.folder.appendingPathComponent("\(name)-zscale.png")
        let zscale = try Subprocess.run("ffmpeg", [
            "-v", "error", "-y", "-i", input.path, "-frames:v", "1", "-vf",
            "zscale=tin=arib-std-b67:t=iec61966-2-1:p=bt709:m=gbr:r=full:npl=203,format=gbrp,scale=\(ours.width):\(ours.height)",
            "-pix_fmt", "rgb24", reference.path])
        #expect(zscale.status == 0, "\(zscale.stderr)")
        let theirs = try #require(try decodeImage(reference))
        let agreed = Self.difference(ours, theirs)
        #expect(agreed.mean <= 2 && agreed.max <= 4, "\(name): clip against zscale: mean \(agreed.mean), max \(agreed.max)")
        let untouched = Self.difference(try #require(try decodeImage(none)), theirs)
        #expect(untouched.mean > 5, "\(name): the coded values against zscale: mean \(untouched.mean)")
        // Tone mapping only compresses what is brighter than reference white: the picture
        // stays close to the clipped one (these clips hold little above it).
        let toneMapped = Self.difference(try #require(try decodeImage(mapped)), theirs)
        #expect(toneMapped.mean <= 6, "\(name): tone-mapped against zscale: mean \(toneMapped.mean)")
    }

    @Test("cover and filmstrip of HLG and PQ charts are within ΔE00 mean 3, max 8", arguments: [ColourChart.VideoKind.hlg, .pq])
    func chartThroughTheCommands(_ kind: ColourChart.VideoKind) throws {
        let video = try ColourChart.video(kind, in: Self.folder)
        let cover = Self.folder.appendingPathComponent("cover-\(kind).png")
        let result = try viewfinder("cover", video.path, "--at", "0", "-o", cover.path)
        #expect(result.status == 0, "\(result.stderr)")
        let c = ColourChart.error(of: try #require(try decodeImage(cover)))
        #expect(c.mean <= 3 && c.max <= 8, "\(kind) cover: mean \(c.mean), max \(c.max)")
        let strip = Self.folder.appendingPathComponent("strip-\(kind).png")
        let stripped = try viewfinder("filmstrip", video.path, "--count", "1", "--height", "128", "-o", strip.path)
        #expect(stripped.status == 0, "\(stripped.stderr)")
        let s = ColourChart.error(of: try #require(try decodeImage(strip)))
        #expect(s.mean <= 3 && s.max <= 8, "\(kind) strip: mean \(s.mean), max \(s.max)")
    }

    @Test("--hdr takes tonemap, clip or none; anything else is a usage error")
    func hdrOption() throws {
        let video = try ColourChart.video(.hlg, in: Self.folder)
        let result = try viewfinder("cover", video.path, "--hdr", "bright", "-o", Self.folder.appendingPathComponent("x.png").path)
        #expect(result.status == 2)
        #expect(result.stderr.contains("expected tonemap, clip or none, not 'bright'"), "\(result.stderr)")
    }

    @Test("info shows a photo's profile and HDR10 mastering metadata")
    func infoOfProfilesAndMastering() throws {
        let video = try ColourChart.video(.pq, in: Self.folder, name: "chart-pq-mastered",
                                          x265: ":hdr10=1:max-cll=1000,400:master-display=G(13250,34500)B(7500,3000)R(34000,16000)WP(15635,16450)L(40000000,50)")
        let info = try viewfinder("info", video.path)
        #expect(info.stdout.contains("colour      PQ (HDR10)"), "\(info.stdout)")
        #expect(info.stdout.contains("mastering   Display P3 display, peak 4000 nits, black 0.0050 nits, MaxCLL 1000, MaxFALL 400"), "\(info.stdout)")
        let photo = TestPaths.media.appendingPathComponent("images/iphone11pro_IMG_2927.HEIC")
        let text = try viewfinder("info", photo.path)
        #expect(text.stdout.contains("profile     Display P3"), "\(text.stdout)")
    }

    /// ffprobe's colour fields of the first video stream.
    static func colourTags(_ url: URL) throws -> [String: String] {
        let result = try Subprocess.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries",
                                                    "stream=color_range,color_space,color_primaries,color_transfer",
                                                    "-of", "default=noprint_wrappers=1", url.path])
        return Dictionary(result.stdout.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
            return parts.count == 2 ? (parts[0], parts[1]) : nil
        }, uniquingKeysWith: { first, _ in first })
    }

    /// The first frame of `url` as RGB, decoded by the ffmpeg CLI as its tags say.
    static func firstFrame(_ url: URL, size: PixelSize) throws -> PixelBuffer {
        let result = try Subprocess.run("ffmpeg", ["-v", "error", "-i", url.path, "-frames:v", "1", "-vf",
                                                   "scale=\(size.width):\(size.height):flags=neighbor", "-f", "rawvideo",
                                                   "-pix_fmt", "rgb24", "-"])
        return try #require(PixelBuffer(width: size.width, height: size.height, bytes: [UInt8](result.stdoutData)))
    }

    @Test("full-range MJPEG converted: the samples' range is what the output says, the colours stay (ΔE00 mean ≤ 1)")
    func fullRangeMJPEG() throws {
        let raw = try ColourChart.rawFile(in: Self.folder)
        let input = Self.folder.appendingPathComponent("chart-mjpeg.mov")
        let made = try Subprocess.run("ffmpeg", ["-v", "error", "-y", "-f", "rawvideo", "-pix_fmt", "rgb24", "-s", "256x256",
                                                 "-r", "25", "-i", raw.path, "-vf", "loop=4:1:0", "-c:v", "mjpeg", "-q:v", "2",
                                                 "-pix_fmt", "yuvj422p", input.path])
        #expect(made.status == 0, "\(made.stderr)")
        let output = Self.folder.appendingPathComponent("mjpeg-converted.mp4")
        let result = try viewfinder("convert", input.path, "-o", output.path, "--quiet")
        #expect(result.status == 0, "\(result.stderr)")
        let tags = try Self.colourTags(output)
        #expect(tags["color_range"] == "pc" && ["bt470bg", "smpte170m"].contains(tags["color_space"] ?? ""), "\(tags)")
        let e = ColourChart.error(of: try Self.firstFrame(output, size: ColourChart.size))
        #expect(e.mean <= 1, "MJPEG converted: mean \(e.mean), max \(e.max)")
    }

    @Test("an untagged 720p video scaled to 540p is tagged BT.709, so players do not guess BT.601 for it")
    func untaggedHDScaledToSD() throws {
        let raw = try ColourChart.rawFile(in: Self.folder)
        let input = Self.folder.appendingPathComponent("chart-720-untagged.mp4")
        // BT.709 samples with no colour tags at all, as a player guesses for 720 lines.
        let made = try Subprocess.run("ffmpeg", ["-v", "error", "-y", "-f", "rawvideo", "-pix_fmt", "rgb24", "-s", "256x256",
                                                 "-r", "25", "-i", raw.path, "-vf",
                                                 "loop=9:1:0,scale=1280:720:flags=neighbor:out_color_matrix=bt709:out_range=tv,format=yuv420p",
                                                 "-c:v", "libx264", "-crf", "4", input.path])
        #expect(made.status == 0, "\(made.stderr)")
        #expect(try Self.colourTags(input)["color_space"] == "unknown")
        let output = Self.folder.appendingPathComponent("chart-540.mp4")
        let result = try viewfinder("convert", input.path, "--preset", "medium", "-o", output.path, "--quiet")
        #expect(result.status == 0, "\(result.stderr)")
        let tags = try Self.colourTags(output)
        #expect(tags["color_space"] == "bt709" && tags["color_primaries"] == "bt709" && tags["color_transfer"] == "bt709"
                && tags["color_range"] == "tv", "\(tags)")
        let e = ColourChart.error(of: try Self.firstFrame(output, size: ColourChart.size))
        #expect(e.mean <= 1, "540p: mean \(e.mean), max \(e.max)")
    }

    /// The chart converted into `profile` by the vips command (LittleCMS), its profile embedded.
    static func chartPhoto(in profile: String, name: String) throws -> URL {
        let output = Self.folder.appendingPathComponent("\(name).jpg")
        if FileManager.default.fileExists(atPath: output.path) { return output }
        let png = Self.folder.appendingPathComponent("\(name)-chart.png")
        let raw = try ColourChart.rawFile(in: Self.folder)
        let made = try Subprocess.run("ffmpeg", ["-v", "error", "-y", "-f", "rawvideo", "-pix_fmt", "rgb24", "-s", "256x256",
                                                 "-i", raw.path, png.path])
        guard made.status == 0 else { throw SubprocessError.failed("ffmpeg", made.stderr) }
        let result = try Subprocess.run("vips", ["icc_transform", png.path, output.path + "[Q=98]", profile,
                                                 "--input-profile", "srgb", "--intent", "relative"])
        guard result.status == 0 else { throw SubprocessError.failed("vips", result.stderr) }
        return output
    }

    /// The description of the ICC profile embedded in `url` (exiftool), "" when there is none.
    static func embeddedProfile(_ url: URL) throws -> String {
        try Subprocess.run("exiftool", ["-s3", "-ProfileDescription", url.path]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("avatar converts a wide-gamut photo to sRGB; --keep-profile keeps its values with its profile, which LittleCMS reads back to the chart",
          arguments: ["SwappedRedAndGreen", "AdobeRGB1998"])
    func avatarKeepsProfile(_ name: String) throws {
        let input = try Self.chartPhoto(in: "/usr/share/color/icc/colord/\(name).icc", name: "photo-\(name)")
        let converted = Self.folder.appendingPathComponent("avatar-\(name)-srgb.png")
        let kept = Self.folder.appendingPathComponent("avatar-\(name)-kept.png")
        for (output, extra) in [(converted, [String]()), (kept, ["--keep-profile"])] {
            let result = try viewfinder(["avatar", input.path, "--shape", "square", "--size", "256", "-o", output.path] + extra)
            #expect(result.status == 0, "\(result.stderr)")
        }
        #expect(try Self.embeddedProfile(converted) == "", "the sRGB avatar carries no profile")
        let c = ColourChart.error(of: try #require(try decodeImage(converted)))
        #expect(c.mean <= 1, "\(name) converted: mean \(c.mean), max \(c.max)")

        let description = try Self.embeddedProfile(input)
        let keptDescription = try Self.embeddedProfile(kept)
        #expect(!description.isEmpty && keptDescription == description)
        // The stored values are the photo's own (ffmpeg reads them without any profile) ...
        let stored = try #require(try decodeImage(kept))
        let original = try #require(try decodeImage(input))
        let same = zip(ColourChart.patchColours(of: stored), ColourChart.patchColours(of: original)).map { CIEDE2000.difference($0, $1) }
        #expect((same.max() ?? 99) <= 1, "\(name): kept values differ from the photo's: \(same)")
        #expect(ColourChart.error(of: stored).mean > 2, "\(name): the photo's own values are not the chart's")
        // ... and through the embedded profile they are the chart.
        let back = Self.folder.appendingPathComponent("avatar-\(name)-back.png")
        let read = try Subprocess.run("vips", ["icc_transform", kept.path, back.path, "srgb", "--embedded", "--intent", "relative"])
        #expect(read.status == 0, "\(read.stderr)")
        let k = ColourChart.error(of: try #require(try decodeImage(back)))
        #expect(k.mean <= 1, "\(name) kept, read through its profile: mean \(k.mean), max \(k.max)")
    }

    @Test("a HEIF (AVIF) photo whose colours an nclx box declares (Display P3, no ICC) is converted from them: ΔE00 mean ≤ 1")
    func nclxPhoto() throws {
        // The chart in Display P3 values without a profile, encoded by avifenc with an nclx box.
        let p3 = try Self.chartPhoto(in: "p3", name: "photo-p3-for-nclx")
        let plain = Self.folder.appendingPathComponent("p3-plain.png")
        let stripped = try Subprocess.run("vips", ["copy", p3.path, plain.path + "[strip]"])
        #expect(stripped.status == 0, "\(stripped.stderr)")
        let input = Self.folder.appendingPathComponent("chart-nclx.avif")
        let made = try Subprocess.run("avifenc", ["--cicp", "12/13/6", "-r", "full", "--min", "0", "--max", "0", "-y", "444",
                                                  "--ignore-icc", plain.path, input.path])
        #expect(made.status == 0, "\(made.stderr)")
        let info = try viewfinder("info", input.path)
        #expect(info.stdout.contains("profile     Display P3 (nclx 12/13)"), "\(info.stdout)")
        let avatar = Self.folder.appendingPathComponent("avatar-nclx.png")
        let result = try viewfinder("avatar", input.path, "--shape", "square", "--size", "256", "-o", avatar.path)
        #expect(result.status == 0, "\(result.stderr)")
        let e = ColourChart.error(of: try #require(try decodeImage(avatar)))
        #expect(e.mean <= 1, "nclx P3: mean \(e.mean), max \(e.max)")
        // Read as stored (the P3 values taken as sRGB), the measure sees the difference.
        let stored = ColourChart.error(of: try #require(try decodeImage(plain)))
        #expect(stored.mean > 2, "P3 values as sRGB: mean \(stored.mean)")
    }

    @Test("a damaged ICC profile: the avatar is made from the stored values with a one-line warning, exit 0")
    func damagedProfileWarns() throws {
        var bytes = [UInt8](try Data(contentsOf: try Self.chartPhoto(in: "p3", name: "photo-p3-damaged-source")))
        let marker = Array("ICC_PROFILE".utf8)
        let at = try #require((0..<(bytes.count - marker.count)).first { Array(bytes[$0..<($0 + marker.count)]) == marker })
        // The profile's size field and its "acsp" signature overwritten: LittleCMS refuses it.
        for i in 0..<8 { bytes[at + marker.count + 3 + i] = 0xFF }
        for i in 36..<40 { bytes[at + marker.count + 3 + i] = 0 }
        let input = Self.folder.appendingPathComponent("photo-damaged-profile.jpg")
        try Data(bytes).write(to: input)
        let avatar = Self.folder.appendingPathComponent("avatar-damaged.png")
        let result = try viewfinder("avatar", input.path, "--shape", "square", "--size", "64", "-o", avatar.path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr == "viewfinder: warning: photo-damaged-profile.jpg's colour profile is damaged or not for its colours; it is read as sRGB\n",
                "\(result.stderr)")
    }

    @Test("absurd HDR10 metadata (a 0-nit and a 4-billion-nit display, MaxCLL 65535) falls back to the default peak: a cover as without it")
    func absurdMastering() throws {
        let plain = try ColourChart.video(.pq, in: Self.folder)
        let absurd = try ColourChart.video(.pq, in: Self.folder, name: "chart-pq-absurd",
                                           x265: ":hdr10=1:max-cll=65535,65535:master-display=G(0,0)B(0,0)R(0,0)WP(0,0)L(4294967295,0)")
        var covers: [PixelBuffer] = []
        for video in [plain, absurd] {
            let cover = Self.folder.appendingPathComponent("cover-\(video.lastPathComponent).png")
            let result = try viewfinder("cover", video.path, "--at", "0", "-o", cover.path)
            #expect(result.status == 0, "\(result.stderr)")
            covers.append(try #require(try decodeImage(cover)))
        }
        let d = Self.difference(covers[0], covers[1])
        #expect(d.max < 0.5, "absurd metadata changed the cover: mean \(d.mean), max \(d.max)")
        let info = try viewfinder("info", absurd.path)
        #expect(info.status == 0 && info.stdout.contains("MaxCLL 65535"), "\(info.stdout)")
    }
}
