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
        case .cannotOpen(let path, let message): return tr("cannot open the catalogue {path}: {message}", ["path": path, "message": message])
        case .readOnly(let path): return tr("the catalogue {path} is read-only", ["path": path])
        case .busy(let path): return tr("the catalogue {path} stayed locked by another process; try again", ["path": path])
        case .constraint(let message): return tr("refused by the catalogue: {message}", ["message": message])
        case .sqlite(let code, let message): return tr("catalogue error {code}: {message}", ["code": code, "message": message])
        }
    }
}

extension StoreError: ReadableError {}
