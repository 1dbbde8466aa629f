import Foundation
import Imaging
import MediaIO
import Store
import ViewfinderCore

extension MediaLibrary {
    /// What an import learned about a file by decoding it.
    struct Probe {
        let kind: AssetKind
        let size: PixelSize
        let duration: MediaTime?
        let creationDate: Date?
        /// The grid thumbnail, when asked for: made by the same decode that validates the file.
        var thumbnail: RasterImage? = nil
    }

    /// Saves a photo or video into the library (seeds.md: "save to the library"): decoded first,
    /// so a file that is not a readable photo or video gets `invalidData` and nothing is stored;
    /// identical content is stored once (the existing asset is returned, `isNew` false).
    @discardableResult
    public func importFile(_ url: URL, move: Bool = false, source: Asset.Source = .imported,
                           album: String? = nil, thumbnail box: PixelSize? = nil) throws(LibraryError) -> (asset: Asset, isNew: Bool) {
        try requireWritable()
        let probe = try Self.probe(url, thumbnail: box)
        let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
        let modified = attributes?[.modificationDate] as? Date ?? Date()

        let incoming = folder.appendingPathComponent(".incoming")
        let (temporary, hash, bytes) = try copyHashing(url, into: incoming)
        var committed = false
        defer { if !committed { try? FileManager.default.removeItem(at: temporary) } }

        if let existing = try existingAsset(hash: hash) {
            if let album { try add([existing.id], toAlbum: album) }
            if move { try? FileManager.default.removeItem(at: url) }
            return (existing, false)
        }
        let ext = Self.safeExtension(url.pathExtension)
        let relative = "originals/\(hash.prefix(2))/\(hash)\(ext.isEmpty ? "" : "." + ext)"
        let destination = folder.appendingPathComponent(relative)
        do {
            try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw .io(path: destination.path, reason: (error as NSError).localizedDescription)
        }
        if rename(temporary.path, destination.path) != 0 {
            throw .io(path: destination.path, reason: String(cString: strerror(errno)))
        }
        committed = true
        let id: Int64
        do throws(LibraryError) {
            id = try catalogue {
                try database.transaction {
                    try database.prepare("""
                        INSERT INTO assets (kind, creation_date, import_date, width, height, duration_value, duration_scale,
                                            original_filename, byte_size, content_hash, path, source)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """).run([
                            .text(probe.kind.rawValue), .double((probe.creationDate ?? modified).timeIntervalSince1970),
                            .double(Date().timeIntervalSince1970), .int(Int64(probe.size.width)), .int(Int64(probe.size.height)),
                            probe.duration.map { .int($0.value) } ?? .null, probe.duration.map { .int($0.timescale) } ?? .null,
                            .text(url.lastPathComponent), .int(bytes), .text(hash), .text(relative), .text(source.rawValue),
                        ])
                    return database.lastInsertID
                }
            }
        } catch {
            // Another connection (a parallel lane, another process) stored the same content
            // between the check above and this insert: it is a duplicate, not a failure.
            guard case .catalogue(.constraint) = error, let existing = try existingAsset(hash: hash) else { throw error }
            if let album { try add([existing.id], toAlbum: album) }
            if move { try? FileManager.default.removeItem(at: url) }
            return (existing, false)
        }
        if let album { try add([id], toAlbum: album) }
        if move { try? FileManager.default.removeItem(at: url) }
        let stored = try asset(id: id)
        if let box, let picture = probe.thumbnail { cacheThumbnail(picture, of: stored, size: box, mode: .fill) }
        return (stored, true)
    }

    /// Decodes enough of the file to know it is a readable photo or video, and its metadata.
    static func probe(_ url: URL, thumbnail box: PixelSize? = nil) throws(LibraryError) -> Probe {
        do {
            _ = try checkReadableMediaFile(url)
        } catch {
            throw .invalidData(path: url.path, reason: error.description)
        }
        if let header = try? ImageInfo.probe(url) {
            do {
                let photo = try Photo(url: url, info: header)
                var probe = Probe(kind: .photo, size: photo.size, duration: nil, creationDate: photo.info.creationDate)
                if let box {
                    probe.thumbnail = try thumbnail(of: photo, size: box, mode: .fill)
                } else {
                    _ = try photo.preview(fitting: PixelSize(width: 32, height: 32))
                }
                return probe
            } catch {
                throw .invalidData(path: url.path, reason: "\(error)")
            }
        }
        do {
            let reader = try FrameReader(url: url)
            var probe = Probe(kind: .video, size: reader.video.displaySize, duration: reader.duration,
                              creationDate: reader.info.creationDate)
            if let box {
                let first = try reader.frame(at: .time(.zero), mode: .fast, size: .fit(PixelSize(width: box.width * 4, height: box.height * 4)))
                probe.thumbnail = try thumbnail(of: first.image, size: box, mode: .fill)
            } else {
                _ = try reader.frame(at: .time(.zero), mode: .fast, size: .fit(PixelSize(width: 32, height: 32)))
            }
            return probe
        } catch {
            throw .invalidData(path: url.path, reason: "\(error)")
        }
    }

    /// Copies `url` into `folder` under a temporary name while hashing it; synced to disk.
    private func copyHashing(_ url: URL, into folder: URL) throws(LibraryError) -> (URL, String, Int64) {
        let manager = FileManager.default
        let temporary = folder.appendingPathComponent("\(UUID().uuidString).partial")
        do {
            try manager.createDirectory(at: folder, withIntermediateDirectories: true)
            guard manager.createFile(atPath: temporary.path, contents: nil) else {
                throw LibraryError.io(path: temporary.path, reason: "cannot create a file in the library")
            }
            let input = try FileHandle(forReadingFrom: url)
            defer { try? input.close() }
            let output = try FileHandle(forWritingTo: temporary)
            defer { try? output.close() }
            var hasher = SHA256()
            var total: Int64 = 0
            while let chunk = try input.read(upToCount: 1 << 20), !chunk.isEmpty {
                hasher.update(chunk)
                try output.write(contentsOf: chunk)
                total += Int64(chunk.count)
            }
            try output.synchronize()
            return (temporary, hasher.finalize(), total)
        } catch let error as LibraryError {
            try? manager.removeItem(at: temporary)
            throw error
        } catch {
            try? manager.removeItem(at: temporary)
            throw .io(path: url.path, reason: (error as NSError).localizedDescription)
        }
    }

    private func existingAsset(hash: String) throws(LibraryError) -> Asset? {
        try catalogue {
            let statement = try database.prepare("SELECT \(Catalogue.columns) FROM assets WHERE content_hash = ?")
            try statement.bind([.text(hash)])
            return try statement.step() ? Catalogue.asset(statement) : nil
        }
    }

    /// A file extension safe to use in a stored name: letters and digits only, short, lower case.
    static func safeExtension(_ ext: String) -> String {
        let cleaned = ext.lowercased().filter { $0.isASCII && ($0.isLetter || $0.isNumber) }
        return String(cleaned.prefix(8))
    }
}
