import Foundation
import ViewfinderCore

/// The model behind the Library grid screen (seeds.md §2 and §3), free of any UI toolkit.
///
/// A screen binds to it: a sidebar of `groups` (with counts), a kind `filter`, and a grid of
/// `assets` whose cells ask for `thumbnail(for:side:)`. Catalogue reads are quick index scans
/// and run on the main actor; decoding (thumbnails, imports) runs elsewhere, each on a
/// catalogue connection of its own.
@MainActor
public final class LibraryBrowser {
    /// A group in the sidebar.
    public struct GroupEntry: Sendable, Hashable {
        /// What it selects.
        public let group: AssetGroup
        /// What the sidebar shows ("All", "Photos", ..., or the album's name).
        public let title: String
        /// How many assets it holds, whatever the kind filter.
        public let count: Int

        /// An entry as the sidebar shows it.
        public init(group: AssetGroup, title: String, count: Int) {
            self.group = group
            self.title = title
            self.count = count
        }
    }

    /// Which kinds of asset the grid shows.
    public enum KindFilter: String, Sendable, CaseIterable {
        /// Photos and videos.
        case all
        /// Photos only (live ones among them).
        case photos
        /// Videos only.
        case videos

        /// The kinds a fetch asks for.
        public var kinds: Set<AssetKind> {
            switch self {
            case .all: return Set(AssetKind.allCases)
            case .photos: return AssetKind.stills
            case .videos: return [.video]
            }
        }

        /// The filter that shows exactly `kinds` (a picker's media types), all for anything else.
        public init(showing kinds: Set<AssetKind>) {
            self = Self.allCases.first { $0.kinds == kinds } ?? .all
        }
    }

    /// The library folder.
    public let folder: URL
    /// All, Photos, Videos, Captures, then the albums by name.
    public private(set) var groups: [GroupEntry] = []
    /// The assets of `selectedGroup` that pass `filter`, in `order`.
    public private(set) var assets: [Asset] = []
    /// The error of the last reload, if it failed (a property observer cannot throw).
    public private(set) var lastError: LibraryError?
    /// Told after every reload, so the screen redraws.
    public var onChange: (@MainActor () -> Void)?

    /// The group shown in the grid; changing it reloads.
    public var selectedGroup: AssetGroup = .all {
        didSet { if selectedGroup != oldValue { reloadReportingErrors() } }
    }

    /// The kinds shown in the grid; changing it reloads.
    public var filter: KindFilter = .all {
        didSet { if filter != oldValue { reloadReportingErrors() } }
    }

    /// The grid's orders (`SortOrder`, by a name other modules can reach where Foundation has
    /// one too).
    public typealias Order = SortOrder

    /// The grid's order, newest first (the app's) or oldest first (the original picker's);
    /// changing it reloads.
    public var order: Order = .newestFirst {
        didSet { if order != oldValue { reloadReportingErrors() } }
    }

    private let library: MediaLibrary
    let worker: LibraryWorker
    /// Thumbnail requests waiting for the worker, oldest first.
    private var waiting: [ThumbnailRequest] = []
    private var isServing = false
    private var nextTicket: UInt64 = 0
    private var watcher: Task<Void, Never>?

    /// Opens (or creates) the library at `folder` and loads the grid. At most
    /// `thumbnailCacheCount` thumbnails are kept in memory.
    public init(folder: URL, thumbnailCacheCount: Int = 512) throws(LibraryError) {
        self.folder = folder
        library = try MediaLibrary(folder: folder)
        worker = try LibraryWorker(folder: folder, cacheCount: thumbnailCacheCount)
        try reload()
    }

    /// Reads the groups, their counts and the grid's assets again, then calls `onChange`.
    public func reload() throws(LibraryError) {
        var entries = [
            GroupEntry(group: .all, title: tr("All"), count: try library.count(FetchRequest(group: .all))),
            GroupEntry(group: .photos, title: tr("Photos"), count: try library.count(FetchRequest(group: .photos))),
            GroupEntry(group: .videos, title: tr("Videos"), count: try library.count(FetchRequest(group: .videos))),
            GroupEntry(group: .captures, title: tr("Captures"), count: try library.count(FetchRequest(group: .captures))),
        ]
        entries += try library.albums().map { GroupEntry(group: .album($0.name), title: $0.name, count: $0.count) }
        groups = entries
        assets = try library.assets(FetchRequest(group: selectedGroup, kinds: filter.kinds, order: order))
        lastError = nil
        onChange?()
    }

