import Foundation
import Testing
import ViewfinderCore
import ViewfinderTestSupport

@Suite("library command")
struct LibraryCommandTests {
    static let photos = (1...8).map { TestPaths.media.appendingPathComponent("exif_orientation/Portrait_\($0).jpg").path }

    @Test("import goes on past bad files, lists them and exits 1; list --json has the documented keys")
    func importAndList() throws {
        let library = TestPaths.scratchFolder("cli-library").appendingPathComponent("Lib").path
        let text = TestPaths.scratchFolder("cli-bad").appendingPathComponent("notes.jpg")
        try Data("hello".utf8).write(to: text)
        let video = TestPaths.media.appendingPathComponent("phone_video/iphone6s_h264_rot90_ios9.mov").path
        let result = try viewfinder(["library", "--library", library, "import", Self.photos[0], text.path, video, "--album", "Trip", "-q"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("2 of 3 files stored"))
        #expect(result.stderr.contains("notes.jpg: Invalid data"))
        let list = try viewfinder("library", "--library", library, "list", "--json")
        #expect(list.status == 0)
        let items = try #require(try JSONSerialization.jsonObject(with: list.stdoutData) as? [[String: Any]])
        #expect(items.count == 2)
        for key in ["id", "kind", "creationDate", "originalFilename", "width", "height", "duration", "byteSize"] {
            #expect(items.allSatisfy { $0[key] != nil }, "missing \(key)")
        }
        #expect(items.first { $0["kind"] as? String == "photo" }?["duration"] is NSNull)
        #expect(items.first { $0["kind"] as? String == "video" }.flatMap { ($0["duration"] as? NSNumber)?.doubleValue } == 0.466667)
        let albums = try viewfinder("library", "--library", library, "albums")
        #expect(albums.stdout == "Trip\t2\n")
        let videos = try viewfinder("library", "--library", library, "list", "--type", "video")
        #expect(videos.stdout.split(separator: "\n").count == 1)
    }

    @Test("library cover chooses a video's cover (a time, or best), list --json shows it, --clear forgets it")
    func cover() throws {
        let library = TestPaths.scratchFolder("cli-cover").appendingPathComponent("Lib").path
        let clip = try SuggestionClip.make(in: TestPaths.scratchFolder("cli-cover-clip"))
        #expect(try viewfinder(["library", "--library", library, "import", clip.path, Self.photos[0], "-q"]).status == 0)
        let items = try #require(try JSONSerialization.jsonObject(with: try viewfinder("library", "--library", library, "list", "--json").stdoutData) as? [[String: Any]])
        let videoID = try #require(items.first { $0["kind"] as? String == "video" }?["id"] as? Int)
        let photoID = try #require(items.first { $0["kind"] as? String == "photo" }?["id"] as? Int)
        #expect(items.allSatisfy { $0["coverTime"] is NSNull })

        let set = try viewfinder("library", "--library", library, "cover", "\(videoID)", "--at", "1.5")
        #expect(set.stdout == "asset \(videoID): cover at 1.5 s\n", "\(set.stderr)")
        func coverTime() throws -> Double? {
            let listed = try JSONSerialization.jsonObject(with: try viewfinder("library", "--library", library, "list", "--json").stdoutData) as? [[String: Any]]
            return (listed?.first { $0["id"] as? Int == videoID }?["coverTime"] as? NSNumber)?.doubleValue
        }
        #expect(try coverTime() == 1.5)
        let best = try viewfinder("library", "--library", library, "cover", "\(videoID)", "--at", "best")
        #expect(best.status == 0, "\(best.stderr)")
        let bestTime = try #require(try coverTime())
        #expect(SuggestionClip.scene(of: bestTime) != nil, "the best suggestion lies in a sharp scene: \(bestTime)")
        #expect(try viewfinder("library", "--library", library, "cover", "\(videoID)", "--clear").stdout == "asset \(videoID): cover chosen by the library\n")
        #expect(try coverTime() == nil)
        // frame:N as everywhere else TIME is taken: frame 45 of the 30 fps clip is shown at 1.5 s.
        let frame = try viewfinder("library", "--library", library, "cover", "\(videoID)", "--at", "frame:45")
        #expect(frame.stdout == "asset \(videoID): cover at 1.5 s\n", "\(frame.stderr)")

        for (arguments, status): ([String], Int32) in [
            (["cover", "\(videoID)"], 2), (["cover", "\(videoID)", "--at", "1", "--clear"], 2), (["cover", "\(videoID)", "--at", "frame:9999"], 1),
            (["cover", "\(photoID)", "--at", "1"], 1), (["cover", "\(videoID)", "--at", "60"], 1), (["cover", "999", "--at", "1"], 1),
        ] {
            let result = try viewfinder(["library", "--library", library] + arguments)
            #expect(result.status == status, "\(arguments): \(result.stderr)")
            if status == 1 { #expect(result.stderr.filter { $0 == "\n" }.count == 1, "one line: \(result.stderr)") }
        }
    }

    @Test("import prints each file's asset id (and --json); list --group and the original's path")
    func importIDsAndGroups() throws {
        let library = TestPaths.scratchFolder("cli-ids").appendingPathComponent("Lib").path
        let first = try viewfinder(["library", "--library", library, "import", Self.photos[0], Self.photos[1], "-q"])
        let lines = first.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3 && lines[0].hasSuffix("\tstored\t\(Self.photos[0])") && lines[1].hasSuffix("\tstored\t\(Self.photos[1])"), "\(first.stdout)")
        let ids = lines.prefix(2).compactMap { Int($0.split(separator: "\t")[0]) }
        #expect(ids.count == 2 && Set(ids).count == 2)
        let again = try viewfinder(["library", "--library", library, "import", Self.photos[1], "--json", "-q"])
        let json = try #require(jsonObject(again))
        let stored = try #require(json["stored"] as? [[String: Any]])
        #expect(stored.count == 1 && stored[0]["id"] as? Int == ids[1] && stored[0]["new"] as? Bool == false)
        #expect((json["failed"] as? [Any])?.isEmpty == true)

        #expect(try viewfinder("library", "--library", library, "album", "create", "Trip").status == 0)
        #expect(try viewfinder("library", "--library", library, "album", "add", "Trip", "\(ids[0])").status == 0)
        func listed(_ extra: String...) throws -> [[String: Any]] {
            let result = try viewfinder(["library", "--library", library, "list", "--json"] + extra)
            return try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [[String: Any]], "\(result.stderr)")
        }
        #expect(try listed("--group", "album:Trip").compactMap { $0["id"] as? Int } == [ids[0]])
        #expect(try listed("--group", "captures").isEmpty)
        #expect(try listed("--group", "photos").count == 2)
        for item in try listed() {
            let path = try #require(item["path"] as? String)
            #expect(path.hasPrefix(library + "/originals/") && FileManager.default.fileExists(atPath: path))
        }
        #expect(try viewfinder("library", "--library", library, "list", "--group", "album:Nope").status == 1)
        #expect(try viewfinder("library", "--library", library, "list", "--group", "everything").status == 2)
        #expect(try viewfinder("library", "--library", library, "list", "--group", "photos", "--album", "Trip").status == 2)
    }

