import Foundation
import Store
import Testing
import ViewfinderCore
import ViewfinderTestSupport

/// The library never loses a file: each finding of the hostile review, planted and replayed.
@Suite("library containment")
struct LibrarySafetyTests {
    static let photo = TestPaths.media.appendingPathComponent("exif_orientation/Portrait_3.jpg")
    static let other = TestPaths.media.appendingPathComponent("exif_orientation/Portrait_6.jpg")

    /// A library with one imported photo, and a victim folder beside it holding files that
    /// nothing may touch.
    struct Setup {
        let scratch: URL
        let library: URL
        let victim: URL
        var catalogue: URL { library.appendingPathComponent("catalogue.sqlite") }

        init(_ name: String) throws {
            scratch = TestPaths.scratchFolder(name)
            library = scratch.appendingPathComponent("Lib")
            victim = scratch.appendingPathComponent("victim")
            try FileManager.default.createDirectory(at: victim, withIntermediateDirectories: true)
            for (index, text) in ["precious one", "precious two"].enumerated() {
                try Data(text.utf8).write(to: victim.appendingPathComponent("x\(index)"))
            }
            let imported = try viewfinder("library", "--library", library.path, "import", LibrarySafetyTests.photo.path, "-q")
            #expect(imported.status == 0, "\(imported.stderr)")
        }

        func run(_ arguments: String...) throws -> RunResult {
            try viewfinder(["library", "--library", library.path] + arguments)
        }

        /// Every file in the victim folder with its bytes.
        func snapshot() throws -> [String: Data] {
            var files: [String: Data] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: victim.path) {
                files[name] = try Data(contentsOf: victim.appendingPathComponent(name))
            }
            return files
        }

        /// The stored original's path, as the catalogue has it.
        func storedPath(id: Int64 = 1) throws -> String {
            let database = try Database(path: catalogue.path, readOnly: true)
            let statement = try database.prepare("SELECT path FROM assets WHERE id = ?").bind([.int(id)])
            _ = try statement.step()
            return statement.text(0)
        }

