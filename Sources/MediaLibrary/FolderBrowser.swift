import Foundation
import ViewfinderCore

/// A plain folder of photos and videos as a picker's grid sees it, with no library: the
/// readable photos and videos directly in it (not in subfolders, not hidden), each probed once
/// as an import would (kind, size, length, date taken). Files that are not photos or videos
/// are left out. An asset's id is its place in the folder sorted by name (from 1), its original
/// the file itself; nothing is written anywhere, thumbnails are kept in memory only.
@MainActor
public final class FolderBrowser: AssetBrowser {
    /// The folder shown.
    public let folder: URL
    /// All, Photos and Videos (a folder has no Captures or albums).
    public private(set) var groups: [LibraryBrowser.GroupEntry] = []
    public private(set) var assets: [Asset] = []
    /// A folder is read once, so no reload fails.
    public let lastError: LibraryError? = nil
    public var onChange: (@MainActor () -> Void)?
    public var selectedGroup: AssetGroup = .all {
        didSet { if selectedGroup != oldValue { select() } }
    }
    public var filter: LibraryBrowser.KindFilter = .all {
        didSet { if filter != oldValue { select() } }
    }
    public var order: SortOrder = .newestFirst {
        didSet { if order != oldValue { select() } }
    }
    /// Every photo and video found, by id.
    private let found: [Asset]
    private let files: [Int64: URL]
    private var cache: RecentlyUsed<[Int64], RasterImage>

    /// Reads `folder`; throws `.io` when it is missing, not a folder or cannot be listed.
    public init(folder: URL, thumbnailCacheCount: Int = 512) throws(LibraryError) {
        self.folder = folder
        cache = RecentlyUsed(capacity: thumbnailCacheCount)
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder) else {
            throw .io(path: folder.path, reason: "no such folder")
        }
        guard isFolder.boolValue else { throw .io(path: folder.path, reason: "not a folder") }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        } catch {
            throw .io(path: folder.path, reason: "the folder cannot be read (\((error as NSError).localizedDescription))")
        }
        var found: [Asset] = []
        var files: [Int64: URL] = [:]
        for name in names.filter({ !$0.hasPrefix(".") }).sorted() {
            let url = folder.appendingPathComponent(name)
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path),
                  attributes[.type] as? FileAttributeType == .typeRegular,
                  let probe = try? MediaLibrary.probe(url) else { continue }
            let modified = attributes[.modificationDate] as? Date ?? Date(timeIntervalSince1970: 0)
            let id = Int64(found.count + 1)
            found.append(Asset(id: id, kind: probe.kind, creationDate: probe.creationDate ?? modified, importDate: modified,
                               size: probe.size, duration: probe.duration, originalFilename: name,
                               byteSize: (attributes[.size] as? NSNumber)?.int64Value ?? 0, contentHash: "",
                               source: .imported, posterTime: nil, metadata: probe.metadata, relativePath: nil,
                               contentIdentifier: nil, motion: nil))
            files[id] = url
        }
        self.found = found
        self.files = files
        select()
    }

    /// Fills `groups` and `assets` from what was found, then calls `onChange`.
    private func select() {
        func count(_ kinds: Set<AssetKind>) -> Int { found.filter { kinds.contains($0.kind) }.count }
        groups = [
            LibraryBrowser.GroupEntry(group: .all, title: "All", count: found.count),
            LibraryBrowser.GroupEntry(group: .photos, title: "Photos", count: count([.photo])),
            LibraryBrowser.GroupEntry(group: .videos, title: "Videos", count: count([.video])),
        ]
        let inGroup: Set<AssetKind>
        switch selectedGroup {
        case .all: inGroup = Set(AssetKind.allCases)
        case .photos: inGroup = [.photo]
        case .videos: inGroup = [.video]
        case .captures, .album: inGroup = []
        }
        // As the catalogue orders: by date taken, ties by id, both in the order's direction.
        let ascending = found.filter { inGroup.contains($0.kind) && filter.kinds.contains($0.kind) }
            .sorted { ($0.creationDate, $0.id) < ($1.creationDate, $1.id) }
        assets = order == .oldestFirst ? ascending : ascending.reversed()
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
                    return .failure(.thumbnailFailed(id: asset.id, reason: "no picture was made"))
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