    @Test("a 20000×14000 JPEG imports with a correct thumbnail under 300 MB; the 65536² PNG is refused under 200 MB")
    func largePhotos() throws {
        let library = TestPaths.scratchFolder("cli-large").appendingPathComponent("Lib").path
        let giant = TestPaths.media.appendingPathComponent("images/huge_dims_20000x14000_gray.jpg").path
        func peak(_ result: RunResult) -> Int { Int(result.stderr.split(separator: "\n").last.map(String.init) ?? "") ?? Int.max }
        let imported = try Subprocess.run(URL(fileURLWithPath: "/usr/bin/time"), ["-f", "%M", TestPaths.tool.path, "library", "--library", library, "import", giant, "-q"])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(peak(imported) < 300_000, "peak \(peak(imported)) KB")
        let thumbnail = TestPaths.scratchFolder("cli-large-out").appendingPathComponent("t.png")
        #expect(try viewfinder("library", "--library", library, "thumbnail", "1", "--size", "512", "-o", thumbnail.path).status == 0)
        // The corpus image is one grey, 192 in every pixel (measured once with Pillow, an
        // independent JPEG decoder; ffmpeg refuses pictures over 16384 px a side).
        let ours = try #require(try decodeImage(thumbnail))
        #expect(ours.size == PixelSize(width: 512, height: 358))
        #expect(ours.bytes.allSatisfy { abs(Int($0) - 192) <= 1 }, "a uniform grey of 192")

        let bomb = TestPaths.media.appendingPathComponent("images/huge_dims_65536x65536_1bit.png").path
        let refused = try Subprocess.run(URL(fileURLWithPath: "/usr/bin/time"), ["-f", "%M", TestPaths.tool.path, "library", "--library", library, "import", bomb, "-q"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("more than the limit of 100 MP a decode may hold"), "\(refused.stderr)")
        #expect(peak(refused) < 200_000, "peak \(peak(refused)) KB")
    }

    @Test("export --strip-location writes a photo without GPS that keeps its camera; info shows the metadata")
    func stripLocation() throws {
        let library = TestPaths.scratchFolder("cli-strip").appendingPathComponent("Lib").path
        let photo = TestPaths.media.appendingPathComponent("images/exif_orient3_iphone5.jpg").path
        #expect(try viewfinder(["library", "--library", library, "import", photo, "-q"]).status == 0)
        let info = try #require(jsonObject(try viewfinder("info", photo, "--json"))?["metadata"] as? [String: Any])
        #expect((info["latitude"] as? NSNumber)?.doubleValue == 47.6271667)
        #expect(info["model"] as? String == "iPhone 5")
        let out = TestPaths.scratchFolder("cli-strip-out").appendingPathComponent("private.jpg")
        let exported = try viewfinder("library", "--library", library, "export", "1", "--strip-location", "-o", out.path)
        #expect(exported.status == 0, "\(exported.stderr)")
        let stripped = try #require(jsonObject(try viewfinder("info", out.path, "--json"))?["metadata"] as? [String: Any])
        #expect(stripped["latitude"] is NSNull && stripped["longitude"] is NSNull)
        #expect(stripped["model"] as? String == "iPhone 5")
        let gps = try Subprocess.run("exiftool", ["-gps:all", "-s", out.path])
        #expect(gps.status == 0 && gps.stdout.isEmpty, "exiftool still sees: \(gps.stdout)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: photo)) != Data(contentsOf: out))
    }

    @Test("export --strip-location on a phone video: no location per exiftool, every other tag and every packet unchanged",
          arguments: ["phone_video/android601_h264_1080p_gps.mp4", "phone_video/iphone6_h264_rot90_2997_vfr_gps.mov"])
    func stripVideoLocation(_ name: String) throws {
        let library = TestPaths.scratchFolder("cli-strip-video").appendingPathComponent("Lib").path
        let video = TestPaths.media.appendingPathComponent(name)
        #expect(try viewfinder(["library", "--library", library, "import", video.path, "-q"]).status == 0)
        let out = TestPaths.scratchFolder("cli-strip-video-out").appendingPathComponent("private." + video.pathExtension)
        let exported = try viewfinder("library", "--library", library, "export", "1", "--strip-location", "-o", out.path)
        #expect(exported.status == 0, "\(exported.stderr)")
        func tags(_ url: URL) throws -> [String] {
            let result = try Subprocess.run("exiftool", ["-G1", "-a", "-s", "-s", "-ee", "-api", "LargeFileSupport=1", url.path])
            return result.stdout.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("[System]") }
        }
        let original = try tags(video), stripped = try tags(out)
        let place = original.filter { $0.contains("GPS") || $0.contains("Location") }
        #expect(!place.isEmpty, "the source carries a location: the check below could fail")
        #expect(stripped == original.filter { !place.contains($0) })
        let gps = try Subprocess.run("exiftool", ["-gps:all", "-location:all", "-s", out.path])
        #expect(gps.stdout.isEmpty, "exiftool still sees: \(gps.stdout)")
        for kind in ["v", "a", "d"] {
            let packets = try FFmpegOracle.packetHashes(of: video, stream: kind, timing: true)
            #expect(try FFmpegOracle.packetHashes(of: out, stream: kind, timing: true) == packets, "\(kind) packets")
        }
    }

