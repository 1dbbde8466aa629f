import Foundation
import ViewfinderCore

/// The Library screen's work away from the main actor: thumbnails and single imports, on a
/// catalogue connection of its own (`MediaLibrary` is one instance per thread, and an actor uses
/// its instance from one task at a time).
actor LibraryWorker {
    private let library: MediaLibrary
    private var cache: RecentlyUsed<ThumbnailKey, RasterImage>

    /// A thumbnail depends on the content, the chosen poster and the size only; keying by hash
    /// (not id) keeps a reused row id from showing an old picture.
    struct ThumbnailKey: Hashable {
        let contentHash: String
        let poster: MediaTime?
        let side: Int
    }

    init(folder: URL, cacheCount: Int) throws(LibraryError) {
        library = try MediaLibrary(folder: folder)
        cache = RecentlyUsed(capacity: cacheCount)
    }

    /// The square fill thumbnail, from memory, else from the disk cache, else rendered.
    func thumbnail(_ asset: Asset, side: Int) throws(LibraryError) -> RasterImage {
        let key = ThumbnailKey(contentHash: asset.contentHash, poster: asset.posterTime, side: side)
        if let hit = cache[key] { return hit }
        let picture = try library.thumbnailImage(asset, size: PixelSize(width: side, height: side), mode: .fill)
        cache[key] = picture
        return picture
    }

    /// How many thumbnails are held in memory.
    var cachedThumbnails: Int { cache.count }

    func importFile(_ url: URL, move: Bool, source: Asset.Source, album: String?) throws(LibraryError) -> Asset {
        try library.importFile(url, move: move, source: source, album: album).asset
    }

    func setPoster(of asset: Asset, at time: MediaTime?) throws(LibraryError) -> Asset {
        try library.setPoster(of: asset, at: time)
    }

    func exportWithoutLocation(_ asset: Asset, to url: URL) throws(LibraryError) {
        try library.exportWithoutLocation(asset, to: url)
    }
}

/// A dictionary that forgets its least recently used entry beyond `capacity`.
///
/// Eviction scans for the oldest stamp: with a few hundred thumbnails that costs far less than
/// the decode that fills a slot, and needs no linked list.
struct RecentlyUsed<Key: Hashable, Value> {
    let capacity: Int
    private var entries: [Key: (value: Value, stamp: UInt64)] = [:]
    private var clock: UInt64 = 0

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    var count: Int { entries.count }

    subscript(key: Key) -> Value? {
        mutating get {
            guard let entry = entries[key] else { return nil }
            clock += 1
            entries[key] = (entry.value, clock)
            return entry.value
        }
        set {
            guard let newValue else {
                entries[key] = nil
                return
            }
            clock += 1
            entries[key] = (newValue, clock)
            if entries.count > capacity, let oldest = entries.min(by: { $0.value.stamp < $1.value.stamp })?.key {
                entries[oldest] = nil
            }
        }
    }
}
