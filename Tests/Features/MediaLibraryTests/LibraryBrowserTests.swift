import Foundation
import Imaging
import MediaIO
import Testing
import ViewfinderCore
import ViewfinderTestSupport

@testable import MediaLibrary

/// A Progress that cancels itself once the first file's bytes are counted.
final class CancelAfterFirstFile: Progress, @unchecked Sendable {
    init() {
        super.init(parent: nil, userInfo: nil)
        totalUnitCount = 1
    }
    override var completedUnitCount: Int64 {
        didSet { if completedUnitCount > 0 { cancel() } }
    }
}

@Suite("Library browser")
@MainActor
struct LibraryBrowserTests {
    /// A photo whose pixels show `index` and whose EXIF says it was taken `daysAgo` days ago.
    nonisolated static func photo(_ index: Int, daysAgo: Int, in folder: URL) throws -> URL {
        let url = folder.appendingPathComponent("photo-\(index).jpg")
        let taken = Date(timeIntervalSince1970: 1_700_000_000 - Double(daysAgo) * 86_400)
        try ImageEncoder.writePhoto(FrameIndexPattern.render(index: index, size: PixelSize(width: 320, height: 200)),
                                    to: url, takenAt: taken)
        return url
    }

    func libraryFolder() -> URL {
        TestPaths.scratchFolder("browser").appendingPathComponent("Library")
    }

    /// Three photos (one in two albums), a video and a capture, added straight to the library,
    /// off the main actor (decoding them takes a while, and other suites need the actor).
    nonisolated static func populated() async throws -> (URL, [String: Asset]) {
        let folder = TestPaths.scratchFolder("browser").appendingPathComponent("Library")
        let source = TestPaths.scratchFolder("browser-files")
        let library = try MediaLibrary(folder: folder)
        var assets: [String: Asset] = [:]
        assets["old"] = try library.importFile(try Self.photo(1, daysAgo: 30, in: source), album: "Trip").asset
        assets["mid"] = try library.importFile(try Self.photo(2, daysAgo: 10, in: source)).asset
        assets["new"] = try library.importFile(try Self.photo(3, daysAgo: 1, in: source), source: .capture).asset
        assets["video"] = try library.importFile(try FixtureFactory.shared.fixture(.h264BFrames).url, album: "Family").asset
        try library.add([assets["old"]?.id ?? 0], toAlbum: "Family")
        return (folder, assets)
    }

    @Test("groups: All, Photos, Videos, Captures, then albums by name, with their counts")
    func groups() async throws {
        let (folder, _) = try await Self.populated()
        let browser = try LibraryBrowser(folder: folder)
        #expect(browser.groups.map(\.title) == ["All", "Photos", "Videos", "Captures", "Family", "Trip"])
        #expect(browser.groups.map(\.count) == [4, 3, 1, 1, 2, 1])
        #expect(browser.groups.map(\.group) == [.all, .photos, .videos, .captures, .album("Family"), .album("Trip")])
        #expect(browser.assets.count == 4)
        #expect(browser.lastError == nil)
    }

    @Test("the grid is newest first and follows the group and the kind filter")
    func filtering() async throws {
        let (folder, assets) = try await Self.populated()
        let browser = try LibraryBrowser(folder: folder)
        var changes = 0
        browser.onChange = { changes += 1 }
        let ids = { browser.assets.map(\.id) }
        let (old, mid, new, video) = (assets["old"]?.id, assets["mid"]?.id, assets["new"]?.id, assets["video"]?.id)
        #expect(ids() == [video, new, mid, old], "the fixture's file date is today, the photos' EXIF dates older")
        #expect(browser.assets.map(\.creationDate) == browser.assets.map(\.creationDate).sorted(by: >))
        browser.filter = .photos
        #expect(ids() == [new, mid, old])
        browser.selectedGroup = .album("Family")
        #expect(ids() == [old])
        browser.filter = .videos
        #expect(ids() == [video])
        browser.selectedGroup = .captures
        #expect(ids().isEmpty)
        browser.filter = .all
        #expect(ids() == [new])
        #expect(changes == 5)
        browser.filter = .all
        #expect(changes == 5, "setting the same value does not reload")
    }

    @Test("a thumbnail request cancelled before its turn is dropped without decoding (a cell scrolled away)")
    func cancelledThumbnail() async throws {
        let (folder, assets) = try await Self.populated()
        let browser = try LibraryBrowser(folder: folder)
        let photo = try #require(assets["mid"])
        let request = Task { try await browser.thumbnail(for: photo, side: 48) }
        request.cancel()
        await #expect(throws: LibraryError.cancelled) { try await request.value }
        // Not cached by the dropped request: a live one decodes and gets the picture.
        let picture = try await browser.thumbnail(for: photo, side: 48)
        #expect(picture.width == 48 && picture.height == 48)
    }