    /// Watches the catalogue for changes made elsewhere (another process importing, deleting
    /// or choosing a cover, or this app's own worker) and reloads within `interval` of one.
    /// Stops when the browser goes away or `stopWatching` is called.
    public func startWatching(interval: Duration = .milliseconds(250)) {
        guard watcher == nil else { return }
        var seen = try? library.changeCounter()
        watcher = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard let self else { return }
                let now = try? self.library.changeCounter()
                if now != seen {
                    seen = now
                    self.reloadIfChanged()
                }
                self.afterWatchCheck?()
            }
        }
    }

    /// Reloads, telling `onChange` only when the groups or the grid's assets differ (this
    /// app's own writes were reloaded already).
    private func reloadIfChanged() {
        let (oldGroups, oldAssets) = (groups, assets)
        let callback = onChange
        onChange = nil
        reloadReportingErrors()
        onChange = callback
        if groups != oldGroups || assets != oldAssets || lastError != nil { onChange?() }
    }

    /// A test seam: called after each look at the catalogue while watching (a test waits for
    /// looks instead of sleeping).
    var afterWatchCheck: (@MainActor () -> Void)?

    /// Stops watching for changes made elsewhere.
    public func stopWatching() {
        watcher?.cancel()
        watcher = nil
    }

    private func reloadReportingErrors() {
        do {
            try reload()
        } catch {
            lastError = error
            onChange?()
        }
    }

    /// Where an asset's original is stored (to open or play it); `damaged` for a row or file
    /// the library did not make.
    public func originalURL(of asset: Asset) throws(LibraryError) -> URL {
        try library.originalURL(of: asset)
    }

    /// The stored video behind a video or a live asset (see `MediaLibrary.movieURL`).
    public func movieURL(of asset: Asset) throws(LibraryError) -> URL {
        try library.movieURL(of: asset)
    }

    /// The asset's square, filled thumbnail of `side` pixels (smaller only when the original
    /// is), made off the main actor and kept in memory for the next time the cell scrolls in.
    ///
    /// Requests are served newest first — the cells on screen now, not every cell a fast
    /// scroll went past — and one whose task is cancelled while it waits (its cell scrolled
    /// away) throws `.cancelled` without decoding.
    public func thumbnail(for asset: Asset, side: Int) async throws(LibraryError) -> RasterImage {
        guard side > 0 else { throw .invalidThumbnailSize(width: side, height: side) }
        guard !Task.isCancelled else { throw .cancelled }
        nextTicket += 1
        let ticket = nextTicket
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<RasterImage, LibraryError>, Never>) in
                waiting.append(ThumbnailRequest(ticket: ticket, asset: asset, side: side, continuation: continuation))
                serveThumbnails()
            }
        } onCancel: {
            Task { @MainActor [weak self] in self?.dropRequest(ticket) }
        }
        return try result.get()
    }

    /// Serves waiting requests one at a time, the newest first, until none is left.
    private func serveThumbnails() {
        guard !isServing else { return }
        isServing = true
        Task {
            while let request = waiting.popLast() {
                do throws(LibraryError) {
                    request.continuation.resume(returning: .success(try await worker.thumbnail(request.asset, side: request.side)))
                } catch {
                    request.continuation.resume(returning: .failure(error))
                }
            }
            isServing = false
        }
    }

    /// A waiting request whose task was cancelled gives up its turn.
    private func dropRequest(_ ticket: UInt64) {
        guard let index = waiting.firstIndex(where: { $0.ticket == ticket }) else { return }
        waiting.remove(at: index).continuation.resume(returning: .failure(.cancelled))
    }

    /// Imports files on threads of their own. `progress` counts bytes and cancels the import
    /// (as does cancelling the calling task); bad files are listed in the report, never fatal.
    /// The grid reloads afterwards.
    public func importFiles(_ urls: [URL], progress: Progress) async -> ImportReport {
        let importer = LibraryImporter(folder: folder)
        let report = await Self.run(importer, urls, progress: Lent(progress))
        reloadReportingErrors()
        return report
    }

    /// Stores a file the camera made in Captures (moving it into the library unless `move` is
    /// false), then reloads. The Camera screen hands its photos and videos over here, since
    /// the capture feature does not know the library.
    @discardableResult
    public func saveCapture(_ file: URL, move: Bool = true) async throws(LibraryError) -> Asset {
        let asset = try await worker.importFile(file, move: move, source: .capture, album: nil)
        reloadReportingErrors()
        return asset
    }

    /// Stores a file the app made (a cover, an avatar, a trimmed video), also in `album` when
    /// given, then reloads. The original file stays unless `move` is true.
    @discardableResult
    public func saveOutput(_ file: URL, album: String? = nil, move: Bool = false) async throws(LibraryError) -> Asset {
        let asset = try await worker.importFile(file, move: move, source: .imported, album: album)
        reloadReportingErrors()
        return asset
    }

    /// Writes a copy of `asset` without its location to `url`, complete or not at all (see
    /// `MediaLibrary.exportWithoutLocation`), off the main actor.
    public func exportWithoutLocation(_ asset: Asset, to url: URL) async throws(LibraryError) {
        try await worker.exportWithoutLocation(asset, to: url)
    }

    /// Chooses a library video's cover, or a live asset's key photo (see
    /// `MediaLibrary.setPoster`), then reloads: the grid shows the new picture.
    @discardableResult
    public func setPoster(of asset: Asset, at time: MediaTime?) async throws(LibraryError) -> Asset {
        let updated = try await worker.setPoster(of: asset, at: time)
        reloadReportingErrors()
        return updated
    }

    /// Runs an import on a thread of its own: its lanes block while they decode, which must not
    /// happen on the main actor or in the task pool. `Progress` is thread-safe but not marked
    /// `Sendable` on Linux, so it travels lent.
    private nonisolated static func run(_ importer: LibraryImporter, _ urls: [URL],
                                        progress: Lent<Progress>) async -> ImportReport {
        await BlockingWork.run(named: "viewfinder-import", cancelling: progress) {
            importer.run(urls, progress: progress.value)
        }
    }
}

/// A thumbnail someone is waiting for.
private struct ThumbnailRequest {
    let ticket: UInt64
    let asset: Asset
    let side: Int
    let continuation: CheckedContinuation<Result<RasterImage, LibraryError>, Never>
}
