internal import CSQLite
import Foundation
import ViewfinderCore

/// Why a database operation failed; cases can be caught one by one.
public enum StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file cannot be opened (missing folder, not a database, …).
    case cannotOpen(path: String, message: String)
    /// A write on a database opened read-only (or on a read-only file system).
    case readOnly(path: String)
    /// Another process held the lock for longer than the busy timeout.
    case busy(path: String)
    /// A UNIQUE or other constraint refused the change.
    case constraint(message: String)
    /// Any other SQLite error.
    case sqlite(code: Int32, message: String)

    public var description: String {
        switch self {
        case .cannotOpen(let path, let message): return "cannot open the catalogue \(path): \(message)"
        case .readOnly(let path): return "the catalogue \(path) is read-only"
        case .busy(let path): return "the catalogue \(path) stayed locked by another process; try again"
        case .constraint(let message): return "refused by the catalogue: \(message)"
        case .sqlite(let code, let message): return "catalogue error \(code): \(message)"
        }
    }
}

extension StoreError: ReadableError {}
