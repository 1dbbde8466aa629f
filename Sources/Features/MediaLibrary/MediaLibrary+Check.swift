import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Store
import ViewfinderCore

/// What `check()` found (and, with `repair`, fixed).
public struct CheckReport: Sendable, Equatable {
    /// A catalogue row the library did not make, or a stored file that no longer holds what the
    /// row says.
    public struct Damage: Sendable, Equatable, CustomStringConvertible {
        /// The asset.
        public let id: Int64
        /// What is wrong, for a person.
        public let reason: String
        public var description: String { tr("asset {id}: {reason}", ["id": id, "reason": reason]) }
    }

    /// Stored files no row refers to (left by a crash between the file and its row).
    public var orphanFiles: [String] = []
    /// Stored originals no row refers to, kept because the catalogue holds no asset at all: a
    /// lost, emptied or replaced catalogue is never read as "the library holds nothing".
    /// Importing them again (`importFile` on their paths) catalogues them anew.
    public var unaccountedOriginals: [String] = []
    /// Rows whose file is missing.
    public var missingFiles: [Int64] = []
    /// Live assets whose still is there but whose motion is missing: `repair` keeps them as
    /// photos (the still is never dropped for want of its motion).
    public var missingMotions: [Int64] = []
    /// Unfinished imports in the incoming folder.
    public var partialImports = 0
    /// Unfinished thumbnails (hidden `.partial` files) in the thumbnail cache.
    public var partialThumbnails = 0
    /// Rows whose stored path is not the one made from their content (pointing elsewhere, `..`,
    /// an absolute path): the path is never read, written or deleted; `repair` drops the row.
    public var damagedRows: [Damage] = []
    /// Entries in the library's own folders that the library never makes — symbolic links,
    /// pipes, devices, folders where files belong — relative to the library folder. They are
    /// never followed; `repair` removes a link or special file itself (never what a link points
    /// at) and leaves folders for a person to look at.
    public var foreignEntries: [String] = []
    /// With `verify`, stored originals whose bytes no longer match their content hash. Never
    /// repaired: the file may be the only copy of something.
    public var corruptOriginals: [Damage] = []

    /// True when nothing was wrong.
    public var isClean: Bool {
        orphanFiles.isEmpty && unaccountedOriginals.isEmpty && missingFiles.isEmpty && missingMotions.isEmpty && partialImports == 0 && partialThumbnails == 0
            && damagedRows.isEmpty && foreignEntries.isEmpty && corruptOriginals.isEmpty
    }

    /// True when something is wrong that a repair does not fix (corrupt originals, foreign
    /// folders): it needs a person.
    public var needsAttention: Bool {
        !corruptOriginals.isEmpty || !unaccountedOriginals.isEmpty || foreignEntries.contains { $0.hasSuffix("/") }
    }
}