        func plant(path: String, id: Int64 = 1) throws {
            let database = try Database(path: catalogue.path)
            try database.prepare("UPDATE assets SET path = ? WHERE id = ?").run([.text(path), .int(id)])
        }
    }

    @Test("a row whose path reads ../victim/x is damage: delete, export and thumbnail never touch it; check drops the row")
    func plantedPath() throws {
        let setup = try Setup("safety-planted")
        let before = try setup.snapshot()
        for planted in ["../victim/x0", "../../../../etc/passwd", setup.victim.appendingPathComponent("x1").path,
                        "originals/../../victim/x0"] {
            try setup.plant(path: planted)
            let out = setup.scratch.appendingPathComponent("out")
            let export = try setup.run("export", "1", "-o", out.path)
            #expect(export.status == 1, "\(planted): \(export.stdout)")
            #expect(export.stderr.hasPrefix("viewfinder: asset 1 is damaged:") && export.stderr.split(separator: "\n").count == 1, "\(export.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out.path))
            let thumbnail = try setup.run("thumbnail", "1", "--size", "32", "-o", setup.scratch.appendingPathComponent("t.jpg").path)
            #expect(thumbnail.status == 1 && thumbnail.stderr.contains("is damaged"), "\(thumbnail.stderr)")
        }
        let check = try setup.run("check", "--verify")
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout.contains("1 damaged row(s)"), "\(check.stdout)")
        #expect(try setup.run("list").stdout.isEmpty)
        #expect(try setup.run("check", "--verify").stdout.hasSuffix("consistent\n"))
        #expect(try setup.snapshot() == before)

        // delete on a planted row removes the row only (the library is empty again, so the
        // new import is asset 1 once more).
        let again = try viewfinder("library", "--library", setup.library.path, "import", Self.other.path, "-q")
        #expect(again.status == 0)
        try setup.plant(path: "../victim/x0")
        let delete = try setup.run("delete", "1")
        #expect(delete.status == 0, "\(delete.stderr)")
        #expect(try setup.run("list").stdout.isEmpty)
        #expect(try setup.snapshot() == before)
    }

    @Test("check never follows a .incoming, originals or thumbnails folder replaced by a symlink")
    func symlinkedFolders() throws {
        let setup = try Setup("safety-links")
        let before = try setup.snapshot()
        let incoming = setup.library.appendingPathComponent(".incoming")
        try? FileManager.default.removeItem(at: incoming)
        try FileManager.default.createSymbolicLink(at: incoming, withDestinationURL: setup.victim)
        let thumbnails = setup.library.appendingPathComponent("thumbnails")
        try FileManager.default.removeItem(at: thumbnails)
        try FileManager.default.createSymbolicLink(at: thumbnails, withDestinationURL: setup.victim)
        let stored = setup.library.appendingPathComponent(try setup.storedPath())
        let planted = stored.deletingLastPathComponent().appendingPathComponent("link.jpg")
        try FileManager.default.createSymbolicLink(at: planted, withDestinationURL: setup.victim.appendingPathComponent("x0"))

        let check = try setup.run("check")
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout.contains(".incoming: not the library's (never followed)"), "\(check.stdout)")
        #expect(try setup.snapshot() == before, "nothing the links point at is touched")
        #expect(try setup.run("check").stdout.hasSuffix("consistent\n"))
        #expect(try setup.run("list").stdout.split(separator: "\n").count == 1)
        // A library whose folders were links works again: import and thumbnails recreate them.
        #expect(try setup.run("import", Self.other.path, "-q").status == 0)
        #expect(try setup.snapshot() == before)
        #expect(try setup.run("check", "--verify").stdout.hasSuffix("consistent\n"))
    }

    @Test("a cached thumbnail replaced by a link is never copied out")
    func thumbnailLink() throws {
        let setup = try Setup("safety-thumb-link")
        let cache = setup.library.appendingPathComponent("thumbnails")
        let name = "1-32x32-fit-exact.jpg"
        try? FileManager.default.removeItem(at: cache.appendingPathComponent(name))
        try FileManager.default.createSymbolicLink(at: cache.appendingPathComponent(name), withDestinationURL: setup.victim.appendingPathComponent("x0"))
        let out = setup.scratch.appendingPathComponent("t.jpg")
        let result = try setup.run("thumbnail", "1", "--size", "32", "-o", out.path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Data(contentsOf: out) != Data("precious one".utf8))
        #expect(try decodeImage(out) != nil)
    }

    @Test("import --move of the library's own original (or a hard link to it) refuses and keeps the only copy")
    func moveOwnOriginal() throws {
        let setup = try Setup("safety-move")
        let stored = setup.library.appendingPathComponent(try setup.storedPath())
        let bytes = try Data(contentsOf: stored)
        let result = try setup.run("import", "--move", stored.path, "-q")
        #expect(result.status == 1)
        #expect(result.stderr.contains("is inside the library"), "\(result.stderr)")
        #expect(try Data(contentsOf: stored) == bytes)
        // Through a symbolic link from outside, too.
        let link = setup.scratch.appendingPathComponent("link.jpg")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: stored)
        #expect(try setup.run("import", "--move", link.path, "-q").status == 1)
        #expect(try Data(contentsOf: stored) == bytes)
        // A hard link outside the library is the same file: not removed either.
        let hard = setup.scratch.appendingPathComponent("hard.jpg")
        try FileManager.default.linkItem(at: stored, to: hard)
        let linked = try setup.run("import", "--move", hard.path, "-q")
        #expect(linked.status == 1 && linked.stderr.contains("hard link"), "\(linked.stderr)")
        #expect(FileManager.default.fileExists(atPath: hard.path))
        #expect(try setup.run("check", "--verify").stdout.hasSuffix("consistent\n"))
        // A plain outside file is still moved.
        let copy = setup.scratch.appendingPathComponent("copy.jpg")
        try FileManager.default.copyItem(at: Self.other, to: copy)
        #expect(try setup.run("import", "--move", copy.path, "-q").status == 0)
        #expect(!FileManager.default.fileExists(atPath: copy.path))
    }

    @Test("outputs inside the library are refused: the catalogue, its journal, an original, the default library")
    func outputsInside() throws {
        let setup = try Setup("safety-outputs")
        _ = try viewfinder("library", "--library", setup.library.path, "import", Self.other.path, "-q")
        let otherOriginal = setup.library.appendingPathComponent(try setup.storedPath(id: 2))
        let originalBytes = try Data(contentsOf: otherOriginal)
        for target in [setup.catalogue.path, setup.catalogue.path + "-wal", setup.catalogue.path + "-journal",
                       otherOriginal.path, setup.library.appendingPathComponent("new.jpg").path] {
            let export = try setup.run("export", "1", "-o", target)
            #expect(export.status == 1 && export.stderr.contains("inside the photo library"), "\(target): \(export.stderr)")
            let thumb = try setup.run("thumbnail", "1", "--size", "16", "-o", target)
            #expect(thumb.status == 1 && thumb.stderr.contains("inside the photo library"), "\(target): \(thumb.stderr)")
        }
        #expect(try Data(contentsOf: otherOriginal) == originalBytes)
        #expect(try setup.run("list").stdout.split(separator: "\n").count == 2, "the catalogue still works")
        // Other commands protect the default library ($VIEWFINDER_LIBRARY) the same way.
        let sample = setup.scratch.appendingPathComponent("s.mp4")
        #expect(try viewfinder("sample", "-o", sample.path, "--seconds", "1").status == 0)
        let cover = try Subprocess.run(TestPaths.tool, ["cover", sample.path, "--at", "0", "-o", setup.library.appendingPathComponent("c.jpg").path],
                                       environment: ["VIEWFINDER_LIBRARY": setup.library.path])
        #expect(cover.status == 1 && cover.stderr.contains("inside the photo library"), "\(cover.stderr)")
        #expect(!FileManager.default.fileExists(atPath: setup.library.appendingPathComponent("c.jpg").path))
    }

    /// The writer races the import, so which way a run goes depends on timing: the import is
    /// refused (nothing stored), or it read one unchanging snapshot, which is then exactly what
    /// is stored. Never a fragment under a row that claims the whole file. The refusal itself is
    /// shown deterministically in MediaLibraryTests (LibraryImportChangeTests).
    @Test("a file rewritten or growing during import: refused, or stored exactly as validated", arguments: ["grow", "rewrite"])
    func changingSource(_ how: String) throws {
        let setup = try Setup("safety-changing-\(how)")
        // A large valid photo, so that the copy takes long enough to see the writer.
        let file = setup.scratch.appendingPathComponent("padded.mp4")
        let made = try viewfinder("sample", "-o", setup.scratch.appendingPathComponent("big.mp4").path, "--seconds", "1")
        #expect(made.status == 0)
        var bytes = try Data(contentsOf: setup.scratch.appendingPathComponent("big.mp4"))
        bytes.append(Data(count: 48 << 20))   // trailing bytes a container ignores
        try bytes.write(to: file)
        let content = bytes
        let stop = StopFlag()
        let writer = Thread {
            guard let handle = FileHandle(forWritingAtPath: file.path) else { return }
            defer { try? handle.close() }
            while !stop.isSet {
                if how == "grow" {
                    _ = try? handle.seekToEnd()
                    try? handle.write(contentsOf: Data(repeating: 1, count: 4096))
                } else {
                    try? handle.truncate(atOffset: 9)
                    try? handle.seek(toOffset: 0)
                    try? handle.write(contentsOf: content.prefix(9))
                    try? handle.seek(toOffset: 9)
                    try? handle.write(contentsOf: content.dropFirst(9))
                }
            }
        }
        writer.start()
        let result = try setup.run("import", file.path, "-q", "--thumbnail-size", "0")
        stop.set()
        let listed = try setup.run("list").stdout.split(separator: "\n").count
        if result.status == 0 {
            // A snapshot was stored: its bytes are a whole version the writer made.
            #expect(listed == 2)
            let stored = setup.library.appendingPathComponent(try setup.storedPath(id: 2))
            let size = try Data(contentsOf: stored).count
            #expect(how == "rewrite" ? size == content.count : size >= content.count, "\(size) bytes stored")
        } else {
            #expect(result.status == 1)
            #expect(result.stderr.contains("changed while it was being imported") || result.stderr.contains("Invalid data"), "\(result.stderr)")
            #expect(listed == 1)
        }
        #expect(try setup.run("check", "--verify").stdout.hasSuffix("consistent\n"))
    }

    @Test("check --verify reports an original whose bytes changed, and keeps it")
    func verify() throws {
        let setup = try Setup("safety-verify")
        let stored = setup.library.appendingPathComponent(try setup.storedPath())
        #expect(try setup.run("check", "--verify").stdout.hasSuffix("consistent\n"))
        var bytes = try Data(contentsOf: stored)
        bytes[bytes.count / 2] ^= 0xFF
        try bytes.write(to: stored)
        #expect(try setup.run("check").stdout.hasSuffix("consistent\n"), "without --verify nothing is re-hashed")
        let check = try setup.run("check", "--verify")
        #expect(check.status == 1)
        #expect(check.stdout.contains("damaged: asset 1: its stored file no longer matches its content hash"), "\(check.stdout)")
        #expect(try Data(contentsOf: stored) == bytes, "kept")
    }

    @Test("check removes unfinished thumbnails a killed import leaves")
    func partialThumbnails() throws {
        let setup = try Setup("safety-partial-thumbs")
        let cache = setup.library.appendingPathComponent("thumbnails")
        for name in ["0A1B.partial", ".1-256x256-fill-exact.jpg.123-456.partial"] {
            try Data("half".utf8).write(to: cache.appendingPathComponent(name))
        }
        let check = try setup.run("check")
        #expect(check.stdout.contains("2 unfinished thumbnail(s)"), "\(check.stdout)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache.path).allSatisfy { !$0.hasSuffix(".partial") })
        #expect(try setup.run("check").stdout.hasSuffix("consistent\n"))
    }

    @Test("album names with tabs or line breaks are refused, so the text listing stays unambiguous")
    func albumNames() throws {
        let setup = try Setup("safety-albums")
        for name in ["a\tb", "a\nb", "a\rb"] {
            let result = try setup.run("album", "create", name)
            #expect(result.status == 1 && result.stderr.contains("cannot be an album name"), "\(result.stderr)")
        }
        #expect(try setup.run("albums").stdout.isEmpty)
    }

    @Test("thumbnail of an original that no longer decodes says so in thumbnail words")
    func thumbnailOfBrokenOriginal() throws {
        let setup = try Setup("safety-thumb-broken")
        let stored = setup.library.appendingPathComponent(try setup.storedPath())
        try Data("no longer a photo".utf8).write(to: stored)
        let result = try setup.run("thumbnail", "1", "--size", "40", "-o", setup.scratch.appendingPathComponent("t.jpg").path)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("viewfinder: cannot make a thumbnail of asset 1: its original cannot be decoded"), "\(result.stderr)")
        #expect(!result.stderr.contains("nothing was stored"))
    }

    @Test("a full disk during import names the library and the cause, not the source")
    func diskFull() throws {
        try #require(getuid() == 0, "this test mounts a 256 KB tmpfs as the library, which needs root (CI runs as root)")
        let scratch = TestPaths.scratchFolder("safety-full")
        let mount = scratch.appendingPathComponent("small")
        try FileManager.default.createDirectory(at: mount, withIntermediateDirectories: true)
        let mounted = try Subprocess.run("mount", ["-t", "tmpfs", "-o", "size=256k", "tmpfs", mount.path])
        try #require(mounted.status == 0, "mount failed: \(mounted.stderr)")
        defer { _ = try? Subprocess.run("umount", [mount.path]) }
        let library = mount.appendingPathComponent("Lib")
        let big = TestPaths.media.appendingPathComponent("phone_video/pixel7_h264_rot180_noaudio_moov_at_end.mp4")
        let result = try viewfinder("library", "--library", library.path, "import", big.path, "-q")
        #expect(result.status == 1)
        #expect(result.stderr.contains("cannot store pixel7_h264_rot180_noaudio_moov_at_end.mp4 in the library at \(library.path): No space left on device"),
                "\(result.stderr)")
        #expect(try viewfinder("library", "--library", library.path, "check").stdout.hasSuffix("consistent\n"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: library.appendingPathComponent(".incoming").path).isEmpty)
    }

    @Test("Ctrl-C during a bulk import exits 130 and leaves a consistent library")
    func interruptedImport() throws {
        let setup = try Setup("safety-sigint")
        let files = (1...8).map { TestPaths.media.appendingPathComponent("exif_orientation/Portrait_\($0).jpg").path }
        var many: [String] = []
        for round in 0..<6 {
            for (index, file) in files.enumerated() {
                // Distinct content per copy (one trailing byte), so every file is a new import.
                var bytes = try Data(contentsOf: URL(fileURLWithPath: file))
                bytes.append(UInt8(round * 8 + index))
                let copy = setup.scratch.appendingPathComponent("p\(round)-\(index).jpg")
                try bytes.write(to: copy)
                many.append(copy.path)
            }
        }
        let running = try Subprocess.start(TestPaths.tool, ["library", "--library", setup.library.path, "import"] + many)
        // Wait until the first of the new files is stored, then interrupt.
        Poll.until(within: 30, every: 0.01) {
            !running.isRunning
                || (try? FileManager.default.contentsOfDirectory(atPath: setup.library.appendingPathComponent("originals").path).count) ?? 0 >= 2
        }
        #expect(running.isRunning, "the import finished before it could be interrupted")
        running.interrupt()
        let result = try running.finish(timeout: 30)
        #expect(result.status == 130, "\(result.stderr)")
        #expect(result.stderr.contains("viewfinder: cancelled\n"), "\(result.stderr)")
        #expect(try setup.run("check", "--verify").stdout.hasSuffix("consistent\n"))
    }
}

/// A flag one thread sets and another reads.
final class StopFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var flag = false
    var isSet: Bool { lock.lock(); defer { lock.unlock() }; return flag }
    func set() { lock.lock(); flag = true; lock.unlock() }
}
