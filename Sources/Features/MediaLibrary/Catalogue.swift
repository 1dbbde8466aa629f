import Foundation
import Store
import ViewfinderCore

/// The SQL behind the library: schema, rows to assets, and the fetch query.
enum Catalogue {
    /// The kinds the `kind` column accepts (its CHECK constraint; `migrate` rebuilds a table
    /// made with fewer).
    static let kindCheck = "CHECK (kind IN (\(AssetKind.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", "))))"

    /// The first catalogue's `assets` table, under `name`, with today's kinds.
    static func assetsTable(_ name: String) -> String {
        """
        CREATE TABLE IF NOT EXISTS \(name) (
            id INTEGER PRIMARY KEY,
            kind TEXT NOT NULL \(kindCheck),
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
        """
    }

    static let schema = assetsTable("assets") + baseIndexes + """
    CREATE TABLE IF NOT EXISTS albums (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
    CREATE TABLE IF NOT EXISTS album_assets (
        album_id INTEGER NOT NULL REFERENCES albums (id) ON DELETE CASCADE,
        asset_id INTEGER NOT NULL REFERENCES assets (id) ON DELETE CASCADE,
        PRIMARY KEY (album_id, asset_id)
    );
    CREATE INDEX IF NOT EXISTS album_assets_by_asset ON album_assets (asset_id);
    """

    static let baseIndexes = """
    CREATE INDEX IF NOT EXISTS assets_by_date ON assets (creation_date, id);
    CREATE INDEX IF NOT EXISTS assets_by_kind_date ON assets (kind, creation_date, id);
    CREATE INDEX IF NOT EXISTS assets_by_source_date ON assets (source, creation_date, id);

    """

    /// The columns added to `assets` after the first catalogue, oldest first, with their types:
    /// the chosen poster, the capture metadata (in `CaptureMetadata`'s order), then a live
    /// asset's pairing and motion. Every catalogue, new or old, gets them through `migrate`.
    static let addedColumns: [(name: String, type: String)] = [
        ("poster_value", "INTEGER"), ("poster_scale", "INTEGER"),
    ] + metadataColumnTypes + liveColumnTypes

    private static let metadataColumnTypes: [(name: String, type: String)] = [
        ("latitude", "REAL"), ("longitude", "REAL"), ("altitude", "REAL"),
        ("make", "TEXT"), ("model", "TEXT"), ("lens", "TEXT"), ("software", "TEXT"),
        ("exposure_value", "INTEGER"), ("exposure_scale", "INTEGER"), ("f_number", "REAL"), ("iso", "INTEGER"),
        ("focal_length", "REAL"), ("flash", "INTEGER"), ("capture_date", "TEXT"), ("capture_zone", "TEXT"),
    ]

    private static let liveColumnTypes: [(name: String, type: String)] = [
        ("content_identifier", "TEXT"), ("motion_filename", "TEXT"), ("motion_byte_size", "INTEGER"),
        ("motion_hash", "TEXT"), ("motion_path", "TEXT"),
    ]

    /// The metadata columns, as `metadataValues` fills them.
    static let metadataColumns = metadataColumnTypes.map(\.name)

    /// The live columns, as `liveValues` fills them (they start at column 30 of `columns`).
    static let liveColumns = liveColumnTypes.map(\.name)

    /// Indexes on added columns (made once the columns are there): photos by place, and by the
    /// date the camera wrote.
    static let addedIndexes = """
    CREATE INDEX IF NOT EXISTS assets_by_place ON assets (latitude, longitude) WHERE latitude IS NOT NULL;
    CREATE INDEX IF NOT EXISTS assets_by_capture_date ON assets (capture_date, id) WHERE capture_date IS NOT NULL;
    CREATE INDEX IF NOT EXISTS assets_by_content_identifier ON assets (content_identifier) WHERE content_identifier IS NOT NULL;
    CREATE UNIQUE INDEX IF NOT EXISTS assets_by_motion_hash ON assets (motion_hash) WHERE motion_hash IS NOT NULL;
    """

    static let columns = "assets.id, kind, creation_date, import_date, width, height, duration_value, duration_scale, "
        + "original_filename, byte_size, content_hash, path, source, " + addedColumns.map(\.name).joined(separator: ", ")

