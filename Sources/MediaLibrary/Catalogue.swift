import Foundation
import Store
import ViewfinderCore

/// The SQL behind the library: schema, rows to assets, and the fetch query.
enum Catalogue {
    static let schema = """
    CREATE TABLE IF NOT EXISTS assets (
        id INTEGER PRIMARY KEY,
        kind TEXT NOT NULL CHECK (kind IN ('photo', 'video')),
        creation_date REAL NOT NULL,
        import_date REAL NOT NULL,
        width INTEGER NOT NULL,
        height INTEGER NOT NULL,
        duration_value INTEGER,
        duration_scale INTEGER,
        original_filename TEXT NOT NULL,
        byte_size INTEGER NOT NULL,
        content_hash TEXT NOT NULL UNIQUE,
        path TEXT NOT NULL UNIQUE,
        source TEXT NOT NULL DEFAULT 'import',
        poster_value INTEGER,
        poster_scale INTEGER
    );
    CREATE INDEX IF NOT EXISTS assets_by_date ON assets (creation_date, id);
    CREATE INDEX IF NOT EXISTS assets_by_kind_date ON assets (kind, creation_date, id);
    CREATE INDEX IF NOT EXISTS assets_by_source_date ON assets (source, creation_date, id);
    CREATE TABLE IF NOT EXISTS albums (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
    CREATE TABLE IF NOT EXISTS album_assets (
        album_id INTEGER NOT NULL REFERENCES albums (id) ON DELETE CASCADE,
        asset_id INTEGER NOT NULL REFERENCES assets (id) ON DELETE CASCADE,
        PRIMARY KEY (album_id, asset_id)
    );
    CREATE INDEX IF NOT EXISTS album_assets_by_asset ON album_assets (asset_id);
    """

    static let columns = """
    assets.id, kind, creation_date, import_date, width, height, duration_value, duration_scale,
    original_filename, byte_size, content_hash, path, source, poster_value, poster_scale
    """

    /// Brings a catalogue made before posters up to date (a column added, existing rows keep
    /// no chosen poster).
    static func migrate(_ database: Database) throws(StoreError) {
        guard try !hasPosters(database) else { return }
        try database.execute("ALTER TABLE assets ADD COLUMN poster_value INTEGER; ALTER TABLE assets ADD COLUMN poster_scale INTEGER;")
    }

    /// A read-only catalogue made before posters is read through a temporary view that adds
    /// the columns, empty (a temporary view shadows the table for this connection only).
    static func readOlder(_ database: Database) throws(StoreError) {
        guard try !hasPosters(database) else { return }
        try database.execute("CREATE TEMP VIEW assets AS SELECT *, NULL AS poster_value, NULL AS poster_scale FROM main.assets;")
    }

    private static func hasPosters(_ database: Database) throws(StoreError) -> Bool {
        try database.prepare("SELECT 1 FROM pragma_table_info('assets') WHERE name = 'poster_value'").step()
    }

    static func asset(_ row: Statement) -> Asset {
        let stored = row.text(11), hash = row.text(10)
        let duration: MediaTime? = row.isNull(6) ? nil : MediaTime(value: row.int(6), timescale: max(1, row.int(7)))
        return Asset(
            id: row.int(0), kind: AssetKind(rawValue: row.text(1)) ?? .photo,
            creationDate: Date(timeIntervalSince1970: row.double(2)),
            importDate: Date(timeIntervalSince1970: row.double(3)),
            size: PixelSize(width: Int(row.int(4)), height: Int(row.int(5))), duration: duration,
            originalFilename: row.text(8), byteSize: row.int(9), contentHash: row.text(10),
            source: Asset.Source(rawValue: row.text(12)) ?? .imported,
            posterTime: row.isNull(13) ? nil : MediaTime(value: row.int(13), timescale: max(1, row.int(14))),
            relativePath: LibraryFolder.damage(storedPath: stored, hash: hash) == nil ? stored : nil)
    }

    /// The fetch as SQL and its parameters: an index range scan for every group and order.
    static func fetch(_ request: FetchRequest) -> (String, [Statement.Value]) {
        var sql = "SELECT \(columns) FROM assets"
        var conditions: [String] = []
        var values: [Statement.Value] = []
        switch request.group {
        case .all: break
        case .photos: conditions.append("kind = 'photo'")
        case .videos: conditions.append("kind = 'video'")
        case .captures: conditions.append("source = 'capture'")
        case .album(let name):
            sql += " JOIN album_assets ON album_assets.asset_id = assets.id JOIN albums ON albums.id = album_assets.album_id"
            conditions.append("albums.name = ?")
            values.append(.text(name))
        }
        let kinds = request.kinds.map(\.rawValue).sorted()
        if kinds.count == 1 {
            conditions.append("kind = ?")
            values.append(.text(kinds[0]))
        } else if kinds.isEmpty {
            conditions.append("0")
        }
        if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
        let direction = request.order == .newestFirst ? "DESC" : "ASC"
        sql += " ORDER BY creation_date \(direction), assets.id \(direction)"
        sql += " LIMIT ? OFFSET ?"
        values.append(.int(Int64(request.limit ?? -1)))
        values.append(.int(Int64(max(0, request.offset))))
        return (sql, values)
    }
}
