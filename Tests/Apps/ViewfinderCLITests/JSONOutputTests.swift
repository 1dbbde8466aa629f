import Foundation
import Testing
import ViewfinderTestSupport

/// `--json` on the commands that report a result and had none: sample, capture, library check;
/// and a library subcommand that prints one line refuses it rather than ignoring it.
@Suite("--json on every command that reports a result")
struct JSONOutputTests {
    @Test("sample --json: the file, its frames, size, rate and encoder")
    func sample() throws {
        let out = TestPaths.scratchFolder("json-sample").appendingPathComponent("s.mp4")
        let result = try viewfinder("sample", "-o", out.path, "--seconds", "1", "--fps", "12", "--size", "96x64", "--json")
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(jsonObject(result))
        #expect(json["output"] as? String == out.path && json["frames"] as? Int == 12 && json["fps"] as? Int == 12)
        #expect(json["width"] as? Int == 96 && json["height"] as? Int == 64 && json["duration"] as? Int == 1)
        let probe = try Subprocess.run("ffprobe", ["-v", "error", "-count_frames", "-show_entries", "stream=nb_read_frames,width",
                                                   "-of", "csv=p=0", out.path])
        #expect(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "96,12")
    }

    @Test("capture --json: a photo described as info --json describes it; --save gives the library id")
    func capture() throws {
        let folder = TestPaths.scratchFolder("json-capture")
        let out = folder.appendingPathComponent("p.jpg")
        let result = try viewfinder("capture", "photo", "--device", "virtual", "-o", out.path, "--json")
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(jsonObject(result))
        #expect(json["kind"] as? String == "photo" && json["device"] as? String == "virtual" && json["output"] as? String == out.path)
        let file = try #require(json["file"] as? [String: Any])
        let info = try #require(jsonObject(try viewfinder("info", out.path, "--json")))
        #expect(file["width"] as? Int == info["width"] as? Int && file["height"] as? Int == info["height"] as? Int)
        #expect((file["width"] as? Int ?? 0) > 0 && file["format"] as? String == "jpeg")
        let library = folder.appendingPathComponent("lib")
        #expect(try viewfinder("library", "--library", library.path, "init").status == 0)
        let saved = try #require(jsonObject(try viewfinder("capture", "photo", "--device", "virtual", "--save",
                                                           "--library", library.path, "--json")))
        #expect(saved["library"] as? String == library.path && saved["id"] as? Int == 1 && saved["output"] == nil)
    }

    @Test("library check --json: consistent, then an original gone is listed by id; delete --json is a usage error")
    func libraryCheck() throws {
        let folder = TestPaths.scratchFolder("json-check")
        let library = folder.appendingPathComponent("lib")
        let photo = TestPaths.media.appendingPathComponent("images/progressive_canon350d.jpg")
        #expect(try viewfinder("library", "--library", library.path, "import", photo.path, "-q").status == 0)
        let clean = try viewfinder("library", "--library", library.path, "check", "--json")
        #expect(clean.status == 0)
        let report = try #require(jsonObject(clean))
        #expect(report["consistent"] as? Bool == true && (report["missingFiles"] as? [Any])?.isEmpty == true)
        // Remove the original behind the catalogue's back: check finds the row without a file.
        let originals = library.appendingPathComponent("originals")
        let stored = try #require(FileManager.default.subpathsOfDirectory(atPath: originals.path)
            .first { !$0.hasSuffix("/") && $0.contains(".") })
        try FileManager.default.removeItem(at: originals.appendingPathComponent(stored))
        let damaged = try #require(jsonObject(try viewfinder("library", "--library", library.path, "check", "--json")))
        #expect(damaged["consistent"] as? Bool == false && damaged["missingFiles"] as? [Int] == [1], "\(damaged)")
        #expect(damaged["repaired"] as? Bool == true)
        let refused = try viewfinder("library", "--library", library.path, "delete", "1", "--json")
        #expect(refused.status == 2 && refused.stderr.hasPrefix("viewfinder library delete: --json is for library import, list, albums and check\n"))
    }
}