extension MediaLibrary {
    /// Compares the catalogue with the folder, without following any link; with `verify`, also
    /// re-hashes every original. With `repair`, removes orphan files, rows whose file is gone,
    /// damaged rows (never the paths they name), unfinished imports and thumbnails, and links or
    /// special files planted in the library's folders.
    @discardableResult
    public func check(repair: Bool = true, verify: Bool = false) throws(LibraryError) -> CheckReport {
        if repair { try requireWritable() }
        // No import is between storing a file and committing its row while this looks.
        let lock = LibraryLock(folder: folder, exclusive: true)
        defer { withExtendedLifetime(lock) {} }
        var report = CheckReport()
        // Every stored file a row names, with the hash it must have: an original, and a live
        // asset's motion.
        var known: [String: (asset: Asset, hash: String)] = [:]
        let rows = try assets()
        for asset in rows {
            if let relative = asset.relativePath {
                known[relative] = (asset, asset.contentHash)
            } else {
                report.damagedRows.append(.init(id: asset.id, reason: tr("its catalogue row names a stored file the library did not make")))
            }
            if let motion = asset.motion {
                if let relative = motion.relativePath {
                    known[relative] = (asset, motion.contentHash)
                } else if asset.relativePath != nil {
                    report.damagedRows.append(.init(id: asset.id, reason: tr("its catalogue row names a stored motion the library did not make")))
                }
            }
        }
        let store = storage
        var onDisk = Set<String>()
        var removable: [(LibraryFolder.Descriptor, String)] = []
        // The files of the incoming folder: an original that shares one is an unfinished import.
        var journal: [FileIdentity] = []
        func foreign(_ relative: String, kind: LibraryFolder.EntryKind, in folder: LibraryFolder.Descriptor, name: String) {
            if kind == .folder {
                report.foreignEntries.append(relative + "/")
            } else {
                report.foreignEntries.append(relative)
                removable.append((folder, name))
            }
        }
        let root = try? store.openRoot()
        if let root {
            // originals/<2 hex>/<hash>.<ext>: two levels of real folders, then regular files.
            switch LibraryFolder.kind(of: LibraryFolder.originals, in: root) {
            case .folder:
                if let originals = try? store.openFolder(LibraryFolder.originals) {
                    for prefix in LibraryFolder.entries(of: originals) {
                        let relative = "\(LibraryFolder.originals)/\(prefix)"
                        let kind = LibraryFolder.kind(of: prefix, in: originals)
                        guard kind == .folder, let files = try? store.openFolder(relative) else {
                            foreign(relative, kind: kind, in: originals, name: prefix)
                            continue
                        }
                        for name in LibraryFolder.entries(of: files) {
                            let kind = LibraryFolder.kind(of: name, in: files)
                            if kind == .file { onDisk.insert("\(relative)/\(name)") } else { foreign("\(relative)/\(name)", kind: kind, in: files, name: name) }
                        }
                    }
                }
            case .missing: break
            case let kind: foreign(LibraryFolder.originals, kind: kind, in: root, name: LibraryFolder.originals)
            }
            // Everything in the incoming folder is an unfinished import; a link is removed itself.
            switch LibraryFolder.kind(of: LibraryFolder.incoming, in: root) {
            case .folder:
                if let incoming = try? store.openFolder(LibraryFolder.incoming) {
                    for name in LibraryFolder.entries(of: incoming) {
                        let kind = LibraryFolder.kind(of: name, in: incoming)
                        if kind == .folder {
                            report.foreignEntries.append("\(LibraryFolder.incoming)/\(name)/")
                        } else {
                            report.partialImports += 1
                            removable.append((incoming, name))
                            if kind == .file, let identity = store.identity(of: "\(LibraryFolder.incoming)/\(name)") {
                                journal.append(identity)
                            }
                        }
                    }
                }
            case .missing: break
            case let kind: foreign(LibraryFolder.incoming, kind: kind, in: root, name: LibraryFolder.incoming)
            }
            // The thumbnail cache: hidden unfinished files go, links and special files go.
            switch LibraryFolder.kind(of: LibraryFolder.thumbnails, in: root) {
            case .folder:
                if let cache = try? store.openFolder(LibraryFolder.thumbnails) {
                    for name in LibraryFolder.entries(of: cache) {
                        let kind = LibraryFolder.kind(of: name, in: cache)
                        if kind != .file {
                            foreign("\(LibraryFolder.thumbnails)/\(name)", kind: kind, in: cache, name: name)
                        } else if name.hasSuffix(".partial") {
                            report.partialThumbnails += 1
                            removable.append((cache, name))
                        }
                    }
                }
            case .missing: break
            case let kind: foreign(LibraryFolder.thumbnails, kind: kind, in: root, name: LibraryFolder.thumbnails)
            }
        }
        report.orphanFiles = onDisk.subtracting(known.keys).sorted()
        if rows.isEmpty && !report.orphanFiles.isEmpty {
            // Originals but not one row: the catalogue was lost or emptied, not the library —
            // but for originals an unfinished import put in place (they share their file with
            // an incoming entry: `LibraryFolder.place`), as a library's first import killed
            // before its row leaves.
            let unfinished = report.orphanFiles.filter { path in store.identity(of: path).map(journal.contains) ?? false }
            report.unaccountedOriginals = report.orphanFiles.filter { !unfinished.contains($0) }
            report.orphanFiles = unfinished
        }
        let missing = known.filter { !onDisk.contains($0.key) }.map(\.value)
        report.missingFiles = Set(missing.filter { $0.hash == $0.asset.contentHash }.map(\.asset.id)).sorted()
        report.missingMotions = Set(missing.map(\.asset.id)).subtracting(report.missingFiles).sorted()
        if verify {
            for (relative, entry) in known where onDisk.contains(relative) {
                if let reason = verifyContent(of: entry.asset, at: relative, hash: entry.hash) {
                    report.corruptOriginals.append(.init(id: entry.asset.id, reason: reason))
                }
            }
            report.corruptOriginals.sort { $0.id < $1.id }
        }
        report.damagedRows.sort { $0.id < $1.id }
        report.foreignEntries.sort()
        guard repair else { return report }
        for path in report.orphanFiles { store.remove(path) }
        for (folder, name) in removable { LibraryFolder.remove(name, in: folder) }
        let dropped = report.missingFiles + report.damagedRows.map(\.id)
        if !dropped.isEmpty || !report.missingMotions.isEmpty {
            try catalogue {
                try database.transaction {
                    let delete = try database.prepare("DELETE FROM assets WHERE id = ?")
                    for id in dropped { try delete.run([.int(id)]) }
                    let still = try database.prepare("""
                        UPDATE assets SET kind = 'photo', duration_value = NULL, duration_scale = NULL, poster_value = NULL,
                                          poster_scale = NULL, motion_filename = NULL, motion_byte_size = NULL,
                                          motion_hash = NULL, motion_path = NULL WHERE id = ?
                        """)
                    for id in report.missingMotions { try still.run([.int(id)]) }
                }
            }
            for id in dropped + report.missingMotions { removeThumbnails(of: id) }
        }
        return report
    }

