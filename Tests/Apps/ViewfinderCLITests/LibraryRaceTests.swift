import Foundation
import Testing
import ViewfinderCore
import ViewfinderTestSupport

/// No original is lost when the catalogue is, and `check` never races a live import.
@Suite("library: lost catalogues and concurrent imports")
struct LibraryRaceTests {
    /// `count` small JPEGs of different content (testsrc frames), made by the ffmpeg CLI.
    static func photos(_ count: Int, in folder: URL, prefix: String) throws -> [URL] {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let pattern = folder.appendingPathComponent("\(prefix)-%03d.jpg").path
        let result = try Subprocess.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=s=96x64:r=25",
                                                   "-frames:v", "\(count)", "-q:v", "3", pattern])
        guard result.status == 0 else { throw SubprocessError.failed("ffmpeg", result.stderr) }
        return (1...count).map { folder.appendingPathComponent(String(format: "\(prefix)-%03d.jpg", $0)) }
    }

    /// Every stored original under `library`/originals.
    static func originals(in library: URL) -> [String] {
        let root = library.appendingPathComponent("originals")
        return ((FileManager.default.subpaths(atPath: root.path)) ?? []).filter { $0.hasSuffix(".jpg") }.sorted()
    }

    @Test("a zero-length or missing catalogue: check removes no original, says so, exits 1; check --rebuild catalogues them", arguments: ["empty", "missing"])
    func lostCatalogue(_ how: String) throws {
        let scratch = TestPaths.scratchFolder("lost-catalogue-\(how)")
        let library = scratch.appendingPathComponent("Lib")
        let files = try Self.photos(3, in: scratch.appendingPathComponent("in"), prefix: how)
        let imported = try viewfinder(["library", "--library", library.path, "import"] + files.map(\.path) + ["-q"])
        #expect(imported.status == 0, "\(imported.stderr)")
        let stored = Self.originals(in: library)
        #expect(stored.count == 3)
        let catalogue = library.appendingPathComponent("catalogue.sqlite")
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: catalogue.path + suffix) }
        if how == "empty" {
            try Data().write(to: catalogue)
        } else {
            try FileManager.default.removeItem(at: catalogue)
        }
        let check = try viewfinder("library", "--library", library.path, "check")
        #expect(check.status == 1, "\(check.stdout) \(check.stderr)")
        #expect(check.stdout.contains("3 originals but not one catalogue row: the catalogue was lost or emptied; nothing was removed"),
                "\(check.stdout)")
        #expect(Self.originals(in: library) == stored, "originals were removed")
        // What the message says to do works: the originals are catalogued again, nothing copied twice.
        #expect(check.stdout.contains("check --rebuild"), "\(check.stdout)")
        let again = try viewfinder("library", "--library", library.path, "check", "--rebuild")
        #expect(again.status == 0, "\(again.stdout) \(again.stderr)")
        #expect(again.stdout.contains("3 originals catalogued again"), "\(again.stdout)")
        #expect(Self.originals(in: library) == stored)
        let listed = try viewfinder("library", "--library", library.path, "list")
        #expect(listed.stdout.split(separator: "\n").count == 3, "\(listed.stdout)")
        let after = try viewfinder("library", "--library", library.path, "check")
        #expect(after.status == 0 && after.stdout.hasSuffix(": consistent\n"), "\(after.stdout)")
    }

    /// An import puts an original in place as a second name of its incoming copy and removes
    /// the incoming name after the row is committed; killed between the two, a library's first
    /// import leaves an original and no row. That is an unfinished import, not a lost catalogue.
    @Test("a first import killed after its original was put in place, before its row: check removes it; an original without its incoming copy is kept")
    func firstImportKilled() throws {
        let scratch = TestPaths.scratchFolder("first-import-killed")
        let library = scratch.appendingPathComponent("Lib")
        #expect(try viewfinder("library", "--library", library.path, "init").status == 0)
        let photo = try Self.photos(1, in: scratch.appendingPathComponent("in"), prefix: "first")[0]
        let fm = FileManager.default
        let incoming = library.appendingPathComponent(".incoming"), prefix = library.appendingPathComponent("originals/ab")
        try fm.createDirectory(at: incoming, withIntermediateDirectories: true)
        try fm.createDirectory(at: prefix, withIntermediateDirectories: true)
        let copy = incoming.appendingPathComponent("0F1E2D3C.partial")
        try fm.copyItem(at: photo, to: copy)
        let placed = prefix.appendingPathComponent("ab01.jpg")
        try fm.linkItem(at: copy, to: placed)
        // Without its incoming copy the same original is the lost catalogue's: kept.
        let alone = prefix.appendingPathComponent("ab02.jpg")
        try fm.copyItem(at: photo, to: alone)
        let check = try viewfinder("library", "--library", library.path, "check")
        #expect(check.stdout.contains("1 unfinished import"), "\(check.stdout)")
        #expect(check.stdout.contains("1 original but not one catalogue row"), "\(check.stdout)")
        #expect(!fm.fileExists(atPath: placed.path) && !fm.fileExists(atPath: copy.path))
        #expect(fm.fileExists(atPath: alone.path), "an original with no incoming copy was removed")
        try fm.removeItem(at: alone)
        let again = try viewfinder("library", "--library", library.path, "check")
        #expect(again.status == 0 && again.stdout.hasSuffix(": consistent\n"), "\(again.stdout)")
    }

    @Test("a catalogue that lost rows (an older copy put back): check --rebuild catalogues the orphans instead of removing them")
    func olderCatalogue() throws {
        let scratch = TestPaths.scratchFolder("older-catalogue")
        let library = scratch.appendingPathComponent("Lib")
        let files = try Self.photos(3, in: scratch.appendingPathComponent("in"), prefix: "older")
        #expect(try viewfinder(["library", "--library", library.path, "import", files[0].path, "-q"]).status == 0)
        let catalogue = library.appendingPathComponent("catalogue.sqlite")
        let older = scratch.appendingPathComponent("older.sqlite")
        try FileManager.default.copyItem(at: catalogue, to: older)
        #expect(try viewfinder(["library", "--library", library.path, "import", files[1].path, files[2].path, "-q"]).status == 0)
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: catalogue.path + suffix) }
        try FileManager.default.removeItem(at: catalogue)
        try FileManager.default.copyItem(at: older, to: catalogue)
        let rebuilt = try viewfinder("library", "--library", library.path, "check", "--rebuild")
        #expect(rebuilt.status == 0, "\(rebuilt.stdout) \(rebuilt.stderr)")
        #expect(rebuilt.stdout.contains("2 originals catalogued again"), "\(rebuilt.stdout)")
        #expect(Self.originals(in: library).count == 3)
        let listed = try viewfinder("library", "--library", library.path, "list")
        #expect(listed.stdout.split(separator: "\n").count == 3, "\(listed.stdout)")
    }

    @Test("four import --move processes while check loops: every file is stored, catalogued and gone from its source")
    func concurrentMoveAndCheck() throws {
        let scratch = TestPaths.scratchFolder("import-race")
        let library = scratch.appendingPathComponent("Lib")
        // The seed is another photo than the 40 (a pattern's first frame at another size).
        let setup = try viewfinder("library", "--library", library.path, "import",
                                   TestPaths.media.appendingPathComponent("exif_orientation/Portrait_3.jpg").path, "-q")
        #expect(setup.status == 0, "\(setup.stderr)")
        // Four sources of 10 different photos each (frames 1-40 of one test pattern).
        let all = try Self.photos(40, in: scratch.appendingPathComponent("all"), prefix: "p")
        var lanes: [[URL]] = []
        for lane in 0..<4 {
            let folder = scratch.appendingPathComponent("source-\(lane)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            lanes.append(try all[(lane * 10)..<(lane * 10 + 10)].map { file in
                let target = folder.appendingPathComponent(file.lastPathComponent)
                try FileManager.default.moveItem(at: file, to: target)
                return target
            })
        }
        let importers = try lanes.map { files in
            try Subprocess.start(TestPaths.tool, ["library", "--library", library.path, "import", "--move"] + files.map(\.path) + ["-q"])
        }
        // `check` over and over until every importer has ended (bounded: 400 runs).
        var checks = 0
        while importers.contains(where: \.isRunning) && checks < 400 {
            let check = try viewfinder("library", "--library", library.path, "check")
            #expect(check.status == 0, "\(check.stdout) \(check.stderr)")
            checks += 1
        }
        for importer in importers {
            let result = try importer.finish(timeout: 120)
            #expect(result.status == 0, "\(result.stderr)")
        }
        #expect(checks > 0)
        for files in lanes {
            for file in files { #expect(!FileManager.default.fileExists(atPath: file.path), "\(file.lastPathComponent) is still in its source") }
        }
        #expect(Self.originals(in: library).count == 41, "stored: \(Self.originals(in: library).count) of 41")
        let list = try viewfinder("library", "--library", library.path, "list", "--json")
        let rows = (try JSONSerialization.jsonObject(with: list.stdoutData) as? [[String: Any]]) ?? []
        #expect(rows.count == 41)
        let final = try viewfinder("library", "--library", library.path, "check")
        #expect(final.status == 0 && final.stdout.hasSuffix(": consistent\n"), "\(final.stdout)")
    }
}

extension LibraryRaceTests {
    @Test("reading verbs never create a library: a mistyped --library is an error and leaves nothing", arguments: [
        ["list"], ["albums"], ["check"], ["export", "1", "-o", "/tmp/never-written.jpg"], ["thumbnail", "1", "-o", "/tmp/never-written.jpg"],
    ])
    func typoLibrary(_ verb: [String]) throws {
        let typo = TestPaths.scratchFolder("typo").appendingPathComponent("Libary")
        let result = try viewfinder(["library", "--library", typo.path] + verb)
        #expect(result.status == 1, "\(verb): \(result.status) \(result.stderr)")
        #expect(result.stderr == "viewfinder: there is no library at \(typo.path); 'viewfinder library init' or an import makes one\n")
        #expect(!FileManager.default.fileExists(atPath: typo.path), "\(verb) made \(typo.path)")
    }
}
