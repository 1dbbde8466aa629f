import Foundation
import ViewfinderCore
#if canImport(Glibc)
import Glibc
#endif

/// The library folder reached through file descriptors.
///
/// Every file the library touches is named by a path it derives itself (from a content hash or an
/// asset id), and is reached from the root one component at a time with `openat` and
/// `O_NOFOLLOW`: no catalogue row, planted symbolic link or `..` can lead outside the folder, and
/// removing an entry never follows a link to what it points at.
struct LibraryFolder {
    /// The library's root folder (the user's choice, so it may itself be reached through links).
    let root: URL

    // MARK: - Names the library derives

    /// The folder of originals, the folder of imports in progress and the thumbnail cache.
    static let originals = "originals"
    static let incoming = ".incoming"
    static let thumbnails = "thumbnails"

    /// Where the original with this content hash and extension is stored, relative to the root.
    static func storedPath(hash: String, extension ext: String) -> String {
        "\(originals)/\(hash.prefix(2))/\(hash)\(ext.isEmpty ? "" : "." + ext)"
    }

    /// True for a SHA-256 written as 64 lower-case hexadecimal digits.
    static func isContentHash(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// Why a catalogue row's stored path is not one the library would have made for its hash,
    /// or nil when it is (the only paths the library ever reads, writes or deletes).
    static func damage(storedPath path: String, hash: String) -> String? {
        guard isContentHash(hash) else { return tr("its content hash is not a SHA-256") }
        let prefix = "\(originals)/\(hash.prefix(2))/\(hash)"
        guard path.hasPrefix(prefix) else { return tr("its stored path '{path}' is not the one made from its content", ["path": path]) }
        let rest = path.dropFirst(prefix.count)
        if rest.isEmpty { return nil }
        guard rest.first == ".", MediaLibrary.safeExtension(String(rest.dropFirst())) == rest.dropFirst(), rest.count > 1 else {
            return tr("its stored path '{path}' is not the one made from its content", ["path": path])
        }
        return nil
    }

    // MARK: - Descriptors

    /// An open file descriptor with one owner, closed when it goes.
    final class Descriptor {
        let fd: Int32
        init(_ fd: Int32) { self.fd = fd }
        deinit { close(fd) }
    }

    /// What an entry is, seen without following links.
    enum EntryKind: Equatable {
        case missing, file, folder, link, other
    }

    /// Why a file operation failed: the errno and the path relative to the root.
    struct Failure: Error, CustomStringConvertible {
        let path: String
        let code: Int32
        var reason: String { String(cString: strerror(code)) }
        var description: String { tr("{path}: {reason}", ["path": path, "reason": reason]) }
    }

    /// Splits a relative path the library made; refuses anything else.
    private static func components(_ relative: String) throws(Failure) -> [String] {
        let parts = relative.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard !relative.hasPrefix("/"), !parts.isEmpty,
              parts.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." }) else {
            throw Failure(path: relative, code: EINVAL)
        }
        return parts
    }

    /// The root, opened as a folder.
    func openRoot() throws(Failure) -> Descriptor {
        let fd = open(root.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw Failure(path: root.path, code: errno) }
        return Descriptor(fd)
    }

    /// A folder below the root, each component opened without following links; with `create`,
    /// missing folders are made.
    func openFolder(_ relative: String, create: Bool = false) throws(Failure) -> Descriptor {
        var current = try openRoot()
        for name in try Self.components(relative) {
            var fd = openat(current.fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            if fd < 0, errno == ENOENT, create {
                if mkdirat(current.fd, name, 0o755) != 0, errno != EEXIST { throw Failure(path: relative, code: errno) }
                fd = openat(current.fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            }
            // A link where a folder should be reads as ENOTDIR or ELOOP: never followed.
            guard fd >= 0 else { throw Failure(path: relative, code: errno) }
            current = Descriptor(fd)
        }
        return current
    }

    /// The folder holding `relative` and the entry's own name.
    func parent(of relative: String, create: Bool = false) throws(Failure) -> (Descriptor, String) {
        let parts = try Self.components(relative)
        let folder = parts.count == 1 ? try openRoot() : try openFolder(parts.dropLast().joined(separator: "/"), create: create)
        return (folder, parts[parts.count - 1])
    }

    /// A stored regular file, opened for reading without following any link on the way.
    func openFile(_ relative: String) throws(Failure) -> Descriptor {
        let (folder, name) = try parent(of: relative)
        let fd = openat(folder.fd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw Failure(path: relative, code: errno) }
        let file = Descriptor(fd)
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw Failure(path: relative, code: errno) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw Failure(path: relative, code: EINVAL) }
        // Non-blocking only for the open (a FIFO planted here must not hang it); reads block.
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return file
    }

    /// An asset's stored original (`relative` as its row gives it, nil for a damaged row),
    /// opened for reading without following any link; errors say what is wrong in the
    /// library's words.
    func openOriginal(_ relative: String?, id: Int64) throws(LibraryError) -> Descriptor {
        guard let relative else {
            throw .damaged(id: id, reason: tr("its catalogue row names a stored file the library did not make"))
        }
        do {
            return try openFile(relative)
        } catch {
            switch error.code {
            case ENOENT: throw .io(path: root.appendingPathComponent(relative).path, reason: tr("the stored original is missing"))
            case ELOOP, ENOTDIR, EINVAL: throw .damaged(id: id, reason: tr("its stored file is a symbolic link or not a regular file"))
            default: throw .io(path: root.appendingPathComponent(relative).path, reason: error.reason)
            }
        }
    }

    /// What `name` in `folder` is, not following a link.
    static func kind(of name: String, in folder: Descriptor) -> EntryKind {
        var info = stat()
        guard fstatat(folder.fd, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return .missing }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .file
        case S_IFDIR: return .folder
        case S_IFLNK: return .link
        default: return .other
        }
    }

