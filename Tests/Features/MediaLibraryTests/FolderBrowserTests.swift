import Foundation
import Testing
import ViewfinderCore
import ViewfinderTestSupport

@testable import MediaLibrary

@Suite("Folder browser")
@MainActor
struct FolderBrowserTests {
    /// What the browser showed at one change: how many items, how many files still to read.
    final class Changes {
        var seen: [[Int]] = []
        var firstShown: Asset?
    }

    @Test("a folder of 60 photos and a broken one opens with nothing probed, then fills a batch at a time in name order; the first item shown keeps its id; the broken file is refused and the rest still read")
    func fillsWhileProbing() async throws {
        let folder = TestPaths.scratchFolder("folder-browser").appendingPathComponent("shots")
        let made = try await Task.detached { try FixtureFactory.shotFolder(folder, count: 60, brokenAfter: 30) }.value
        let browser = try FolderBrowser(folder: folder, batchSize: 16)
        browser.order = .oldestFirst
        // Made without probing anything: the 61 files are only listed.
        #expect(browser.assets.isEmpty)
        #expect(browser.pendingCount == 61)
        #expect(browser.groups.map(\.count) == [0, 0, 0])
        let changes = Changes()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            browser.onChange = { [unowned browser] in
                changes.seen.append([browser.assets.count, browser.pendingCount])
                if changes.firstShown == nil { changes.firstShown = browser.assets.first }
            }
            browser.onProbed = { continuation.resume() }
        }
        // Batches of 16 files; the second holds the broken one.
        #expect(changes.seen == [[16, 45], [31, 29], [47, 13], [60, 0]])
        let first = try #require(changes.firstShown)
        #expect(first.id == 1 && first.originalFilename == "shot-01.jpg")
        #expect(browser.assets.first?.id == first.id)
        #expect(try browser.originalURL(of: first) == made.shots[0])
        #expect(browser.assets.map(\.originalFilename) == made.shots.map(\.lastPathComponent))
        #expect(browser.assets.map(\.id) == Array(1...60))
        #expect(browser.assets.allSatisfy { $0.kind == .photo && $0.size == PixelSize(width: 32, height: 24) })
        #expect(browser.groups.map(\.count) == [60, 60, 0])
        #expect(browser.refusedFiles.map(\.path) == [made.broken.path])
        #expect(browser.refusedFiles.first?.message.hasPrefix("not a readable photo or video (") == true,
                "\(browser.refusedFiles)")
    }

    @Test("a browser let go while it probes is gone at once: its probing holds it only while adding a batch (a picker switching folders freed the old grid, which the old browser's next batch then called)")
    func letGoWhileProbing() async throws {
        let folder = TestPaths.scratchFolder("folder-browser-let-go").appendingPathComponent("shots")
        _ = try await Task.detached { try FixtureFactory.shotFolder(folder, count: 40, brokenAfter: 20) }.value
        var browser: FolderBrowser? = try FolderBrowser(folder: folder, batchSize: 4)
        weak let watched = browser
        #expect(browser?.pendingCount == 41)
        browser = nil
        #expect(watched == nil, "the probing task kept the browser alive")
    }

    @Test("named files (Open with): ids follow the order given, a file named twice shows once, and a missing file, a folder and a broken file are refused with why")
    func namedFiles() async throws {
        let folder = TestPaths.scratchFolder("folder-browser-files").appendingPathComponent("shots")
        let made = try await Task.detached { try FixtureFactory.shotFolder(folder, count: 3, brokenAfter: 1) }.value
        let missing = folder.appendingPathComponent("gone.jpg")
        let given = [made.shots[2], made.broken, made.shots[0], missing, folder, made.shots[2]]
        let browser = FolderBrowser(files: given, batchSize: 2)
        #expect(browser.folder == nil)
        #expect(browser.pendingCount == 5)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            browser.onProbed = { continuation.resume() }
        }
        #expect(browser.pendingCount == 0)
        let byID = browser.assets.sorted { $0.id < $1.id }
        #expect(byID.map(\.id) == [1, 2])
        #expect(try byID.map { try browser.originalURL(of: $0) } == [made.shots[2], made.shots[0]])
        #expect(browser.refusedFiles.map(\.path) == [made.broken.path, missing.path, folder.path])
        #expect(browser.refusedFiles.map(\.message).dropFirst() == ["no such file", "not a regular file"])
    }
}