    @Test("export --strip-location on a HEIC (which this exiv2 cannot write): its EXIF's GPS emptied in place, every other tag and byte kept",
          arguments: ["iphoneXR_orient6.heic", "iphone13pro_livephoto_still_small.HEIC", "samsung_s10_orient6.heic"])
    func stripHEIFLocation(_ name: String) throws {
        let library = TestPaths.scratchFolder("cli-strip-heif").appendingPathComponent("Lib").path
        let photo = TestPaths.media.appendingPathComponent("images/" + name)
        #expect(try viewfinder(["library", "--library", library, "import", photo.path, "-q"]).status == 0)
        let out = TestPaths.scratchFolder("cli-strip-heif-out").appendingPathComponent("private.heic")
        let exported = try viewfinder("library", "--library", library, "export", "1", "--strip-location", "-o", out.path)
        #expect(exported.status == 0, "\(exported.stderr)")
        func tags(_ url: URL) throws -> [String] {
            try Subprocess.run("exiftool", ["-G1", "-a", "-s", "-s", url.path]).stdout.split(separator: "\n").map(String.init)
                .filter { !$0.hasPrefix("[System]") }
        }
        let original = try tags(photo), stripped = try tags(out)
        #expect(original.contains { $0.hasPrefix("[GPS]") }, "the source carries GPS: the check below could fail")
        #expect(stripped == original.filter { !$0.contains("GPS") })
        #expect(try Subprocess.run("exiftool", ["-gps:all", "-s", out.path]).stdout.isEmpty)
        let before = try Data(contentsOf: photo), after = try Data(contentsOf: out)
        #expect(before.count == after.count)
        #expect(zip(before, after).filter { $0 != $1 }.count < 200, "only GPS bytes change")
    }

