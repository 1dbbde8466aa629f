import Foundation
import Imaging
import MediaIO
import Store
import ViewfinderCore

/// The photo library: a folder of originals and an SQLite catalogue (seeds.md §3).
///
/// Originals are stored under names made from their content hash, so nothing from outside ever
/// becomes a path in the library, and identical files are stored once. A file is copied under a
/// temporary name, synced, renamed into place, and only then is its row committed: a crash
/// leaves at worst a file without a row, which `check()` removes. Not thread-safe: one instance
/// per thread; several processes may share a library (WAL, busy timeout).
public final class MediaLibrary {
    /// The library folder.
    public let folder: URL
    /// True when opened (or found) read-only: changes throw `permissionDenied`.
    public let isReadOnly: Bool
    let database: Database
    /// A test seam: runs between an import's copy of a file and its last look at the source (to
    /// change the file at exactly that moment). Nil outside tests.
    var afterCopy: ((URL) -> Void)?

    /// `$VIEWFINDER_LIBRARY`, else `$XDG_DATA_HOME/viewfinder/Library`, else
    /// `~/.local/share/viewfinder/Library`.
    public static func defaultLocation(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        OutputLocation.defaultLibraryFolder(environment: environment)
    }

    /// Opens the library at `folder`, creating it on first use unless it is read-only.
    public init(folder: URL, readOnly: Bool = false) throws(LibraryError) {
        self.folder = folder
        let manager = FileManager.default
        let catalogue = folder.appendingPathComponent("catalogue.sqlite")
        var readOnly = readOnly
        if !manager.fileExists(atPath: folder.path) {
            if readOnly { throw .io(path: folder.path, reason: tr("no library here")) }
            do {
                try manager.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                throw .io(path: folder.path, reason: tr("cannot create the library folder: {reason}", ["reason": (error as NSError).localizedDescription]))
            }
        }
        if !manager.isWritableFile(atPath: folder.path) {
            readOnly = true
        }
        isReadOnly = readOnly
        if readOnly && !manager.fileExists(atPath: catalogue.path) {
            throw .io(path: folder.path, reason: tr("not a library (no catalogue), and the folder is read-only"))
        }
        do {
            database = try Database(path: catalogue.path, readOnly: readOnly)
            if readOnly {
                try Catalogue.readOlder(database)
            } else {
                try database.execute(Catalogue.schema)
                try Catalogue.migrate(database)
            }
        } catch {
            throw .catalogue(error)
        }
    }

    func requireWritable() throws(LibraryError) {
        if isReadOnly { throw .permissionDenied(path: folder.path) }
    }

    /// Runs catalogue work, turning its errors into library errors.
    func catalogue<T>(_ body: () throws -> T) throws(LibraryError) -> T {
        do {
            return try body()
        } catch let error as LibraryError {
            throw error
        } catch let error as StoreError {
            if case .readOnly = error { throw .permissionDenied(path: folder.path) }
            throw .catalogue(error)
        } catch {
            throw .io(path: folder.path, reason: "\(error)")
        }
    }

    /// A number that changes whenever another connection (another process, or another
    /// `MediaLibrary` in this one) has committed a change to the catalogue since the last look
    /// (SQLite's `PRAGMA data_version`).
    public func changeCounter() throws(LibraryError) -> Int64 {
        try catalogue {
            let statement = try database.prepare("PRAGMA data_version")
            return try statement.step() ? statement.int(0) : 0
        }
    }

    // MARK: - Reading the catalogue

    /// Assets in a group, filtered by kind, in creation-date order, one page at a time.
    public func assets(_ request: FetchRequest = FetchRequest()) throws(LibraryError) -> [Asset] {
        try catalogue {
            let (sql, values) = Catalogue.fetch(request)
            let statement = try database.prepare(sql)
            try statement.bind(values)
            var result: [Asset] = []
            while try statement.step() { result.append(Catalogue.asset(statement)) }
            return result
        }
    }

    /// How many assets a fetch would return (its limit and offset included), counted by the
    /// catalogue without reading the rows.
    public func count(_ request: FetchRequest = FetchRequest()) throws(LibraryError) -> Int {
        try catalogue {
            let (sql, values) = Catalogue.fetch(request)
            let statement = try database.prepare("SELECT COUNT(*) FROM (\(sql))")
            try statement.bind(values)
            return try statement.step() ? Int(statement.int(0)) : 0
        }
    }

    /// One asset.
    public func asset(id: Int64) throws(LibraryError) -> Asset {
        let found: Asset? = try catalogue {
            let statement = try database.prepare("SELECT \(Catalogue.columns) FROM assets WHERE id = ?")
            try statement.bind([.int(id)])
            return try statement.step() ? Catalogue.asset(statement) : nil
        }
        guard let found else { throw .noSuchAsset(id) }
        return found
    }

    /// The library folder reached through descriptors (no link followed inside it).
    var storage: LibraryFolder { LibraryFolder(root: folder) }

    /// Where an asset's original is stored, once it is known to be the library's own regular
    /// file: a row whose path is not the one derived from its content, or a stored file that is
    /// a link, throws `damaged` and is never opened.
    public func originalURL(of asset: Asset) throws(LibraryError) -> URL {
        _ = try storage.openOriginal(asset.relativePath, id: asset.id)
        return folder.appendingPathComponent(asset.relativePath ?? "")
    }
}
