import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Counts the times a file is opened, by anything in this process or another, from the moment
/// it is watched: the kernel's inotify (`IN_OPEN`) as an oracle beside the code, so that "this
/// path opens its file once" needs no counter in the code under test. Watch a private copy: a
/// fixture other tests open at the same time would be counted too.
///
/// The kernel merges an event with the unread one before it when the two are the same, so two
/// opens in a row would count once: reads and closes are watched too, which come between the
/// opens of anything that reads what it opened.
public final class FileOpens {
    private let descriptor: Int32
    private var seen = 0

    /// Starts counting the opens of the file at `url`.
    public init(_ url: URL) throws {
        descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { throw SubprocessError.failed("inotify_init1", String(cString: strerror(errno))) }
        guard inotify_add_watch(descriptor, url.path, UInt32(IN_OPEN | IN_ACCESS | IN_CLOSE)) >= 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw SubprocessError.failed("inotify_add_watch \(url.path)", reason)
        }
    }

    deinit {
        close(descriptor)
    }

    /// The opens since the watch began (the kernel queues each as the open happens).
    public var count: Int {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let read = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            guard read > 0 else { break }
            // struct inotify_event: wd, mask, cookie, len (4 bytes each), then `len` bytes of name.
            var offset = 0
            while offset + 16 <= read {
                let mask = buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self) }
                let length = buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self) }
                if mask & UInt32(IN_OPEN) != 0 { seen += 1 }
                offset += 16 + Int(length)
            }
        }
        return seen
    }
}
