internal import CSQLite
import Foundation
import ViewfinderCore

/// One SQLite connection (owns the `sqlite3` handle; closed in `deinit`). WAL journal, foreign
/// keys on, and a busy timeout so that two processes share a catalogue without failing.
/// Not thread-safe: use one connection per thread.
public final class Database {
    public let path: String
    public let isReadOnly: Bool
    let handle: OpaquePointer

    /// Opens (creating when `readOnly` is false) the database at `path`.
    public init(path: String, readOnly: Bool = false, busyTimeout: Duration = .seconds(10)) throws(StoreError) {
        self.path = path
        isReadOnly = readOnly
        var db: OpaquePointer?
        var status: Int32
        if readOnly {
            // Plain read-only first: it sees changes another process still holds in the WAL. In
            // a folder we cannot write, WAL's shared-memory file cannot be made; then open the
            // catalogue as immutable, which needs no lock files.
            status = sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil)
            if status == SQLITE_OK, let opened = db,
               sqlite3_exec(opened, "SELECT count(*) FROM sqlite_master", nil, nil, nil) != SQLITE_OK {
                sqlite3_close_v2(opened)
                db = nil
                status = SQLITE_CANTOPEN
            }
            if status != SQLITE_OK {
                sqlite3_close_v2(db)
                db = nil
                let escaped = path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path
                status = sqlite3_open_v2("file:\(escaped)?immutable=1", &db,
                                         SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, nil)
            }
        } else {
            status = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
        }
        guard status == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? tr("out of memory")
            sqlite3_close_v2(db)
            throw .cannotOpen(path: path, message: message)
        }
        handle = db
        let milliseconds = Int32(clamping: busyTimeout.components.seconds * 1000 + busyTimeout.components.attoseconds / 1_000_000_000_000_000)
        sqlite3_busy_timeout(db, milliseconds)
        if !readOnly {
            // Switching a new file to WAL needs it to itself, and SQLite reports another
            // connection doing the same as busy without waiting: wait here, within the timeout.
            let deadline = Date().addingTimeInterval(Double(milliseconds) / 1000)
            while true {
                do throws(StoreError) {
                    try execute("PRAGMA journal_mode = WAL")
                    break
                } catch {
                    guard case .busy = error, Date() < deadline else { throw error }
                    Thread.sleep(forTimeInterval: 0.005)
                }
            }
            try execute("PRAGMA synchronous = NORMAL")
        }
        try execute("PRAGMA foreign_keys = ON")
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    /// Runs one or more statements that return no rows.
    public func execute(_ sql: String) throws(StoreError) {
        var message: UnsafeMutablePointer<CChar>?
        let status = sqlite3_exec(handle, sql, nil, nil, &message)
        defer { sqlite3_free(message) }
        if status != SQLITE_OK {
            throw error(status, message.map { String(cString: $0) })
        }
    }

    /// A prepared statement for `sql`.
    public func prepare(_ sql: String) throws(StoreError) -> Statement {
        var statement: OpaquePointer?
        let status = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard status == SQLITE_OK, let statement else { throw error(status) }
        return Statement(statement, database: self)
    }

    /// Runs `body` in a transaction that takes the write lock at once (so a busy database waits
    /// up front instead of failing halfway); commits if it returns, rolls back if it throws.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// The rowid of the last insert.
    public var lastInsertID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Rows changed by the last statement.
    public var changes: Int { Int(sqlite3_changes(handle)) }

    func error(_ status: Int32, _ text: String? = nil) -> StoreError {
        let message = text ?? String(cString: sqlite3_errmsg(handle))
        switch status & 0xFF {
        case SQLITE_READONLY: return .readOnly(path: path)
        case SQLITE_BUSY, SQLITE_LOCKED: return .busy(path: path)
        case SQLITE_CONSTRAINT: return .constraint(message: message)
        case SQLITE_CANTOPEN, SQLITE_NOTADB: return .cannotOpen(path: path, message: message)
        default: return .sqlite(code: status, message: message)
        }
    }
}
