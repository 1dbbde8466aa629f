import Foundation
import ViewfinderCore

/// A plain folder of photos and videos as a picker's grid sees it, with no library: the
/// readable photos and videos directly in it (not in subfolders, not hidden), each probed once
/// as an import would (kind, size, length, date taken). The folder is listed at once and its
/// files are probed off the main thread, a batch at a time in name order, so a window over it
/// opens at once and its grid fills as they are read (`pendingCount` says how many are left;
/// `onProbed` hears when none are). Files that are not readable photos or videos are left out
/// of the grid and listed in `refusedFiles` with why; the others go on being read. An asset's
/// id is its place among the folder's readable files sorted by name (from 1), so an item shown
/// (or picked) keeps its id while the rest arrive, and the grid's first order (by name) is the
/// ids' order; its original is the file itself. Nothing is
/// written anywhere; thumbnails are kept in memory only.
///
/// `init(files:)` serves files a user named instead of a folder (the desktop's "Open with"):
/// ids follow the order given, and a file that is missing or no regular file is refused with
/// why rather than left out.
@MainActor
public final class FolderBrowser: AssetBrowser {
    /// The folder shown; nil for a list of files.
    public let folder: URL?
    /// The files named (`init(files:)`), each once, in the order given; empty for a folder.
    public let namedFiles: [URL]
    /// All, Photos and Videos (a folder has no Captures or albums).
    public private(set) var groups: [LibraryBrowser.GroupEntry] = []
    public private(set) var assets: [Asset] = []
    /// A folder is listed once, so no reload fails.
    public let lastError: LibraryError? = nil
    public var onChange: (@MainActor () -> Void)?
    public var selectedGroup: AssetGroup = .all {
        didSet { if selectedGroup != oldValue { select() } }
    }
    public var filter: LibraryBrowser.KindFilter = .all {
        didSet { if filter != oldValue { select() } }
    }
    /// By name at first, as a file manager lists a folder: ids then follow the grid.
    public var order: SortOrder = .byName {
        didSet { if order != oldValue { select() } }
    }
    /// Files listed but not probed yet.
    public private(set) var pendingCount: Int
    /// Files probed and found not to be readable photos or videos, in name order, with why.
    public private(set) var refusedFiles: [ImportFailure] = []
    /// Told once, on the main actor, when every file has been probed (after the last `onChange`).
    public var onProbed: (@MainActor () -> Void)?
    /// Every photo and video probed so far, by id.
    private var found: [Asset] = []
    private var files: [Int64: URL] = [:]
    private var cache: RecentlyUsed<[Int64], RasterImage>

