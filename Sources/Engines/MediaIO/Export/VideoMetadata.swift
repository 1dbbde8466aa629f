internal import CFFmpeg
import Foundation
import ViewfinderCore

/// Removing a video's location, the counterpart of `PhotoMetadata.removeLocation(from:)`.
public enum VideoMetadata {
    /// Whether a metadata key (as FFmpeg names it, or as a QuickTime `mdta` key) holds a place:
    /// Apple's `com.apple.quicktime.location.*` keys (ISO 6709 position, name, body, note,
    /// role, date…) and MP4's `location` (the `©xyz` string, also as `location-eng` and
    /// other language forms).
    public static func isLocationKey(_ key: String) -> Bool {
        let key = key.lowercased()
        return key.hasPrefix("com.apple.quicktime.location.") || key == "location" || key.hasPrefix("location-")
    }

    /// Removes the location from the MP4 or QuickTime file at `url`, in place: the location
    /// atoms inside its movie box become free space of the same size, so every sample (and
    /// every other box) stays the same bytes at the same place. Then FFmpeg reads the file
    /// back: a location key still there, or any other tag changed, is an error. For a file the
    /// caller owns (a copy being written), never an original.
    public static func removeLocation(from url: URL) throws(MediaIOError) {
        let before = try tags(of: url)
        let handle: FileHandle
        do { handle = try FileHandle(forUpdating: url) } catch {
            throw .writeFailed(path: url.path, reason: tr("cannot open it to edit"))
        }
        defer { try? handle.close() }
        try blankTopLevelXMP(in: handle, path: url.path)
        if let (offset, movie) = try movieBox(in: handle, path: url.path) {
            var editor = MovieLocationEditor(movie: movie, isLocationKey: isLocationKey)
            if editor.removeLocation() > 0 {
                guard editor.bytes.count == movie.count else {
                    throw .corrupt(path: url.path, detail: tr("its movie box would change size"))
                }
                do {
                    try handle.seek(toOffset: offset)
                    try handle.write(contentsOf: editor.bytes)
                    try handle.synchronize()
                } catch {
                    throw .writeFailed(path: url.path, reason: "\(error.localizedDescription)")
                }
            }
        }
        let after = try tags(of: url)
        if let kept = after.keys.sorted().first(where: { isLocationKey(String($0.split(separator: ":").last ?? "")) }) {
            throw .locationKept(path: url.path, tag: kept)
        }
        let expected = before.filter { !isLocationKey(String($0.key.split(separator: ":").last ?? "")) }
        if let changed = expected.keys.sorted().first(where: { after[$0] != expected[$0] }) ?? after.keys.sorted().first(where: { expected[$0] == nil }) {
            throw .corrupt(path: url.path, detail: tr("the tag {tag} changed while its location was removed", ["tag": changed]))
        }
    }

    /// Every tag FFmpeg reads from the file, keyed "format:KEY" and "stream N:KEY".
    static func tags(of url: URL) throws(MediaIOError) -> [String: String] {
        let container = try MediaContainer(url: url, analyze: false)
        var result: [String: String] = [:]
        func collect(_ dictionary: OpaquePointer?, _ scope: String) {
            var entry: UnsafeMutablePointer<AVDictionaryEntry>?
            while let next = av_dict_get(dictionary, "", entry, AV_DICT_IGNORE_SUFFIX) {
                entry = next
                guard let key = next.pointee.key else { continue }
                result["\(scope):\(String(cString: key))"] = next.pointee.value.map { String(cString: $0) } ?? ""
            }
        }
        collect(container.context.pointee.metadata, "format")
        for stream in container.streams { collect(stream.pointee.metadata, "stream \(stream.pointee.index)") }
        return result
    }

    /// The largest movie box this reads into memory (real ones are kilobytes to a few megabytes).
    static let maxMovieBox = 256 << 20

    /// Top-level XMP `uuid` boxes (beside the movie box) that hold a location become `free`
    /// boxes of the same size, in place.
    private static func blankTopLevelXMP(in handle: FileHandle, path: String) throws(MediaIOError) {
        do {
            try MP4TopLevelBox.walk(handle) { box in
                let h = box.headerLength
                if box.isType("uuid"), box.head.count >= h + 16, box.head[h ..< h + 16].elementsEqual(LocationScanner.xmpUUID),
                   box.size <= UInt64(maxMovieBox) {
                    try handle.seek(toOffset: box.offset)
                    let bytes = [UInt8](try handle.read(upToCount: Int(box.size)) ?? Data())
                    if LocationScanner.holdsLocation(bytes[...]) {
                        try handle.seek(toOffset: box.offset)
                        try handle.write(contentsOf: MP4Box.freeBox(size: Int(box.size)))
                    }
                }
                return false
            }
        } catch {
            throw .writeFailed(path: path, reason: error.localizedDescription)
        }
    }

    /// Where the top-level `moov` box starts and its bytes; nil for a file without one (not
    /// MP4 or QuickTime).
    private static func movieBox(in handle: FileHandle, path: String) throws(MediaIOError) -> (UInt64, [UInt8])? {
        var found: (UInt64, [UInt8])?
        var tooLarge: UInt64?
        do {
            try MP4TopLevelBox.walk(handle) { box in
                guard box.isType("moov") else { return false }
                guard box.size <= UInt64(maxMovieBox) else { tooLarge = box.size; return true }
                try handle.seek(toOffset: box.offset)
                let movie = [UInt8](try handle.read(upToCount: Int(box.size)) ?? Data())
                if movie.count == Int(box.size) { found = (box.offset, movie) }
                return true
            }
        } catch {
            throw .unreadable(path: path, reason: error.localizedDescription)
        }
        if let tooLarge {
            throw .corrupt(path: path, detail: tr("its movie box is {size} MB, more than this tool edits", ["size": tooLarge >> 20]))
        }
        return found
    }
}
