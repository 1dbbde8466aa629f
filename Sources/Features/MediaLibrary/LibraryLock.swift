import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An advisory lock on the library folder's `.lock` file, across threads and processes:
/// imports hold it shared, `check` exclusive, so a check never takes a live import's stored
/// copy (or its unfinished one in `.incoming`) for something a crash left. The kernel drops it
/// when the holder closes it or dies, so a crash never leaves the library locked.
final class LibraryLock {
    /// The lock file's name in the library folder.
    static let name = ".lock"

    private let descriptor: Int32

    /// Waits for the lock; nil when the lock file cannot be opened (a read-only library, where
    /// nothing can be imported or removed anyway).
    init?(folder: URL, exclusive: Bool) {
        let fd = open(folder.appendingPathComponent(Self.name).path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard fd >= 0 else { return nil }
        while flock(fd, exclusive ? LOCK_EX : LOCK_SH) != 0 {
            if errno != EINTR {
                close(fd)
                return nil
            }
        }
        descriptor = fd
    }

    deinit {
        close(descriptor)
    }
}