    /// Lists `folder` and starts probing its files, `batchSize` at a time, off the main thread;
    /// throws `.io` when it is missing, not a folder or cannot be listed.
    public init(folder: URL, thumbnailCacheCount: Int = 512, batchSize: Int = 16) throws(LibraryError) {
        self.folder = folder
        namedFiles = []
        cache = RecentlyUsed(capacity: thumbnailCacheCount)
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder) else {
            throw .io(path: folder.path, reason: tr("no such folder"))
        }
        guard isFolder.boolValue else { throw .io(path: folder.path, reason: tr("not a folder")) }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        } catch {
            throw .io(path: folder.path, reason: tr("the folder cannot be read ({reason})", ["reason": (error as NSError).localizedDescription]))
        }
        let listed = names.filter { !$0.hasPrefix(".") }.sorted().map { folder.appendingPathComponent($0) }
        pendingCount = listed.count
        select()
        probe(listed, named: false, batchSize: batchSize)
    }

    /// Serves `files` (each once, in the order given) and starts probing them as `init(folder:)`
    /// does; a file that is missing or no regular file is refused with why.
    public init(files: [URL], thumbnailCacheCount: Int = 512, batchSize: Int = 16) {
        folder = nil
        cache = RecentlyUsed(capacity: thumbnailCacheCount)
        var seen = Set<String>()
        namedFiles = files.map(\.standardizedFileURL).filter { seen.insert($0.path).inserted }
        pendingCount = namedFiles.count
        select()
        probe(namedFiles, named: true, batchSize: batchSize)
    }

    /// Probes `listed` off the main thread, `batchSize` at a time, adding each batch as it is read.
    /// The probing holds the browser only while it adds a batch: a browser let go (a picker that
    /// switched to another folder) stops after the batch in hand, and tells nobody.
    private func probe(_ listed: [URL], named: Bool, batchSize: Int) {
        let batch = max(1, batchSize)
        Task { [weak self] in
            for start in stride(from: 0, to: listed.count, by: batch) {
                let urls = Array(listed[start..<min(start + batch, listed.count)])
                let read = await BlockingWork.run(named: "viewfinder-folder-probe") { urls.map { FolderBrowser.read($0, named: named) } }
                guard let self else { return }
                self.add(read)
            }
            self?.onProbed?()
        }
    }

    /// What probing one file found.
    private enum Read: Sendable {
        /// A photo or video (the asset still without its id).
        case media(URL, MediaLibrary.Probe, modified: Date, byteSize: Int64)
        /// Not a regular file: not listed at all.
        case skipped
        case refused(ImportFailure)
    }

    /// Probes the file at `url` (off the main thread). Something that is no regular file is
    /// skipped in a folder and refused when the user `named` it.
    nonisolated private static func read(_ url: URL, named: Bool) -> Read {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path) else {
            return named ? .refused(ImportFailure(path: url.path, message: tr("no such file"))) : .skipped
        }
        guard attributes[.type] as? FileAttributeType == .typeRegular else {
            return named ? .refused(ImportFailure(path: url.path, message: tr("not a regular file"))) : .skipped
        }
        let probe: MediaLibrary.Probe
        do {
            probe = try MediaLibrary.probe(url)
        } catch {
            let message: String
            if case .invalidData(_, let reason) = error {
                message = tr("not a readable photo or video ({reason})", ["reason": reason])
            } else {
                message = error.description
            }
            return .refused(ImportFailure(path: url.path, message: message))
        }
        return .media(url, probe, modified: attributes[.modificationDate] as? Date ?? Date(timeIntervalSince1970: 0),
                      byteSize: (attributes[.size] as? NSNumber)?.int64Value ?? 0)
    }

    /// Adds a probed batch (in name order) to what is shown, then reselects.
    private func add(_ batch: [Read]) {
        for read in batch {
            switch read {
            case .media(let url, let probe, let modified, let byteSize):
                let id = Int64(found.count + 1)
                found.append(Asset(id: id, kind: probe.kind, creationDate: probe.creationDate ?? modified, importDate: modified,
                                   size: probe.size, duration: probe.duration, originalFilename: url.lastPathComponent,
                                   byteSize: byteSize, contentHash: "", source: .imported, posterTime: nil,
                                   metadata: probe.metadata, relativePath: nil, contentIdentifier: nil, motion: nil))
                files[id] = url
            case .refused(let failure):
                refusedFiles.append(failure)
            case .skipped:
                break
            }
        }
        pendingCount -= batch.count
        select()
    }

    /// Fills `groups` and `assets` from what was found, then calls `onChange`.
    private func select() {
        func count(_ kinds: Set<AssetKind>) -> Int { found.filter { kinds.contains($0.kind) }.count }
        groups = [
            LibraryBrowser.GroupEntry(group: .all, title: tr("All"), count: found.count),
            LibraryBrowser.GroupEntry(group: .photos, title: tr("Photos"), count: count([.photo])),
            LibraryBrowser.GroupEntry(group: .videos, title: tr("Videos"), count: count([.video])),
        ]
        let inGroup: Set<AssetKind>
        switch selectedGroup {
        case .all: inGroup = Set(AssetKind.allCases)
        case .photos: inGroup = [.photo]
        case .videos: inGroup = [.video]
        case .captures, .album: inGroup = []
        }
        // As the catalogue orders: by date taken, ties by id, both in the order's direction; by
        // name is by id, since ids follow the names (or the order the files were given in).
        let shown = found.filter { inGroup.contains($0.kind) && filter.kinds.contains($0.kind) }
        switch order {
        case .byName: assets = shown.sorted { $0.id < $1.id }
        case .oldestFirst, .newestFirst:
            let ascending = shown.sorted { ($0.creationDate, $0.id) < ($1.creationDate, $1.id) }
            assets = order == .oldestFirst ? ascending : ascending.reversed()
        }
        onChange?()
    }

    public func originalURL(of asset: Asset) throws(LibraryError) -> URL {
        guard let url = files[asset.id] else { throw .noSuchAsset(asset.id) }
        return url
    }

    /// Made from the file by the same decode an import's probe does, on a thread of its own.
    public func thumbnail(for asset: Asset, side: Int) async throws(LibraryError) -> RasterImage {
        guard side > 0 else { throw .invalidThumbnailSize(width: side, height: side) }
        let key = [asset.id, Int64(side)]
        if let hit = cache[key] { return hit }
        let url = try originalURL(of: asset)
        let made = await BlockingWork.run(named: "viewfinder-folder-thumbnail") { () -> Result<RasterImage, LibraryError> in
            do throws(LibraryError) {
                guard let picture = try MediaLibrary.probe(url, thumbnail: PixelSize(width: side, height: side)).thumbnail else {
                    return .failure(.thumbnailFailed(id: asset.id, reason: tr("no picture was made")))
                }
                return .success(picture)
            } catch {
                return .failure(error)
            }
        }
        guard !Task.isCancelled else { throw .cancelled }
        let picture = try made.get()
        cache[key] = picture
        return picture
    }
}