    /// Why a stored original no longer matches its row (its hash or size), or nil when it does.
    private func verifyContent(of asset: Asset, at relative: String, hash: String) -> String? {
        guard let file = try? storage.openFile(relative) else { return tr("its stored file cannot be opened") }
        var hasher = SHA256()
        var total: Int64 = 0
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(file.fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { return tr("its stored file cannot be read ({reason})", ["reason": String(cString: strerror(errno))]) }
            if count == 0 { break }
            hasher.update(buffer[0..<count])
            total += Int64(count)
        }
        if hasher.finalize() != hash {
            let stored = hash == asset.contentHash ? asset.byteSize : asset.motion?.byteSize ?? 0
            let size = Int(clamping: total)
            return hash == asset.contentHash
                ? trn("its stored file no longer matches its content hash ({count} byte, {stored} when stored)",
                      "its stored file no longer matches its content hash ({count} bytes, {stored} when stored)", size, ["stored": stored])
                : trn("its stored motion no longer matches its content hash ({count} byte, {stored} when stored)",
                      "its stored motion no longer matches its content hash ({count} bytes, {stored} when stored)", size, ["stored": stored])
        }
        return nil
    }
}

extension MediaLibrary {
    /// Catalogues again the originals the catalogue no longer lists — all of them when it was
    /// lost or emptied (`unaccountedOriginals`), the orphans when it lost some rows (an older
    /// copy put back) — instead of removing them: each is imported where it lies (identical content is
    /// stored once, so nothing is copied twice); their original names, albums and chosen covers
    /// are gone with the old catalogue. Returns what was catalogued, and what could not be
    /// (left in place, never removed).
    public func rebuildCatalogue() throws(LibraryError) -> (catalogued: [Asset], failed: [ImportFailure]) {
        try requireWritable()
        let report = try check(repair: false)
        var catalogued: [Asset] = []
        var failed: [ImportFailure] = []
        for relative in report.unaccountedOriginals + report.orphanFiles {
            let url = folder.appendingPathComponent(relative)
            do {
                catalogued.append(try importFile(url).asset)
            } catch {
                failed.append(ImportFailure(path: relative, message: error.description))
            }
        }
        return (catalogued, failed)
    }
}

