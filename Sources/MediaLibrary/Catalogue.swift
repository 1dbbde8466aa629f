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
        source TEXT NOT NULL DEFAULT 'import'
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

    /// The columns added to `assets` after the first catalogue, oldest first, with their types:
    /// the chosen poster, then the capture metadata (in `CaptureMetadata`'s order). Every
    /// catalogue, new or old, gets them through `migrate`.
    static let addedColumns: [(name: String, type: String)] = [
        ("poster_value", "INTEGER"), ("poster_scale", "INTEGER"),
        ("latitude", "REAL"), ("longitude", "REAL"), ("altitude", "REAL"),
        ("make", "TEXT"), ("model", "TEXT"), ("lens", "TEXT"), ("software", "TEXT"),
        ("exposure_value", "INTEGER"), ("exposure_scale", "INTEGER"), ("f_number", "REAL"), ("iso", "INTEGER"),
        ("focal_length", "REAL"), ("flash", "INTEGER"), ("capture_date", "TEXT"), ("capture_zone", "TEXT"),
    ]

    /// The metadata columns, as `metadataValues` fills them.
    static let metadataColumns = addedColumns.dropFirst(2).map(\.name)

    /// Indexes on added columns (made once the columns are there): photos by place, and by the
    /// date the camera wrote.
    static let addedIndexes = """
    CREATE INDEX IF NOT EXISTS assets_by_place ON assets (latitude, longitude) WHERE latitude IS NOT NULL;
    CREATE INDEX IF NOT EXISTS assets_by_capture_date ON assets (capture_date, id) WHERE capture_date IS NOT NULL;
    """

    static let columns = "assets.id, kind, creation_date, import_date, width, height, duration_value, duration_scale, "
        + "original_filename, byte_size, content_hash, path, source, " + addedColumns.map(\.name).joined(separator: ", ")

    /// Brings a catalogue up to date: the columns it lacks are added (existing rows keep no
    /// chosen poster and no metadata) and their indexes made.
    static func migrate(_ database: Database) throws(StoreError) {
        if try !missingColumns(database).isEmpty {
            // Under the write lock, looked at again: another process may be migrating it too.
            try database.execute("BEGIN IMMEDIATE")
            do {
                let missing = try missingColumns(database)
                try database.execute(missing.map { "ALTER TABLE assets ADD COLUMN \($0.name) \($0.type);" }.joined())
                try database.execute("COMMIT")
            } catch {
                try? database.execute("ROLLBACK")
                throw error
            }
        }
        try database.execute(addedIndexes)
    }

    /// A read-only catalogue made before some columns is read through a temporary view that
    /// adds them, empty (a temporary view shadows the table for this connection only).
    static func readOlder(_ database: Database) throws(StoreError) {
        let missing = try missingColumns(database)
        guard !missing.isEmpty else { return }
        try database.execute("CREATE TEMP VIEW assets AS SELECT *, \(missing.map { "NULL AS \($0.name)" }.joined(separator: ", ")) FROM main.assets;")
    }

    private static func missingColumns(_ database: Database) throws(StoreError) -> [(name: String, type: String)] {
        let query = try database.prepare("SELECT name FROM pragma_table_info('assets')")
        var present: Set<String> = []
        while try query.step() { present.insert(query.text(0)) }
        return addedColumns.filter { !present.contains($0.name) }
    }

    /// `metadata` as the values of `metadataColumns`.
    static func metadataValues(_ metadata: CaptureMetadata) -> [Statement.Value] {
        func real(_ value: Double?) -> Statement.Value { value.map(Statement.Value.double) ?? .null }
        func text(_ value: String?) -> Statement.Value { value.map(Statement.Value.text) ?? .null }
        func int(_ value: Int?) -> Statement.Value { value.map { .int(Int64($0)) } ?? .null }
        return [
            real(metadata.location?.latitude), real(metadata.location?.longitude), real(metadata.location?.altitude),
            text(metadata.make), text(metadata.model), text(metadata.lens), text(metadata.software),
            metadata.exposureTime.map { .int($0.value) } ?? .null, metadata.exposureTime.map { .int($0.timescale) } ?? .null,
            real(metadata.fNumber), int(metadata.iso), real(metadata.focalLength), int(metadata.flash),
            text(metadata.captureDate), text(metadata.captureZone),
        ]
    }

    /// The metadata of a row read with `columns` (its metadata starts at column 15).
    static func metadata(_ row: Statement) -> CaptureMetadata {
        func real(_ column: Int32) -> Double? { row.isNull(column) ? nil : row.double(column) }
        func text(_ column: Int32) -> String? { row.isNull(column) ? nil : row.text(column) }
        func int(_ column: Int32) -> Int? { row.isNull(column) ? nil : Int(row.int(column)) }
        var metadata = CaptureMetadata()
        if let latitude = real(15), let longitude = real(16) {
            metadata.location = CaptureMetadata.Location(latitude: latitude, longitude: longitude, altitude: real(17))
        }
        metadata.make = text(18)
        metadata.model = text(19)
        metadata.lens = text(20)
        metadata.software = text(21)
        if !row.isNull(22), row.int(23) > 0 { metadata.exposureTime = MediaTime(value: row.int(22), timescale: row.int(23)) }
        metadata.fNumber = real(24)
        metadata.iso = int(25)
        metadata.focalLength = real(26)
        metadata.flash = int(27)
        metadata.captureDate = text(28)
        metadata.captureZone = text(29)
        return metadata
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
            metadata: metadata(row),
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
