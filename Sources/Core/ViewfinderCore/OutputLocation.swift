import Foundation

/// Where a command may write what a user asked for: the one rule every front end applies to an
/// output path before any work — not over the input, in a folder that exists, not over a
/// folder or a device, and never inside a photo library (its files are its own).
public enum OutputLocation {
    /// Why an output path was refused, said as a person reads it.
    public struct Refusal: Error, Sendable, Equatable, ReadableError {
        public let description: String
    }

    /// `$VIEWFINDER_LIBRARY`, else `$XDG_DATA_HOME/viewfinder/Library`, else
    /// `~/.local/share/viewfinder/Library`: the photo library a user has unless they name another.
    public static func defaultLibraryFolder(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let explicit = environment["VIEWFINDER_LIBRARY"], !explicit.isEmpty {
            return URL(fileURLWithPath: explicit)
        }
        let data = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share")
        return data.appendingPathComponent("viewfinder/Library")
    }

    /// True when `url` (resolving every link, and its folder's when it does not exist yet) lies in
    /// `folder`, or is that folder.
    public static func isInside(_ url: URL, folder: URL) -> Bool {
        guard let root = resolved(folder) else { return false }
        let target = resolved(url) ?? resolved(url.deletingLastPathComponent()).map { $0 + "/" + url.lastPathComponent }
        guard let target else { return false }
        return target == root || target.hasPrefix(root.hasSuffix("/") ? root : root + "/")
    }

    /// Checks that `output` is not `input`, lies in an existing folder, is not a folder (or a
    /// pipe, a device, a socket), and lies outside every folder of `libraries` and the default
    /// library's.
    public static func check(_ output: URL, input: URL? = nil, libraries: [URL] = [],
                             environment: [String: String] = ProcessInfo.processInfo.environment) throws(Refusal) {
        for library in libraries + [defaultLibraryFolder(environment: environment)] where isInside(output, folder: library) {
            throw Refusal(description: tr("cannot write {file}: it is inside the photo library at {library}; choose a place outside it",
                                          ["file": output.path, "library": library.path]))
        }
        if let input, output.standardizedFileURL.resolvingSymlinksInPath() == input.standardizedFileURL.resolvingSymlinksInPath() {
            throw Refusal(description: tr("the output {file} is the input; choose another name", ["file": output.path]))
        }
        var isDirectory: ObjCBool = false
        let folder = output.deletingLastPathComponent()
        if !FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory) || !isDirectory.boolValue {
            throw Refusal(description: tr("cannot write {file}: the folder {folder} does not exist", ["file": output.path, "folder": folder.path]))
        }
        if let problem = AtomicFile.nonRegularTarget(output) {
            throw Refusal(description: tr("cannot write {file}: {reason}", ["file": output.path, "reason": problem]))
        }
    }

    /// The real path of an existing file or folder, every link resolved.
    private static func resolved(_ url: URL) -> String? {
        guard let raw = realpath(url.path, nil) else { return nil }
        defer { free(raw) }
        return String(cString: raw)
    }
}