    /// The entry at `relative`, not following a link.
    func kind(of relative: String) -> EntryKind {
        guard let (folder, name) = try? parent(of: relative) else { return .missing }
        return Self.kind(of: name, in: folder)
    }

    /// The device and inode of a stored file, for telling whether an outside path is the same file.
    func identity(of relative: String) -> FileIdentity? {
        guard let file = try? openFile(relative) else { return nil }
        return FileIdentity(fd: file.fd)
    }

    /// Removes an entry that is not a folder; a link is removed itself, never what it points at.
    @discardableResult
    func remove(_ relative: String) -> Bool {
        guard let (folder, name) = try? parent(of: relative) else { return false }
        return Self.remove(name, in: folder)
    }

    /// Removes `name` from `folder` (a file, a link or a special file; never a folder).
    @discardableResult
    static func remove(_ name: String, in folder: Descriptor) -> Bool {
        unlinkat(folder.fd, name, 0) == 0
    }

    /// The entries of a folder (without "." and ".."), in no particular order.
    static func entries(of folder: Descriptor) -> [String] {
        let copy = dup(folder.fd)
        guard copy >= 0, let stream = fdopendir(copy) else {
            if copy >= 0 { close(copy) }
            return []
        }
        defer { closedir(stream) }
        rewinddir(stream)
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Moves an entry between two folders of the library (no link followed: both are descriptors).
    static func rename(_ name: String, in source: Descriptor, to target: String, in destination: Descriptor) throws(Failure) {
        guard renameat(source.fd, name, destination.fd, target) == 0 else { throw Failure(path: target, code: errno) }
    }

    /// Puts the file `name` of `source` (the incoming folder) in place as `target` in
    /// `destination`, replacing an entry of that name at once, and leaves `name` where it was:
    /// the import's journal, removed by the importer once the file's row is committed. An
    /// import killed before that leaves an original that shares its file with an incoming
    /// entry, which `check` takes for an unfinished import even when no row is there yet (a
    /// library's first import), not for originals whose catalogue was lost.
    static func place(_ name: String, in source: Descriptor, to target: String, in destination: Descriptor) throws(Failure) {
        let staged = ".\(UUID().uuidString).placing"
        guard linkat(source.fd, name, destination.fd, staged, 0) == 0 else { throw Failure(path: target, code: errno) }
        guard renameat(destination.fd, staged, destination.fd, target) == 0 else {
            let code = errno
            unlinkat(destination.fd, staged, 0)
            throw Failure(path: target, code: code)
        }
    }

    /// A file created inside the library under a fresh hidden name, for bytes in progress:
    /// created exclusively (an existing entry, a link among them, is never opened).
    func createTemporary(in relativeFolder: String) throws(Failure) -> (folder: Descriptor, name: String, file: Descriptor) {
        let folder = try openFolder(relativeFolder, create: true)
        let name = "\(UUID().uuidString).partial"
        let fd = openat(folder.fd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw Failure(path: "\(relativeFolder)/\(name)", code: errno) }
        return (folder, name, Descriptor(fd))
    }

    /// Writes all of `data` to `fd`, retrying short writes.
    static func writeAll(_ data: Data, to fd: Int32, path: String) throws(Failure) {
        var failure: Int32 = 0
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Glibc.write(fd, raw.baseAddress.map { $0 + offset }, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += written
            }
        }
        if failure != 0 { throw Failure(path: path, code: failure) }
    }

    /// Writes `data` to `relative` atomically (a hidden file in the same folder, renamed into
    /// place), creating its folder when missing; nothing on the way is a link that is followed.
    func write(_ data: Data, to relative: String) throws(Failure) {
        let parts = try Self.components(relative)
        let (folder, name, file) = try createTemporary(in: parts.dropLast().joined(separator: "/"))
        do throws(Failure) {
            try Self.writeAll(data, to: file.fd, path: relative)
            try Self.rename(name, in: folder, to: parts[parts.count - 1], in: folder)
        } catch {
            Self.remove(name, in: folder)
            throw error
        }
    }

    // MARK: - Inside or outside

    /// True when `url` (resolving every link) lies in the library folder at `library`, or is
    /// that folder: the rule of `OutputLocation`, which every front end checks outputs by.
    static func contains(_ url: URL, library: URL) -> Bool {
        OutputLocation.isInside(url, folder: library)
    }
}

/// A file's device and inode: two paths with the same identity are one file.
struct FileIdentity: Equatable {
    let device: UInt64
    let inode: UInt64

    init?(fd: Int32) {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }
}
