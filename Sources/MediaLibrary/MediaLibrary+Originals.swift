import Foundation
import Store
import ViewfinderCore

extension MediaLibrary {
    /// `length` bytes of an asset's original from `offset` (fewer at the end of the file).
    public func read(_ asset: Asset, offset: Int64, length: Int) throws(LibraryError) -> Data {
        let url = originalURL(of: asset)
        do {
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            try handle.seek(toOffset: UInt64(max(0, offset)))
            return try handle.read(upToCount: max(0, length)) ?? Data()
        } catch {
            throw .io(path: url.path, reason: (error as NSError).localizedDescription)
        }
    }

    /// The original in fixed-size chunks (the original copies a video out 1 KB at a time; any
    /// size works). Each chunk is read when asked for.
    public func chunks(of asset: Asset, size: Int) -> OriginalChunks {
        OriginalChunks(url: originalURL(of: asset), chunkSize: max(1, size))
    }

    /// Copies the original to `url`, atomically.
    public func export(_ asset: Asset, to url: URL) throws(LibraryError) {
        let source = originalURL(of: asset)
        let temporary = AtomicFile.temporaryURL(beside: url)
        do {
            try FileManager.default.copyItem(at: source, to: temporary)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw .io(path: url.path, reason: (error as NSError).localizedDescription)
        }
        do {
            try AtomicFile.commit(temporary, to: url)
        } catch {
            throw .io(path: url.path, reason: error.reason)
        }
    }

    /// Removes an asset: its row (and album links) first, then its file and thumbnails.
    public func delete(id: Int64) throws(LibraryError) {
        try requireWritable()
        let asset = try asset(id: id)
        try catalogue { try database.prepare("DELETE FROM assets WHERE id = ?").run([.int(id)]) }
        try? FileManager.default.removeItem(at: originalURL(of: asset))
        removeThumbnails(of: id)
    }
}

/// An asset's bytes as an `AsyncSequence` of chunks.
public struct OriginalChunks: AsyncSequence, Sendable {
    public typealias Element = Data
    let url: URL
    let chunkSize: Int

    public func makeAsyncIterator() -> Iterator {
        Iterator(url: url, chunkSize: chunkSize)
    }

    public struct Iterator: AsyncIteratorProtocol {
        let url: URL
        let chunkSize: Int
        private var handle: FileHandle?
        private var done = false

        init(url: URL, chunkSize: Int) {
            self.url = url
            self.chunkSize = chunkSize
        }

        public mutating func next() async throws -> Data? {
            guard !done else { return nil }
            if handle == nil { handle = try FileHandle(forReadingFrom: url) }
            let chunk = try handle?.read(upToCount: chunkSize) ?? Data()
            if chunk.isEmpty {
                done = true
                try? handle?.close()
                return nil
            }
            return chunk
        }
    }
}
