import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Waits for a file another process writes, told by the kernel (inotify on its folder: a file
/// made, written and closed, or renamed into it) rather than looking again and again: unlike
/// most of what another process does, a file is an event this process can wait for (`Poll`
/// is for the rest).
public enum FileAppears {
    /// Waits until a file is at `url` and `holds` is true of it (by default, that it is there);
    /// false when it is not so at `deadline`. The folder must exist.
    public static func wait(for url: URL, before deadline: Date, until holds: (URL) -> Bool = { _ in true }) throws -> Bool {
        let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { throw SubprocessError.failed("inotify_init1", String(cString: strerror(errno))) }
        defer { close(descriptor) }
        let folder = url.deletingLastPathComponent().path
        // Watched before the first look, so nothing written between the two is missed.
        guard inotify_add_watch(descriptor, folder, UInt32(IN_CREATE | IN_CLOSE_WRITE | IN_MOVED_TO)) >= 0 else {
            throw SubprocessError.failed("inotify_add_watch \(folder)", String(cString: strerror(errno)))
        }
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            if FileManager.default.fileExists(atPath: url.path), holds(url) { return true }
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return false }
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&entry, 1, Int32(min((left * 1000).rounded(.up), Double(Int32.max))))
            // What changed does not matter: the next look decides.
            while buffer.withUnsafeMutableBytes({ read(descriptor, $0.baseAddress, $0.count) }) > 0 {}
        }
    }
}
