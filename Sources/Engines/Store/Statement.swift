internal import CSQLite
import Foundation

/// A prepared statement: bind by position (1-based), step, read columns (0-based).
public final class Statement {
    let handle: OpaquePointer
    unowned let database: Database

    init(_ handle: OpaquePointer, database: Database) {
        self.handle = handle
        self.database = database
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// A value to bind.
    public enum Value: Sendable, Equatable {
        case int(Int64)
        case double(Double)
        case text(String)
        case null
    }

    /// Binds `values` to the parameters 1, 2, … after resetting the statement.
    @discardableResult
    public func bind(_ values: [Value]) throws(StoreError) -> Statement {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        for (i, value) in values.enumerated() {
            let index = Int32(i + 1)
            let status: Int32
            switch value {
            case .int(let v): status = sqlite3_bind_int64(handle, index, v)
            case .double(let v): status = sqlite3_bind_double(handle, index, v)
            case .text(let v): status = sqlite3_bind_text(handle, index, v, -1, vf_sqlite_transient())
            case .null: status = sqlite3_bind_null(handle, index)
            }
            guard status == SQLITE_OK else { throw database.error(status) }
        }
        return self
    }

    /// Advances; true while a row is available.
    public func step() throws(StoreError) -> Bool {
        let status = sqlite3_step(handle)
        if status == SQLITE_ROW { return true }
        if status == SQLITE_DONE { return false }
        throw database.error(status)
    }

    /// Runs a statement that returns no rows.
    public func run(_ values: [Value] = []) throws(StoreError) {
        try bind(values)
        while try step() {}
    }

    public func int(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
    public func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }
    public func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }
    public func text(_ column: Int32) -> String {
        guard let raw = sqlite3_column_text(handle, column) else { return "" }
        return String(cString: raw)
    }
}