    @Test("export --strip-location of a video whose location it cannot reach (Matroska): one line, exit 1, nothing written")
    func stripVideoLocationRefused() throws {
        let folder = TestPaths.scratchFolder("cli-strip-mkv")
        let library = folder.appendingPathComponent("Lib").path
        let clip = folder.appendingPathComponent("place.mkv")
        let fixture = try FixtureFactory.shared.fixture(.h264BFrames)
        #expect(try Subprocess.run("ffmpeg", ["-v", "error", "-i", fixture.url.path, "-c", "copy",
                                              "-metadata", "location=+48.8584+002.2945/", clip.path]).status == 0)
        #expect(try viewfinder(["library", "--library", library, "import", clip.path, "-q"]).status == 0)
        let out = folder.appendingPathComponent("out/private.mkv")
        try FileManager.default.createDirectory(at: out.deletingLastPathComponent(), withIntermediateDirectories: true)
        let refused = try viewfinder("library", "--library", library, "export", "1", "--strip-location", "-o", out.path)
        #expect(refused.status == 1)
        #expect(refused.stderr.split(separator: "\n").count == 1)
        #expect(refused.stderr.contains("keeps its location in a place this tool cannot rewrite (format:LOCATION)"), "\(refused.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.deletingLastPathComponent().path).isEmpty)
    }

    @Test("list --json shows each asset's metadata from the catalogue: the photo's and the video's GPS as exiftool reads them")
    func listMetadata() throws {
        let library = TestPaths.scratchFolder("cli-meta").appendingPathComponent("Lib").path
        let photo = TestPaths.media.appendingPathComponent("images/exif_orient3_iphone5.jpg").path
        let video = TestPaths.media.appendingPathComponent("phone_video/android601_h264_1080p_gps.mp4").path
        #expect(try viewfinder(["library", "--library", library, "import", photo, video, "-q"]).status == 0)
        let list = try viewfinder("library", "--library", library, "list", "--json")
        let items = try #require(try JSONSerialization.jsonObject(with: list.stdoutData) as? [[String: Any]])
        let oracle = try Subprocess.run("exiftool", ["-n", "-j", "-Composite:GPSLatitude", "-Composite:GPSLongitude", photo, video])
        let truth = try #require(try JSONSerialization.jsonObject(with: oracle.stdoutData) as? [[String: Any]])
        for (file, expected) in zip([photo, video], truth) {
            let name = (file as NSString).lastPathComponent
            let item = try #require(items.first { $0["originalFilename"] as? String == name })
            let metadata = try #require(item["metadata"] as? [String: Any])
            for key in ["Latitude", "Longitude"] {
                let ours = try #require((metadata[key.lowercased()] as? NSNumber)?.doubleValue, "\(name) \(key)")
                let theirs = try #require((expected["GPS\(key)"] as? NSNumber)?.doubleValue)
                #expect(abs(ours - theirs) < 1e-6, "\(name) \(key): \(ours) vs exiftool \(theirs)")
            }
            // What the catalogue kept is what info reads from the file itself.
            let info = try #require(jsonObject(try viewfinder("info", file, "--json"))?["metadata"] as? [String: Any])
            #expect(NSDictionary(dictionary: info) == NSDictionary(dictionary: metadata), "\(name)")
        }
    }

    @Test("covers, avatars and thumbnails made from media with GPS carry no location", arguments: ["jpg", "png", "webp"])
    func derivedCarryNoLocation(_ ext: String) throws {
        let library = TestPaths.scratchFolder("cli-noloc").appendingPathComponent("Lib").path
        let out = TestPaths.scratchFolder("cli-noloc-out")
        let photo = TestPaths.media.appendingPathComponent("images/exif_orient3_iphone5.jpg").path
        let video = TestPaths.media.appendingPathComponent("phone_video/android601_h264_1080p_gps.mp4").path
        let imported = try viewfinder(["library", "--library", library, "import", photo, video, "--json", "-q"])
        let report = try #require(jsonObject(imported)?["stored"] as? [[String: Any]])
        let ids = report.compactMap { $0["id"] as? Int }
        #expect(ids.count == 2)
        let made = [
            (["cover", video, "--at", "0.05", "-o", out.appendingPathComponent("cover.\(ext)").path], "cover.\(ext)"),
            (["avatar", photo, "--shape", "square", "--size", "128", "-o", out.appendingPathComponent("avatar.\(ext)").path], "avatar.\(ext)"),
        ] + ids.map { id in
            (["library", "--library", library, "thumbnail", String(id), "--size", "64", "-o", out.appendingPathComponent("thumb\(id).\(ext)").path],
             "thumb\(id).\(ext)")
        }
        for (arguments, name) in made {
            let result = try viewfinder(arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            let file = out.appendingPathComponent(name).path
            let gps = try Subprocess.run("exiftool", ["-gps:all", "-xmp:all", "-location:all", "-s", file])
            #expect(gps.status == 0 && gps.stdout.isEmpty, "\(name) carries: \(gps.stdout)")
        }
        // The sources do carry a location: the check above could fail.
        let source = try Subprocess.run("exiftool", ["-gps:all", "-s", photo])
        #expect(source.stdout.contains("GPSLatitude"))
    }

    @Test("two processes importing into one library at once")
    func concurrentImports() throws {
        let library = TestPaths.scratchFolder("cli-concurrent").appendingPathComponent("Lib").path
        let first = Process(), second = Process()
        for (process, files) in [(first, Array(Self.photos[0..<4])), (second, Array(Self.photos[4..<8]))] {
            process.executableURL = TestPaths.tool
            process.arguments = ["library", "--library", library, "import"] + files + ["-q"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
        }
        try first.run()
        try second.run()
        first.waitUntilExit()
        second.waitUntilExit()
        #expect(first.terminationStatus == 0 && second.terminationStatus == 0)
        let list = try viewfinder("library", "--library", library, "list")
        #expect(list.stdout.split(separator: "\n").count == 8)
        #expect(try viewfinder("library", "--library", library, "check").stdout.hasSuffix("consistent\n"))
    }

    /// The originals a library holds now (they lie in folders named by their hash's first two
    /// characters).
    static func storedOriginals(in library: String) -> Int {
        let originals = URL(fileURLWithPath: library).appendingPathComponent("originals").path
        let folders = (try? FileManager.default.contentsOfDirectory(atPath: originals)) ?? []
        return folders.reduce(0) { $0 + ((try? FileManager.default.contentsOfDirectory(atPath: originals + "/" + $1).count) ?? 0) }
    }

    /// Killed at once (before the library folder is made, or while it is), and after 1, 4 and 8
    /// originals are stored: each moment is one the import reached, on a loaded machine too (a
    /// fixed time after the start says nothing of where the import is; on a slow start every
    /// case could fall before it had stored anything).
    @Test("a bulk import killed (SIGKILL) at moments along the way leaves a consistent library", arguments: [0, 1, 4, 8])
    func killed(_ afterOriginals: Int) throws {
        let library = TestPaths.scratchFolder("cli-killed").appendingPathComponent("Lib").path
        let files = (0..<6).flatMap { _ in Self.photos } + [TestPaths.media.appendingPathComponent("phone_video/pixel7_h264_rot180_noaudio_moov_at_end.mp4").path]
        let process = Process()
        process.executableURL = TestPaths.tool
        process.arguments = ["library", "--library", library, "import"] + files + ["-q"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        if afterOriginals > 0 {
            Poll.until(within: 30, every: 0.01) { !process.isRunning || Self.storedOriginals(in: library) >= afterOriginals }
        }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        // Killed before it made the library folder: there is nothing, and check says so
        // instead of making an empty library.
        if !FileManager.default.fileExists(atPath: library) {
            let nothing = try viewfinder("library", "--library", library, "check")
            #expect(nothing.status == 1 && nothing.stderr.contains("there is no library at"), "\(nothing.stderr)")
            #expect(!FileManager.default.fileExists(atPath: library))
            return
        }
        // Every row has its file, and check leaves no stray file behind.
        _ = try viewfinder("library", "--library", library, "check")
        let again = try viewfinder("library", "--library", library, "check")
        #expect(again.stdout.hasSuffix("consistent\n"), "\(again.stdout)")
        let list = try viewfinder("library", "--library", library, "list", "--json")
        let items = (try? JSONSerialization.jsonObject(with: list.stdoutData) as? [[String: Any]]) ?? []
        #expect(items.count <= 9)
        let export = TestPaths.scratchFolder("cli-killed-export").appendingPathComponent("x")
        for item in items {
            let id = String(describing: item["id"] ?? 0)
            #expect(try viewfinder("library", "--library", library, "export", id, "-o", export.path).status == 0)
        }
    }

    @Test("thumbnail, export and delete by id; unknown ids are one-line errors")
    func byID() throws {
        let library = TestPaths.scratchFolder("cli-byid").appendingPathComponent("Lib").path
        _ = try viewfinder("library", "--library", library, "import", Self.photos[5], "-q")
        let folder = TestPaths.scratchFolder("cli-byid-out")
        let thumb = try viewfinder("library", "--library", library, "thumbnail", "1", "--size", "64", "--fill", "-o", folder.appendingPathComponent("t.jpg").path)
        #expect(thumb.status == 0)
        #expect(try decodeImage(folder.appendingPathComponent("t.jpg"))?.size == PixelSize(width: 64, height: 64))
        let exported = folder.appendingPathComponent("e.jpg")
        #expect(try viewfinder("library", "--library", library, "export", "1", "-o", exported.path).status == 0)
        #expect(try Data(contentsOf: exported) == Data(contentsOf: URL(fileURLWithPath: Self.photos[5])))
        #expect(try viewfinder("library", "--library", library, "delete", "1").status == 0)
        let missing = try viewfinder("library", "--library", library, "delete", "1")
        #expect(missing.status == 1 && missing.stderr == "viewfinder: no asset with id 1 in the library\n")
        #expect(try viewfinder("library", "--library", library, "frobnicate").status == 2)
    }
}