    /// Brings a catalogue up to date: a table whose kind CHECK lacks a kind is rebuilt, the
    /// columns it lacks are added (existing rows keep no chosen poster, no metadata, no motion)
    /// and their indexes made.
    static func migrate(_ database: Database) throws(StoreError) {
        if try needsRebuild(database) { try rebuild(database) }
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

    /// True when the `assets` table's CHECK constraint refuses a kind the library now has
    /// (SQLite cannot alter a constraint: the table must be made again).
    private static func needsRebuild(_ database: Database) throws(StoreError) -> Bool {
        let query = try database.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'assets'")
        guard try query.step() else { return false }
        let sql = query.text(0)
        return AssetKind.allCases.contains { !sql.contains("'\($0.rawValue)'") }
    }

    /// Makes the `assets` table again with today's CHECK, in one transaction, the way SQLite's
    /// documentation says a constraint is changed: a new table, every row copied, the old one
    /// dropped, the new one renamed. Foreign keys are off meanwhile, so dropping the old table
    /// does not cascade into album memberships (their ids are copied unchanged).
    private static func rebuild(_ database: Database) throws(StoreError) {
        try database.execute("PRAGMA foreign_keys = OFF")
        defer { try? database.execute("PRAGMA foreign_keys = ON") }
        try database.execute("BEGIN IMMEDIATE")
        do throws(StoreError) {
            // Looked at again under the write lock: another process may have rebuilt it.
            if try needsRebuild(database) {
                let present = try presentColumns(database)
                let copied = (["id", "kind", "creation_date", "import_date", "width", "height", "duration_value", "duration_scale",
                               "original_filename", "byte_size", "content_hash", "path", "source"] + addedColumns.map(\.name))
                    .filter(present.contains).joined(separator: ", ")
                try database.execute("DROP TABLE IF EXISTS assets_rebuilt;" + assetsTable("assets_rebuilt")
                    + addedColumns.map { "ALTER TABLE assets_rebuilt ADD COLUMN \($0.name) \($0.type);" }.joined()
                    + "INSERT INTO assets_rebuilt (\(copied)) SELECT \(copied) FROM assets;"
                    + "DROP TABLE assets; ALTER TABLE assets_rebuilt RENAME TO assets;" + baseIndexes)
                // Memberships that pointed nowhere before the rebuild (an album or asset gone
                // while foreign keys were off) are the damage `check` removes anyway; left in,
                // they would fail the check below and keep every command from opening the
                // library, `check` included.
                try database.execute("""
                    DELETE FROM album_assets WHERE asset_id NOT IN (SELECT id FROM assets)
                        OR album_id NOT IN (SELECT id FROM albums);
                    """)
                let check = try database.prepare("PRAGMA foreign_key_check")
                if try check.step() { throw StoreError.constraint(message: tr("album memberships point at assets the rebuilt table lacks")) }
            }
            try database.execute("COMMIT")
        } catch {
            try? database.execute("ROLLBACK")
            throw error
        }
    }

    /// A read-only catalogue made before some columns is read through a temporary view that
    /// adds them, empty (a temporary view shadows the table for this connection only).
    static func readOlder(_ database: Database) throws(StoreError) {
        let missing = try missingColumns(database)
        guard !missing.isEmpty else { return }
        try database.execute("CREATE TEMP VIEW assets AS SELECT *, \(missing.map { "NULL AS \($0.name)" }.joined(separator: ", ")) FROM main.assets;")
    }

    private static func missingColumns(_ database: Database) throws(StoreError) -> [(name: String, type: String)] {
        let present = try presentColumns(database)
        return addedColumns.filter { !present.contains($0.name) }
    }

    private static func presentColumns(_ database: Database) throws(StoreError) -> Set<String> {
        let query = try database.prepare("SELECT name FROM pragma_table_info('assets')")
        var present: Set<String> = []
        while try query.step() { present.insert(query.text(0)) }
        return present
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

    /// A live asset's pairing and motion as the values of `liveColumns`.
    static func liveValues(contentIdentifier: String?, motion: Asset.MotionFile?, path: String?) -> [Statement.Value] {
        [contentIdentifier.map(Statement.Value.text) ?? .null, motion.map { .text($0.filename) } ?? .null,
         motion.map { .int($0.byteSize) } ?? .null, motion.map { .text($0.contentHash) } ?? .null,
         path.map(Statement.Value.text) ?? .null]
    }

    /// The motion of a row read with `columns`, when it has one.
    static func motion(_ row: Statement) -> Asset.MotionFile? {
        guard !row.isNull(33), !row.isNull(34) else { return nil }
        let stored = row.text(34), hash = row.text(33)
        return Asset.MotionFile(filename: row.isNull(31) ? "" : row.text(31), byteSize: row.isNull(32) ? 0 : row.int(32),
                                contentHash: hash,
                                relativePath: LibraryFolder.damage(storedPath: stored, hash: hash) == nil ? stored : nil)
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
            relativePath: LibraryFolder.damage(storedPath: stored, hash: hash) == nil ? stored : nil,
            contentIdentifier: row.isNull(30) ? nil : row.text(30), motion: motion(row))
    }

    /// The fetch as SQL and its parameters: an index range scan for every group and order.
    static func fetch(_ request: FetchRequest) -> (String, [Statement.Value]) {
        var sql = "SELECT \(columns) FROM assets"
        var conditions: [String] = []
        var values: [Statement.Value] = []
        switch request.group {
        case .all: break
        case .photos: conditions.append("kind IN ('photo', 'live')")
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
        } else if kinds.count < AssetKind.allCases.count {
            conditions.append("kind IN (\(kinds.map { _ in "?" }.joined(separator: ", ")))")
            values += kinds.map(Statement.Value.text)
        }
        if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
        switch request.order {
        case .newestFirst: sql += " ORDER BY creation_date DESC, assets.id DESC"
        case .oldestFirst: sql += " ORDER BY creation_date ASC, assets.id ASC"
        // Byte order, as a folder's names sort (FolderBrowser).
        case .byName: sql += " ORDER BY original_filename COLLATE BINARY ASC, assets.id ASC"
        }
        sql += " LIMIT ? OFFSET ?"
        values.append(.int(Int64(request.limit ?? -1)))
        values.append(.int(Int64(max(0, request.offset))))
        return (sql, values)
    }
}
