import Foundation
import Imaging
import MediaIO
#if canImport(Glibc)
import Glibc
#endif
import Store
import ViewfinderCore

extension MediaLibrary {
    /// The asset's stored original, opened for reading without following any link.
    func openOriginal(_ asset: Asset) throws(LibraryError) -> LibraryFolder.Descriptor {
        try storage.openOriginal(asset.relativePath, id: asset.id)
    }

    /// `length` bytes of an asset's original from `offset` (fewer at the end of the file).
    public func read(_ asset: Asset, offset: Int64, length: Int) throws(LibraryError) -> Data {
        let file = try openOriginal(asset)
        var data = Data(count: max(0, length))
        let count = data.withUnsafeMutableBytes { pread(file.fd, $0.baseAddress, $0.count, off_t(max(0, offset))) }
        guard count >= 0 else { throw .io(path: folder.path, reason: String(cString: strerror(errno))) }
        data.count = count
        return data
    }

    /// The original in fixed-size chunks (the original copies a video out 1 KB at a time; any
    /// size works). Each chunk is read when asked for.
    public func chunks(of asset: Asset, size: Int) -> OriginalChunks {
        let storage = storage, relative = asset.relativePath, id = asset.id
        return OriginalChunks(open: { () throws(LibraryError) in
            let original = try storage.openOriginal(relative, id: id)
            // The handle gets a descriptor of its own; `original` closes its one when it goes.
            return withExtendedLifetime(original) { FileHandle(fileDescriptor: dup(original.fd), closeOnDealloc: true) }
        }, chunkSize: max(1, size))
    }

    /// Writes a copy of an asset without its location, the copy appearing complete or not at
    /// all. A photo loses its GPS and place names (EXIF, XMP, IPTC); a video (MP4 or
    /// QuickTime) its ISO 6709 keys, `©xyz`/`loci` strings and XMP with a position. Everything
    /// else, pixels and samples included, stays as stored. The copy is then read back by
    /// `LocationScanner` (every place a location can live, no count trusted): if anything is
    /// left, nothing is written and the error says where.
    public func exportWithoutLocation(_ asset: Asset, to url: URL) throws(LibraryError) {
        try refuseInside(url, action: tr("an export there would overwrite what the library keeps; choose a place outside it"))
        let temporary = AtomicFile.temporaryURL(beside: url)
        defer { try? FileManager.default.removeItem(at: temporary) }
        try copy(asset, to: temporary, named: url)
        do {
            switch asset.kind {
            case .photo, .live: try PhotoMetadata.removeLocation(from: temporary)
            case .video: try VideoMetadata.removeLocation(from: temporary)
            }
            let left = try LocationScanner.findings(inFileAt: temporary)
            guard left.isEmpty else { throw LibraryError.locationKept(path: url.path, found: left.map(\.description)) }
            try AtomicFile.commit(temporary, to: url)
        } catch let error as ImagingError {
            throw .io(path: url.path, reason: Self.naming(url, for: temporary, in: error.description))
        } catch let error as MediaIOError {
            throw .io(path: url.path, reason: Self.naming(url, for: temporary, in: error.description))
        } catch let error as LibraryError {
            throw error
        } catch {
            throw .io(path: url.path, reason: "\(error)")
        }
    }

    /// An engine's message about the hidden copy being written, told of the user's own target.
    static func naming(_ target: URL, for temporary: URL, in message: String) -> String {
        message.replacingOccurrences(of: temporary.path, with: target.path)
            .replacingOccurrences(of: temporary.lastPathComponent, with: target.lastPathComponent)
    }

    /// Copies the original to `url`, atomically; a live asset with a chosen key photo writes
    /// that frame instead, encoded as the name's extension says (.jpg, .png or .webp). A copy
    /// named as another type of file than the original (a `.mov` as `.mp4`) is refused.
    public func export(_ asset: Asset, to url: URL) throws(LibraryError) {
        try refuseInside(url, action: tr("an export there would overwrite what the library keeps; choose a place outside it"))
        try copy(asset, to: url, named: url)
    }