    @Test("waiting thumbnail requests are served newest first (the cells on screen now)")
    func newestFirst() async throws {
        let (folder, assets) = try await Self.populated()
        let browser = try LibraryBrowser(folder: folder)
        let order = ["old", "mid", "new"]
        var finished: [String] = []
        let requests = try order.map { name in
            let asset = try #require(assets[name])
            return Task {
                _ = try await browser.thumbnail(for: asset, side: 40)
                finished.append(name)
            }
        }
        for request in requests { try await request.value }
        #expect(finished == ["new", "mid", "old"])
    }

    @Test("thumbnails are filled squares; two at once both arrive; the second ask is from memory")
    func thumbnails() async throws {
        let (folder, assets) = try await Self.populated()
        let browser = try LibraryBrowser(folder: folder, thumbnailCacheCount: 2)
        let photo = try #require(assets["mid"]), video = try #require(assets["video"])
        async let a = browser.thumbnail(for: photo, side: 64)
        async let b = browser.thumbnail(for: video, side: 64)
        let (first, second) = try await (a, b)
        #expect(first.size == PixelSize(width: 64, height: 64))
        #expect(second.size == PixelSize(width: 64, height: 64))
        #expect(await browser.worker.cachedThumbnails == 2)
        #expect(try await browser.thumbnail(for: photo, side: 64) == first)
        _ = try await browser.thumbnail(for: photo, side: 96)
        #expect(await browser.worker.cachedThumbnails == 2, "the cache is bounded by count")
        await #expect(throws: LibraryError.self) { try await browser.thumbnail(for: photo, side: 0) }
    }

    @Test("the cache forgets the least recently used entry")
    func recentlyUsed() {
        var cache = RecentlyUsed<String, Int>(capacity: 2)
        cache["a"] = 1
        cache["b"] = 2
        _ = cache["a"]
        cache["c"] = 3
        #expect(cache["b"] == nil)
        #expect(cache["a"] == 1 && cache["c"] == 3)
        #expect(cache.count == 2)
    }

