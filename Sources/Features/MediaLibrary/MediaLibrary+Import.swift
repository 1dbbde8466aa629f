import Foundation
#if canImport(Glibc)
import Glibc
#endif
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
        /// What its metadata says (empty when it has none, or none could be read).
        var metadata = CaptureMetadata()
        /// The grid thumbnail, when asked for: made by the same decode that validates the file.
        var thumbnail: RasterImage? = nil
        /// What the file is in a Live Photo or Motion Photo, if anything.
        var livePhoto: LivePhotoRole? = nil

        /// The identifier an iPhone Live Photo's still and movie share.
        var contentIdentifier: String? {
            switch livePhoto {
            case .appleStill(let id)?, .appleMotion(let id)?: return id
            case .motionPhoto?, nil: return nil
            }
        }
    }

    /// Saves a photo or video into the library (seeds.md: "save to the library"). The file's
    /// bytes are copied in once, hashed as they are copied, and the copy — not the source — is
    /// decoded: what is stored is exactly what was validated. A file that is not a readable photo
    /// or video gets `invalidData`, one that changes while it is read `changedDuringImport`, and
    /// nothing is stored; identical content is stored once (the existing asset is returned,
    /// `isNew` false). With `move`, the source is removed once stored — never when it is the
    /// library's own file.
    @discardableResult
    public func importFile(_ url: URL, move: Bool = false, source: Asset.Source = .imported,
                           album: String? = nil, thumbnail box: PixelSize? = nil) throws(LibraryError) -> (asset: Asset, isNew: Bool) {
        try requireWritable()
        if move {
            try refuseInside(url, action: tr("moving it into the library would remove the library's own copy; nothing was done"))
        }
        // Held until the row is committed (and a moved source removed): `check` waits for it.
        let lock = LibraryLock(folder: folder, exclusive: false)
        defer { withExtendedLifetime(lock) {} }
        let copy = try copyIn(url)
        // The incoming copy goes when the import ends, stored or not: until the row is
        // committed it is the journal that marks the original put in place as unfinished
        // (`LibraryFolder.place`), and so is the motion's incoming copy.
        var journal: [(folder: LibraryFolder.Descriptor, name: String)] = [(copy.folder, copy.name)]
        defer { for entry in journal { LibraryFolder.remove(entry.name, in: entry.folder) } }
        let probe: Probe
        do {
            probe = try Self.probe(folder.appendingPathComponent("\(LibraryFolder.incoming)/\(copy.name)"), thumbnail: box)
        } catch {
            guard case .invalidData(let path, let reason) = error else { throw error }
            throw .invalidData(path: url.path, reason: reason.replacingOccurrences(of: path, with: url.lastPathComponent))
        }

        if let existing = try existingAsset(hash: copy.hash) {
            return try storedAlready(existing, from: url, copy: copy, move: move, album: album)
        }
        let ext = Self.safeExtension(url.pathExtension)
        let relative = LibraryFolder.storedPath(hash: copy.hash, extension: ext)
        do {
            let prefix = try storage.openFolder("\(LibraryFolder.originals)/\(copy.hash.prefix(2))", create: true)
            try LibraryFolder.place(copy.name, in: copy.folder, to: (relative as NSString).lastPathComponent, in: prefix)
        } catch {
            throw .storeFailed(file: url.path, library: folder.path, reason: error.reason)
        }
        // A Motion Photo's MP4 is stored beside it as its motion (see `Asset.MotionFile`).
        var motion: (file: Asset.MotionFile, path: String, duration: MediaTime)?
        if case .motionPhoto(let layout)? = probe.livePhoto {
            do throws(LibraryError) {
                motion = try storeMotion(of: relative, layout: layout, name: url.lastPathComponent) { journal.append($0) }
            } catch {
                storage.remove(relative)
                throw error
            }
        }
        let outcome: (id: Int64, joined: Bool)
        do throws(LibraryError) {
            outcome = try catalogue {
                try database.transaction {
                    // Under the write lock: the partner of a Live Photo pair, imported earlier or by
                    // a parallel lane a moment ago, is joined instead of a second asset made.
                    if let partner = try livePartner(of: probe) {
                        try join(partner, with: probe, url: url, copy: copy, path: relative)
                        return (partner, true)
                    }
                    try database.prepare("""
                        INSERT INTO assets (kind, creation_date, import_date, width, height, duration_value, duration_scale,
                                            original_filename, byte_size, content_hash, path, source, \(Self.metadataColumnList),
                                            \(Self.liveColumnList))
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, \(Self.metadataPlaceholders), \(Self.livePlaceholders))
                        """).run([
                            .text(probe.kind.rawValue), .double((probe.creationDate ?? copy.modified).timeIntervalSince1970),
                            .double(Date().timeIntervalSince1970), .int(Int64(probe.size.width)), .int(Int64(probe.size.height)),
                        ] + Self.durationValues(motion?.duration ?? probe.duration) + [
                            .text(url.lastPathComponent), .int(copy.bytes), .text(copy.hash), .text(relative), .text(source.rawValue),
                        ] + Catalogue.metadataValues(probe.metadata)
                          + Catalogue.liveValues(contentIdentifier: probe.contentIdentifier, motion: motion?.file, path: motion?.path))
                    return (database.lastInsertID, false)
                }
            }
        } catch {
            if let motion, (try? existingAsset(hash: motion.file.contentHash)) == nil { storage.remove(motion.path) }
            // Another connection (a parallel lane, another process) stored the same content
            // between the check above and this insert: it is a duplicate, not a failure.
            guard case .catalogue(.constraint) = error, let existing = try existingAsset(hash: copy.hash) else { throw error }
            return try storedAlready(existing, from: url, copy: copy, move: move, album: album)
        }
        let id = outcome.id
        if let album { try add([id], toAlbum: album) }
        if move { removeSource(url) }
        let stored = try asset(id: id)
        if outcome.joined { removeThumbnails(of: id) }
        // The grid shows a live asset's still: a movie's own picture is not cached for it.
        if let box, let picture = probe.thumbnail, probe.kind != .video || stored.kind == .video {
            cacheThumbnail(picture, of: stored, size: box, mode: .fill)
        }
        return (stored, true)
    }

    private static let liveColumnList = Catalogue.liveColumns.joined(separator: ", ")
    private static let livePlaceholders = Catalogue.liveColumns.map { _ in "?" }.joined(separator: ", ")

    static func durationValues(_ duration: MediaTime?) -> [Statement.Value] {
        [duration.map { .int($0.value) } ?? .null, duration.map { .int($0.timescale) } ?? .null]
    }

    /// The asset an iPhone Live Photo's still or movie joins: a lone movie with the same content
    /// identifier for a still, a still without motion for a movie.
    private func livePartner(of probe: Probe) throws -> Int64? {
        guard let identifier = probe.contentIdentifier else { return nil }
        let wanted = probe.kind == .photo ? "kind = 'video'" : "kind = 'photo' AND motion_hash IS NULL"
        let query = try database.prepare("SELECT id FROM assets WHERE content_identifier = ? AND \(wanted) ORDER BY id LIMIT 1")
        try query.bind([.text(identifier)])
        return try query.step() ? query.int(0) : nil
    }

    /// Makes `partner` one live asset with the file just stored: a movie joins a still as its
    /// motion; a still joining a movie becomes the asset's original, and the movie its motion
    /// (its stored file stays where it is: only the row changes). The id stays the same.
    private func join(_ partner: Int64, with probe: Probe, url: URL, copy: ImportCopy, path: String) throws {
        if probe.kind == .video {
            try database.prepare("""
                UPDATE assets SET kind = 'live', duration_value = ?, duration_scale = ?, motion_filename = ?,
                                  motion_byte_size = ?, motion_hash = ?, motion_path = ? WHERE id = ?
                """).run(Self.durationValues(probe.duration) + [
                    .text(url.lastPathComponent), .int(copy.bytes), .text(copy.hash), .text(path), .int(partner)])
            return
        }
        // A cover chosen for the lone movie is not carried over as a key photo: the still shows.
        try database.prepare("""
            UPDATE assets SET kind = 'live', poster_value = NULL, poster_scale = NULL,
                              motion_filename = original_filename, motion_byte_size = byte_size,
                              motion_hash = content_hash, motion_path = path, original_filename = ?, byte_size = ?,
                              content_hash = ?, path = ?, width = ?, height = ?, creation_date = ?,
                              \(Catalogue.metadataColumns.map { "\($0) = ?" }.joined(separator: ", ")) WHERE id = ?
            """).run([.text(url.lastPathComponent), .int(copy.bytes), .text(copy.hash), .text(path),
                      .int(Int64(probe.size.width)), .int(Int64(probe.size.height)),
                      .double((probe.creationDate ?? copy.modified).timeIntervalSince1970)]
                     + Catalogue.metadataValues(probe.metadata) + [.int(partner)])
    }

    /// Copies the MP4 a Motion Photo carries (`layout` in the stored original at `relative`)
    /// into the library as its motion, checked by decoding like any video. Its incoming copy,
    /// once the motion is in place, goes to `journal` for the importer to remove after the row.
    private func storeMotion(of relative: String, layout: MotionPhotoLayout, name: String,
                             journal: (_ entry: (folder: LibraryFolder.Descriptor, name: String)) -> Void)
        throws(LibraryError) -> (file: Asset.MotionFile, path: String, duration: MediaTime) {
        let source = folder.appendingPathComponent(relative).path
        let temporary: (folder: LibraryFolder.Descriptor, name: String, file: LibraryFolder.Descriptor)
        let original: LibraryFolder.Descriptor
        do {
            original = try storage.openFile(relative)
            temporary = try storage.createTemporary(in: LibraryFolder.incoming)
        } catch {
            throw .storeFailed(file: name, library: folder.path, reason: error.reason)
        }
        var kept = false
        defer { if !kept { LibraryFolder.remove(temporary.name, in: temporary.folder) } }
        var hasher = SHA256()
        var offset = layout.offset
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while offset < layout.offset + layout.length {
            let wanted = Int(min(Int64(buffer.count), layout.offset + layout.length - offset))
            let count = buffer.withUnsafeMutableBytes { pread(original.fd, $0.baseAddress, wanted, off_t(offset)) }
            guard count > 0 else { throw .invalidData(path: source, reason: tr("its Motion Photo video ends before the length its XMP gives")) }
            hasher.update(buffer[0..<count])
            do {
                try LibraryFolder.writeAll(Data(buffer[0..<count]), to: temporary.file.fd, path: temporary.name)
            } catch {
                throw .storeFailed(file: name, library: folder.path, reason: error.reason)
            }
            offset += Int64(count)
        }
        let duration: MediaTime
        do {
            let reader = try FrameReader(url: folder.appendingPathComponent("\(LibraryFolder.incoming)/\(temporary.name)"))
            _ = try reader.frame(at: .time(.zero), mode: .fast, size: .fit(PixelSize(width: 32, height: 32)))
            duration = reader.duration
        } catch {
            throw .invalidData(path: name, reason: tr("its Motion Photo video cannot be decoded ({reason})", ["reason": "\(error)"]))
        }
        let hash = hasher.finalize()
        let path = LibraryFolder.storedPath(hash: hash, extension: "mp4")
        do {
            let prefix = try storage.openFolder("\(LibraryFolder.originals)/\(hash.prefix(2))", create: true)
            try LibraryFolder.place(temporary.name, in: temporary.folder, to: (path as NSString).lastPathComponent, in: prefix)
        } catch {
            throw .storeFailed(file: name, library: folder.path, reason: error.reason)
        }
        kept = true
        journal((temporary.folder, temporary.name))
        return (Asset.MotionFile(filename: name + "#motion.mp4", byteSize: layout.length, contentHash: hash, relativePath: path),
                path, duration)
    }

    private static let metadataColumnList = Catalogue.metadataColumns.joined(separator: ", ")
    private static let metadataPlaceholders = Catalogue.metadataColumns.map { _ in "?" }.joined(separator: ", ")

    /// Finishes the import of content the library holds already.
    private func storedAlready(_ existing: Asset, from url: URL, copy: ImportCopy, move: Bool,
                               album: String?) throws(LibraryError) -> (asset: Asset, isNew: Bool) {
        if move, let relative = existing.relativePath, let identity = copy.identity, storage.identity(of: relative) == identity {
            throw .insideLibrary(path: url.path, library: folder.path,
                                 action: tr("it is the same file as the library's stored copy of asset {id} (a hard link), so it was not removed",
                                            ["id": existing.id]))
        }
        if let album { try add([existing.id], toAlbum: album) }
        if move { removeSource(url) }
        return (existing, false)
    }

    /// Removes an imported source (a link given as the source is removed itself, not its target).
    private func removeSource(_ url: URL) {
        _ = unlink(url.path)
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
                let role = LivePhotoProbe.role(ofPhoto: url)
                var kind = AssetKind.photo
                if case .motionPhoto? = role { kind = .live }
                var probe = Probe(kind: kind, size: photo.size, duration: nil, creationDate: photo.info.creationDate)
                probe.livePhoto = role
                // A photo whose metadata exiv2 cannot read is still a photo: it is stored without.
                probe.metadata = (try? PhotoMetadata.read(url)) ?? CaptureMetadata()
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
            probe.metadata = reader.info.metadata
            probe.livePhoto = reader.info.livePhoto
            if let box {
                // The grid's picture is the video's poster (never a black lead-in), as later renders make it.
                let poster = try posterPicture(chosen: nil, from: reader, size: .fit(PixelSize(width: box.width * 4, height: box.height * 4)))
                probe.thumbnail = try thumbnail(of: poster, size: box, mode: .fill)
            } else {
                _ = try reader.frame(at: .time(.zero), mode: .fast, size: .fit(PixelSize(width: 32, height: 32)))
            }
            return probe
        } catch {
            throw .invalidData(path: url.path, reason: "\(error)")
        }
    }

    /// A file copied into the incoming folder, with what the copy learned.
    struct ImportCopy {
        /// The incoming folder and the copy's name in it.
        let folder: LibraryFolder.Descriptor
        let name: String
        /// SHA-256 of the bytes copied, and how many there were.
        let hash: String
        let bytes: Int64
        /// The source's modification time, and its device and inode.
        let modified: Date
        let identity: FileIdentity?
    }

    /// Copies `url` into the incoming folder once, hashing the bytes as they are written, and
    /// synced to disk. Exactly the bytes the source held when the copy began are read; a source
    /// whose size or modification time differs at the end (rewritten, growing, shrinking) is
    /// refused.
    private func copyIn(_ url: URL) throws(LibraryError) -> ImportCopy {
        do {
            _ = try checkReadableMediaFile(url)
        } catch {
            throw .invalidData(path: url.path, reason: error.description)
        }
        // Non-blocking, so that a FIFO put where a file was expected cannot hang the open.
        let fd = open(url.path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw .invalidData(path: url.path, reason: String(cString: strerror(errno))) }
        let input = LibraryFolder.Descriptor(fd)
        var before = stat()
        guard fstat(fd, &before) == 0 else { throw .invalidData(path: url.path, reason: String(cString: strerror(errno))) }
        guard before.st_mode & S_IFMT == S_IFREG else { throw .notRegularFile(path: url.path) }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)

        let temporary: (folder: LibraryFolder.Descriptor, name: String, file: LibraryFolder.Descriptor)
        do {
            temporary = try storage.createTemporary(in: LibraryFolder.incoming)
        } catch {
            throw .storeFailed(file: url.path, library: folder.path, reason: error.reason)
        }
        var kept = false
        defer { if !kept { LibraryFolder.remove(temporary.name, in: temporary.folder) } }

        let expected = Int64(before.st_size)
        var hasher = SHA256()
        var total: Int64 = 0
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while total < expected {
            let wanted = Int(min(Int64(buffer.count), expected - total))
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, wanted) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw .invalidData(path: url.path, reason: String(cString: strerror(errno))) }
            guard count > 0 else { throw .changedDuringImport(path: url.path) }   // it shrank
            let chunk = buffer[0..<count]
            hasher.update(chunk)
            do {
                try LibraryFolder.writeAll(Data(chunk), to: temporary.file.fd, path: temporary.name)
            } catch {
                throw .storeFailed(file: url.path, library: folder.path, reason: error.reason)
            }
            total += Int64(count)
        }
        afterCopy?(url)
        var after = stat()
        var extra: UInt8 = 0
        guard Glibc.read(fd, &extra, 1) == 0, fstat(fd, &after) == 0, after.st_size == before.st_size,
              after.st_mtim.tv_sec == before.st_mtim.tv_sec, after.st_mtim.tv_nsec == before.st_mtim.tv_nsec else {
            throw .changedDuringImport(path: url.path)
        }
        guard fsync(temporary.file.fd) == 0 else {
            throw .storeFailed(file: url.path, library: folder.path, reason: String(cString: strerror(errno)))
        }
        kept = true
        let modified = Date(timeIntervalSince1970: Double(before.st_mtim.tv_sec) + Double(before.st_mtim.tv_nsec) / 1e9)
        return ImportCopy(folder: temporary.folder, name: temporary.name, hash: hasher.finalize(), bytes: total,
                          modified: modified, identity: FileIdentity(fd: input.fd))
    }

    private func existingAsset(hash: String) throws(LibraryError) -> Asset? {
        try catalogue {
            // A movie or a Motion Photo's video stored as a live asset's motion counts as stored.
            let statement = try database.prepare("SELECT \(Catalogue.columns) FROM assets WHERE content_hash = ? OR motion_hash = ?")
            try statement.bind([.text(hash), .text(hash)])
            return try statement.step() ? Catalogue.asset(statement) : nil
        }
    }

    /// A file extension safe to use in a stored name: letters and digits only, short, lower case.
    static func safeExtension(_ ext: String) -> String {
        let cleaned = ext.lowercased().filter { $0.isASCII && ($0.isLetter || $0.isNumber) }
        return String(cleaned.prefix(8))
    }
}