    /// `export`'s work, writing to `url` what the user named `name` (a hidden file beside it
    /// when the location is still to be removed).
    private func copy(_ asset: Asset, to url: URL, named name: URL) throws(LibraryError) {
        if let key = try keyPhoto(of: asset) {
            // The format comes from the user's name: `url` may be the hidden file beside it.
            guard let format = ImageFormat(pathExtension: name.pathExtension, quality: 92) else {
                throw .io(path: name.path, reason: tr("a key photo is written as JPEG, PNG or WebP: name the export .jpg, .png or .webp"))
            }
            do {
                try AtomicFile.write(try ImageEncoder.encode(key, as: format), to: url)
            } catch let error as ImagingError {
                throw .io(path: name.path, reason: error.description)
            } catch {
                throw .io(path: name.path, reason: "\(error)")
            }
            return
        }
        let original = try openOriginal(asset)   // a damaged asset says so first
        try Self.checkExportName(name, original: asset.originalFilename)
        let source = FileHandle(fileDescriptor: original.fd, closeOnDealloc: false)
        do throws(AtomicFile.WriteError) {
            try AtomicFile.write(to: url) { output in
                while let chunk = try source.read(upToCount: 1 << 20), !chunk.isEmpty {
                    try output.write(contentsOf: chunk)
                }
            }
        } catch {
            throw .io(path: url.path, reason: error.reason)
        }
        withExtendedLifetime(original) {}
    }

    /// File types whose extensions name the same kind of file (a copy may take any of them).
    static let sameTypeExtensions: [Set<String>] = [
        ["mp4", "m4v"], ["mov", "qt"], ["3gp", "3gpp"], ["mkv"], ["webm"], ["avi"], ["ts", "mts", "m2ts"],
        ["jpg", "jpeg", "jpe"], ["heic", "heif", "hif"], ["avif"], ["png"], ["webp"], ["gif"], ["tif", "tiff"], ["dng"],
    ]

    /// Refuses a copy of `original` named as another type of file (a QuickTime movie as `.mp4`, a
    /// HEIC as `.jpg`): the bytes are copied unchanged, so the name must keep saying what they
    /// are. A name without an extension claims no type and passes, as do types this table does
    /// not know.
    static func checkExportName(_ url: URL, original: String) throws(LibraryError) {
        let from = (original as NSString).pathExtension.lowercased(), to = url.pathExtension.lowercased()
        guard !to.isEmpty, let family = sameTypeExtensions.first(where: { $0.contains(from) }) else { return }
        guard family.contains(to) else { throw .exportChangesType(path: url.path, original: original) }
    }

    /// True when `url` (every link resolved) lies in the library folder at `library`.
    public static func contains(_ url: URL, library: URL) -> Bool {
        LibraryFolder.contains(url, library: library)
    }

    /// Throws `insideLibrary` when `url` lies in this library's folder (the catalogue, its
    /// journal, an original or a thumbnail among them).
    public func refuseInside(_ url: URL, action: String) throws(LibraryError) {
        if LibraryFolder.contains(url, library: folder) {
            throw .insideLibrary(path: url.path, library: folder.path, action: action)
        }
    }

    /// Removes an asset: its row (and album links) first, then its file and thumbnails. A
    /// damaged row is removed without touching the path it names.
    public func delete(id: Int64) throws(LibraryError) {
        try requireWritable()
        let asset = try asset(id: id)
        try catalogue { try database.prepare("DELETE FROM assets WHERE id = ?").run([.int(id)]) }
        for relative in [asset.relativePath, asset.motion?.relativePath].compactMap({ $0 }) where storage.kind(of: relative) == .file {
            storage.remove(relative)
        }
        removeThumbnails(of: id)
    }
}

/// An asset's bytes as an `AsyncSequence` of chunks.
public struct OriginalChunks: AsyncSequence, Sendable {
    public typealias Element = Data
    let open: @Sendable () throws(LibraryError) -> FileHandle
    let chunkSize: Int

    public func makeAsyncIterator() -> Iterator {
        Iterator(open: open, chunkSize: chunkSize)
    }

    public struct Iterator: AsyncIteratorProtocol {
        let open: @Sendable () throws(LibraryError) -> FileHandle
        let chunkSize: Int
        private var handle: FileHandle?
        private var done = false

        init(open: @escaping @Sendable () throws(LibraryError) -> FileHandle, chunkSize: Int) {
            self.open = open
            self.chunkSize = chunkSize
        }

        public mutating func next() async throws -> Data? {
            guard !done else { return nil }
            if handle == nil { handle = try open() }
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
