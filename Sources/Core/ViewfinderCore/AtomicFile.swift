import Foundation

/// Writes files so that a reader never sees half of one: the bytes go to a hidden file beside
/// the target, which is renamed over the target only when complete.
public enum AtomicFile {
    /// Why a file could not be written.
    public struct WriteError: Error, Sendable, Equatable, CustomStringConvertible {
        public let path: String
        public let reason: String
        public var description: String { tr("cannot write {path}: {reason}", ["path": path, "reason": reason]) }
    }

    /// Writes `data` into `url` when it is an empty regular file that another program made to
    /// receive it (a thumbnailing service creates its output and reads it back through the
    /// descriptor it holds, so a file renamed over it would never be seen). The file keeps its
    /// inode; if writing fails it is cut back to empty, so no half of the data stays. Returns
    /// false, writing nothing, when `url` is not such a placeholder.
    public static func fillPlaceholder(_ data: Data, at url: URL) throws(WriteError) -> Bool {
        // Non-blocking: a named pipe with no reader fails at once instead of blocking here.
        let descriptor = open(url.path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size == 0 else { return false }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: false)
        do {
            try handle.write(contentsOf: data)
            try handle.synchronize()
        } catch {
            _ = ftruncate(descriptor, 0)
            throw WriteError(path: url.path, reason: reason(for: error, directory: url.deletingLastPathComponent()))
        }
        return true
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
        sweepStalePartials(in: url.deletingLastPathComponent())
        let suffix = ".\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0...UInt32.max)).partial"
        var stem = url.lastPathComponent
        while 1 + stem.utf8.count + suffix.utf8.count > nameLimit { stem.removeLast() }
        return url.deletingLastPathComponent().appendingPathComponent(".\(stem)\(suffix)")
    }

    /// Renames a finished temporary file over the target, removing it on failure. A target
    /// that exists and is not a regular file (a folder, a named pipe, a device, a socket) is
    /// never replaced.
    public static func commit(_ temporary: URL, to url: URL) throws(WriteError) {
        if let problem = nonRegularTarget(url) {
            try? FileManager.default.removeItem(at: temporary)
            throw WriteError(path: url.path, reason: problem)
        }
        if rename(temporary.path, url.path) != 0 {
            let message = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporary)
            throw WriteError(path: url.path, reason: message)
        }
    }

    /// Why `url` cannot be written over: nil when nothing is there, or a regular file (or a
    /// symbolic link, which the rename replaces, never what it points to).
    public static func nonRegularTarget(_ url: URL) -> String? {
        guard let type = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.type] as? FileAttributeType else {
            return nil
        }
        switch type {
        case .typeRegular, .typeSymbolicLink: return nil
        case .typeDirectory: return tr("it is a folder; give a file name")
        case .typeCharacterSpecial, .typeBlockSpecial: return tr("it is a device, not a regular file; give a file name")
        case .typeSocket: return tr("it is a socket, not a regular file; give a file name")
        default: return tr("it is a named pipe or another special file, not a regular file; give a file name")
        }
    }

    /// Folders already swept by this process.
    private static let swept = Locked<Set<String>>([])

    /// Removes the unfinished files (`.NAME.PID-N.partial`) that processes which no longer run
    /// left in `folder` (killed before they could clean up); once per folder and process. A
    /// file whose process still runs is left alone.
    static func sweepStalePartials(in folder: URL) {
        guard swept.withLock({ $0.insert(folder.standardizedFileURL.path).inserted }),
              let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        for name in names where name.hasPrefix(".") && name.hasSuffix(".partial") {
            guard let pid = partialOwner(name), pid != ProcessInfo.processInfo.processIdentifier,
                  kill(pid, 0) != 0, errno == ESRCH else { continue }
            let url = folder.appendingPathComponent(name)
            // Only regular files of ours: a folder or a link of that name is someone else's.
            guard (try? FileManager.default.attributesOfItem(atPath: url.path))?[.type] as? FileAttributeType == .typeRegular
            else { continue }
            try? FileManager.default.removeItem(at: url)
        }
    }

    /// The process id in a name made by `temporaryURL`, nil for other names.
    static func partialOwner(_ name: String) -> Int32? {
        let stem = name.dropLast(".partial".count)
        guard let dot = stem.lastIndex(of: ".") else { return nil }
        let parts = stem[stem.index(after: dot)...].split(separator: "-")
        guard parts.count == 2, let pid = Int32(parts[0]), pid > 0, UInt32(parts[1]) != nil else { return nil }
        return pid
    }

    private static func reason(for error: Error, directory: URL) -> String {
        var isDirectory: ObjCBool = false
        if !FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory) || !isDirectory.boolValue {
            return tr("the folder {folder} does not exist", ["folder": directory.path])
        }
        if !FileManager.default.isWritableFile(atPath: directory.path) {
            return tr("permission denied")
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

extension AtomicFile.WriteError: ReadableError {}
