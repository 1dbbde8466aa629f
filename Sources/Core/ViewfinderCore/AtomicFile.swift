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

    /// Writes the target atomically from what `body` writes to the handle it is given: the
    /// bytes are synced before the rename, and a failure (a thrown error, a full disk) leaves
    /// nothing behind.
    public static func write(to url: URL, _ body: (FileHandle) throws -> Void) throws(WriteError) {
        let temporary = temporaryURL(beside: url)
        guard FileManager.default.createFile(atPath: temporary.path, contents: nil),
              let handle = FileHandle(forWritingAtPath: temporary.path) else {
            throw WriteError(path: url.path, reason: reason(for: CocoaError(.fileWriteUnknown), directory: url.deletingLastPathComponent()))
        }
        do {
            try body(handle)
            try handle.synchronize()
            try handle.close()
        } catch {
            try? handle.close()
            try? FileManager.default.removeItem(at: temporary)
            throw WriteError(path: url.path, reason: reason(for: error, directory: url.deletingLastPathComponent()))
        }
        try commit(temporary, to: url)
    }

    /// The longest file name (in UTF-8 bytes) the file systems we write to accept.
    static let nameLimit = 255

    /// A hidden name in the target's folder for the bytes in progress. The target's own name is
    /// shortened when needed so that the hidden name stays within the file system's name
    /// limit for any legal target name.
    public static func temporaryURL(beside url: URL) -> URL {
        let suffix = ".\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0...UInt32.max)).partial"
        var stem = url.lastPathComponent
        while 1 + stem.utf8.count + suffix.utf8.count > nameLimit { stem.removeLast() }
        return url.deletingLastPathComponent().appendingPathComponent(".\(stem)\(suffix)")
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
        if nsError.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(nsError.code))) }
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError,
           underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return nsError.localizedDescription
    }
}
