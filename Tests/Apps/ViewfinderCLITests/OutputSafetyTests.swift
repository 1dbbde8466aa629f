import Foundation
import Testing
import ViewfinderCore
import ViewfinderTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// Outputs are regular files, and no signal leaves a half-written one behind.
@Suite("Output safety")
struct OutputSafetyTests {
    /// SIGINT, SIGTERM and SIGHUP while an export writes: each exits 128 + its number with one
    /// line, and the hidden partial file is gone.
    @Test("a signal while writing cleans up and exits 128 + its number", arguments: [SIGINT, SIGTERM, SIGHUP])
    func signalWhileWriting(_ number: Int32) throws {
        let fixture = try FixtureFactory.shared.fixture(ExportCommandTests.big)
        let folder = TestPaths.scratchFolder("signal-\(number)")
        let process = Process()
        process.executableURL = TestPaths.tool
        process.arguments = ["convert", fixture.url.path, "--preset", "highest", "-o", folder.appendingPathComponent("o.mp4").path]
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // Wait until the export is writing (its hidden partial file exists), then signal it.
        Poll.until(within: 30) { !leftovers(in: folder).isEmpty || !process.isRunning }
        #expect(process.isRunning, "the export finished before the signal")
        kill(process.processIdentifier, number)
        process.waitUntilExit()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationReason == .exit && process.terminationStatus == 128 + number,
                "signal \(number): \(process.terminationReason) \(process.terminationStatus)")
        #expect(stderr.hasSuffix("viewfinder: cancelled; nothing was written\n"), "\(stderr)")
        #expect(leftovers(in: folder).isEmpty, "left \(leftovers(in: folder))")
    }

    @Test("a partial file of a process that no longer runs is removed by the next write there; a live one's is kept")
    func stalePartials() throws {
        let fixture = try FixtureFactory.shared.fixture(.h264BFrames)
        let folder = TestPaths.scratchFolder("stale")
        // A process that has ended: its pid is free (until reused, when its file is kept).
        let ended = Process()
        ended.executableURL = URL(fileURLWithPath: "/bin/true")
        try ended.run()
        ended.waitUntilExit()
        let dead = ".cover.jpg.\(ended.processIdentifier)-12345.partial"
        let live = ".cover.jpg.\(ProcessInfo.processInfo.processIdentifier)-6789.partial"
        let other = ".notes.partial"  // not a name we make
        for name in [dead, live, other] {
            try Data("x".utf8).write(to: folder.appendingPathComponent(name))
        }
        let result = try viewfinder("cover", fixture.url.path, "--at", "0.5", "-o", folder.appendingPathComponent("c.jpg").path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(leftovers(in: folder) == [live, other, "c.jpg"].sorted())
    }

    @Test("-o naming a named pipe is refused in one line before any work, and the pipe stays")
    func fifoTarget() throws {
        let fixture = try FixtureFactory.shared.fixture(.h264BFrames)
        let folder = TestPaths.scratchFolder("fifo")
        for name in ["o.mp4", "o.jpg"] {
            let target = folder.appendingPathComponent(name)
            #expect(mkfifo(target.path, 0o644) == 0)
            let command = name.hasSuffix(".mp4") ? ["trim", fixture.url.path, "--from", "0.5", "-o", target.path]
                : ["cover", fixture.url.path, "--at", "0.5", "-o", target.path]
            let result = try viewfinder(command, timeout: 30)
            #expect(result.status == 1, "\(name): \(result.status) \(result.stderr)")
            #expect(result.stderr == "viewfinder: cannot write \(target.path): it is a named pipe or another special file, not a regular file; give a file name\n")
            let type = try FileManager.default.attributesOfItem(atPath: target.path)[.type] as? FileAttributeType
            #expect(type != .typeRegular, "\(name) was replaced by a regular file")
        }
        #expect(leftovers(in: folder) == ["o.jpg", "o.mp4"])
    }

    @Test("-o naming a device node is refused and the node stays a device")
    func deviceTarget() throws {
        let fixture = try FixtureFactory.shared.fixture(.h264BFrames)
        let folder = TestPaths.scratchFolder("device")
        // A node like /dev/null (character device 1:3, glibc's encoding (1 << 8) | 3) inside the scratch folder; only root may
        // make one, so elsewhere /dev/null itself stands in (its name has no video extension,
        // which convert accepts).
        let node = folder.appendingPathComponent("null.mp4")
        let target = mknod(node.path, S_IFCHR | 0o666, dev_t((1 << 8) | 3)) == 0 ? node : URL(fileURLWithPath: "/dev/null")
        if target.path == "/dev/null" { print("deviceTarget: not root, so /dev/null is the device under test") }
        let result = try viewfinder(["convert", fixture.url.path, "--quiet", "-o", target.path], timeout: 30)
        #expect(result.status == 1, "\(result.status) \(result.stderr)")
        #expect(result.stderr.contains("it is a device, not a regular file"), "\(result.stderr)")
        let type = try FileManager.default.attributesOfItem(atPath: target.path)[.type] as? FileAttributeType
        #expect(type == .typeCharacterSpecial)
    }
}

/// File names are the user's (or an attacker's) text: what the tool prints never carries their
/// control characters to the terminal.
@Suite("Printed names")
struct PrintedNameTests {
    @Test("import, list and error messages escape control characters in file names")
    func controlCharacters() throws {
        let folder = TestPaths.scratchFolder("names")
        let name = "red\u{1B}[31m\nline\u{202E}gpj.jpg"
        let photo = folder.appendingPathComponent(name)
        try FileManager.default.copyItem(at: TestPaths.media.appendingPathComponent("exif_orientation/Portrait_3.jpg"), to: photo)
        let library = folder.appendingPathComponent("Lib").path
        let imported = try viewfinder("library", "--library", library, "import", photo.path)
        #expect(imported.status == 0, "\(imported.stderr)")
        let escaped = "red\\e[31m\\nline\\u{202E}gpj.jpg"
        let listed = try viewfinder("library", "--library", library, "list")
        for (what, text) in [("import", imported.stdout), ("list", listed.stdout)] {
            #expect(text.contains(escaped), "\(what): \(text)")
            #expect(!text.contains("\u{1B}") && !text.contains("\u{202E}"), "\(what) printed a control character")
        }
        #expect(imported.stdout.split(separator: "\n").count == 2, "\(imported.stdout)")
        let missing = try viewfinder("cover", folder.appendingPathComponent("gone\u{1B}[2J.mp4").path, "-o", folder.appendingPathComponent("c.jpg").path)
        #expect(missing.status == 1)
        #expect(!missing.stderr.contains("\u{1B}") && missing.stderr.contains("gone\\e[2J.mp4"), "\(missing.stderr)")
    }
}