    @Test("an import goes on past a bad file, counts bytes and duplicates, and reloads")
    func importReport() async throws {
        let browser = try LibraryBrowser(folder: libraryFolder())
        let source = TestPaths.scratchFolder("browser-import")
        let good = try Self.photo(7, daysAgo: 2, in: source)
        let other = try Self.photo(8, daysAgo: 3, in: source)
        let bad = source.appendingPathComponent("notes.jpg")
        try Data("not a photo".utf8).write(to: bad)
        let twin = source.appendingPathComponent("twin.jpg")
        try FileManager.default.copyItem(at: good, to: twin)
        let files = [good, bad, other, twin]
        let bytes = try files.map { try #require(try FileManager.default.attributesOfItem(atPath: $0.path)[.size] as? NSNumber).int64Value }
        var changed = false
        browser.onChange = { changed = true }
        let progress = Progress(totalUnitCount: 1)
        let report = await browser.importFiles(files, progress: progress)
        // The lanes race: whichever of a file and its copy is stored first is the new one.
        let names = report.imported.map(\.originalFilename)
        #expect(names.count == 2 && names.contains("photo-8.jpg"))
        #expect(names.contains("photo-7.jpg") != names.contains("twin.jpg"))
        #expect(report.duplicates == 1)
        #expect(report.stored == 3)
        #expect(report.failures.map(\.path) == [bad.path])
        #expect(report.failures.first?.message.hasPrefix("Invalid data") == true)
        #expect(!report.cancelled)
        #expect(progress.totalUnitCount == bytes.reduce(0, +))
        #expect(progress.completedUnitCount == progress.totalUnitCount)
        #expect(changed)
        let seventh = names.first { $0 != "photo-8.jpg" }
        #expect(browser.assets.map(\.originalFilename) == [seventh, "photo-8.jpg"], "photo 7 (or its twin) is the newer")
        #expect(browser.groups.first?.count == 2)
    }

    @Test("importing into a library that does not exist yet keeps every file (lanes once raced to create it)")
    nonisolated func importIntoNewLibrary() throws {
        let source = TestPaths.scratchFolder("new-library-files")
        let files = try (0..<8).map { try Self.photo($0, daysAgo: $0, in: source) }
        for attempt in 0..<6 {
            let folder = TestPaths.scratchFolder("new-library-\(attempt)").appendingPathComponent("Library")
            let report = LibraryImporter(folder: folder, thumbnail: nil).run(files, progress: Progress(totalUnitCount: 1))
            #expect(report.imported.count == 8, "attempt \(attempt): \(report.failures)")
            #expect(report.failures.isEmpty)
        }
    }

    @Test("identical files imported by parallel lanes count as one new and the rest duplicates, never failures")
    nonisolated func identicalInParallel() throws {
        let source = TestPaths.scratchFolder("twins")
        let original = try Self.photo(7, daysAgo: 3, in: source)
        let twins = try (0..<12).map { k in
            let copy = source.appendingPathComponent("twin-\(k).jpg")
            try FileManager.default.copyItem(at: original, to: copy)
            return copy
        }
        for attempt in 0..<4 {
            let folder = TestPaths.scratchFolder("twins-library-\(attempt)").appendingPathComponent("Library")
            let report = LibraryImporter(folder: folder, thumbnail: nil).run(twins, progress: Progress(totalUnitCount: 1))
            #expect(report.failures.isEmpty, "attempt \(attempt): \(report.failures)")
            #expect(report.imported.count == 1 && report.duplicates == 11, "attempt \(attempt)")
        }
    }

    @Test("cancelling an import's progress stops it before the remaining files")
    func importCancelled() async throws {
        let browser = try LibraryBrowser(folder: libraryFolder())
        let source = TestPaths.scratchFolder("browser-cancel")
        let files = try (0..<8).map { try Self.photo(20 + $0, daysAgo: $0, in: source) }
        let before = Progress(totalUnitCount: 1)
        before.cancel()
        let none = await browser.importFiles(files, progress: before)
        #expect(none.cancelled && none.imported.isEmpty && none.failures.isEmpty)
        let report = await browser.importFiles(files, progress: CancelAfterFirstFile())
        #expect(report.cancelled)
        #expect(report.imported.count >= 1 && report.imported.count < files.count)
        #expect(browser.assets.count == report.imported.count)
    }

    @Test("a capture is saved to Captures and moved into the library")
    func saveCapture() async throws {
        let browser = try LibraryBrowser(folder: libraryFolder())
        let shot = try Self.photo(40, daysAgo: 0, in: TestPaths.scratchFolder("browser-capture"))
        let asset = try await browser.saveCapture(shot)
        #expect(asset.source == .capture)
        #expect(!FileManager.default.fileExists(atPath: shot.path))
        #expect(FileManager.default.fileExists(atPath: try browser.originalURL(of: asset).path))
        #expect(browser.groups.first { $0.group == .captures }?.count == 1)
        let bad = TestPaths.scratchFolder("browser-capture").appendingPathComponent("x.mp4")
        try Data("junk".utf8).write(to: bad)
        await #expect(throws: LibraryError.self) { try await browser.saveCapture(bad) }
    }
    /// Waits for the watcher's looks at the catalogue (only they show another process's
    /// changes) until `condition` holds, or until a look comes `seconds` or more after `start`.
    func looks(of browser: LibraryBrowser, since start: Date, within seconds: TimeInterval,
               until condition: @escaping @MainActor () -> Bool) async {
        guard !condition() else { return }
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            browser.afterWatchCheck = {
                if condition() || Date().timeIntervalSince(start) >= seconds {
                    browser.afterWatchCheck = nil
                    done.resume()
                }
            }
        }
    }

    @Test("a browser that watches sees another process's import and delete within a second")
    func watchesOtherProcesses() async throws {
        let folder = libraryFolder()
        let browser = try LibraryBrowser(folder: folder)
        var changes = 0
        browser.onChange = { changes += 1 }
        browser.startWatching()
        defer { browser.stopWatching() }
        let photo = try Self.photo(7, daysAgo: 1, in: TestPaths.scratchFolder("browser-watch"))
        let imported = try await Subprocess.runOffPool(TestPaths.tool, ["library", "--library", folder.path, "import", photo.path, "-q"])
        try #require(imported.status == 0, "\(imported.stderr)")
        await looks(of: browser, since: Date(), within: 1) { browser.assets.count == 1 }
        #expect(browser.assets.count == 1, "the import shows within a second")
        #expect(changes == 1)
        let id = try #require(browser.assets.first?.id)
        let deleted = try await Subprocess.runOffPool(TestPaths.tool, ["library", "--library", folder.path, "delete", "\(id)"])
        try #require(deleted.status == 0, "\(deleted.stderr)")
        await looks(of: browser, since: Date(), within: 1) { browser.assets.isEmpty }
        #expect(browser.assets.isEmpty, "the deletion shows within a second")
        #expect(changes == 2)
        // Three more looks at an unchanged catalogue tell nothing.
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            var looks = 0
            browser.afterWatchCheck = {
                looks += 1
                if looks == 3 {
                    browser.afterWatchCheck = nil
                    done.resume()
                }
            }
        }
        #expect(changes == 2, "no reload without a change")
    }
}
