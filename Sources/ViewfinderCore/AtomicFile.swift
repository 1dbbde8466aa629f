import Foundation

/// Writes files so that a reader never sees half of one: the bytes go to a hidden file beside
/// the target, which is renamed over the target only when complete.
public enum AtomicFile {
    /// Why a file could not be written.
    public struct WriteError: Error, Sendable, Equatable, CustomStringConvertible {
        public let path: String
        public let reason: String
        public var description: String { "cannot write \(path): \(reason)" }
    }

    /// Writes `data` to `url` atomically.
    public static func write(_ data: Data, to url: URL) throws(WriteError) {
        let temporary = temporaryURL(beside: url)
        do {
            try data.write(to: temporary, options: [.withoutOverwriting])
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw WriteError(path: url.path, reason: reason(for: error, directory: url.deletingLastPathComponent()))
        }
        try commit(temporary, to: url)
    }

    /// A hidden name in the target's folder for the bytes in progress.
    public static func temporaryURL(beside url: URL) -> URL {
        let name = ".\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0...UInt32.max)).partial"
        return url.deletingLastPathComponent().appendingPathComponent(name)
    }

    /// Renames a finished temporary file over the target, removing it on failure.
    public static func commit(_ temporary: URL, to url: URL) throws(WriteError) {
        if rename(temporary.path, url.path) != 0 {
            let message = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporary)
            throw WriteError(path: url.path, reason: message)
        }
    }

    private static func reason(for error: Error, directory: URL) -> String {
        var isDirectory: ObjCBool = false
        if !FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory) || !isDirectory.boolValue {
            return "the folder \(directory.path) does not exist"
        }
        if !FileManager.default.isWritableFile(atPath: directory.path) {
            return "permission denied"
        }
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError,
           underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return nsError.localizedDescription
    }
}
