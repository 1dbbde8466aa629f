import Foundation
import ViewfinderCore

/// The sample descriptions one track of a written movie is to switch between: FFmpeg 5.1's
/// muxer writes one `stsd` entry per track, while a smart cut of HEVC wants one per family of
/// parameter sets (the source's, the re-encoder's), each sample pointing at its family's.
package struct SampleDescriptions: Equatable {
    /// The track's position among the movie's `trak` boxes (its stream index).
    let track: Int
    /// The sample entry type every entry gets (`hvc1`, `hev1`).
    let format: String
    /// Each entry's decoder configuration box, type and payload (`hvcC`); the first replaces
    /// the one the muxer wrote.
    let configurationType: String
    let configurations: [[UInt8]]
    /// The 1-based entry of each sample of the track, in decode order.
    let entryOfSample: [UInt32]
}

/// Rewrites the movie box of a finished MP4 so that a track holds several sample
/// descriptions: the `stsd` gets one entry per configuration (copies of the muxer's entry
/// with their own configuration box and type), chunks are split where the entry changes, and
/// `stsc` points each chunk at its entry — ISO/IEC 14496-12's way for a track whose decoder
/// configuration changes. With `fastStart` the movie box is moved before the media data (the
/// muxer's own `faststart` pass, which this replaces, would not know the new box).
enum SampleDescriptionEditor {
    /// Rewrites `url` in place (through a file beside it when the media data moves); errors
    /// name `path`. Without `descriptions` it only moves the movie box (for `fastStart`).
    static func rewrite(_ url: URL, _ descriptions: SampleDescriptions?, fastStart: Bool,
                        reportingAs path: String) throws(MediaIOError) {
        func broken(_ detail: String) -> MediaIOError { .writeFailed(path: path, reason: detail) }
        let handle: FileHandle
        do { handle = try FileHandle(forUpdating: url) } catch { throw .writeFailed(path: path, reason: error.localizedDescription) }
        defer { try? handle.close() }
        var boxes: [MP4TopLevelBox] = []
        do {
            try MP4TopLevelBox.walk(handle) { boxes.append($0); return false }
        } catch {
            throw .writeFailed(path: path, reason: error.localizedDescription)
        }
        guard let movieIndex = boxes.firstIndex(where: { $0.isType("moov") }),
              let firstData = boxes.firstIndex(where: { $0.isType("mdat") }),
              let lastData = boxes.lastIndex(where: { $0.isType("mdat") }) else {
            throw broken("the muxer wrote no movie box or no media data")
        }
        // FFmpeg's layouts: the movie box after all the media data, or before it all.
        guard movieIndex > lastData || movieIndex < firstData else { throw broken("the movie box lies between media data") }
        let movieBox = boxes[movieIndex]
        guard movieBox.size <= UInt64(VideoMetadata.maxMovieBox) else { throw broken("the movie box is too large to edit") }
        let movie: [UInt8]
        do {
            try handle.seek(toOffset: movieBox.offset)
            movie = [UInt8](try handle.read(upToCount: Int(movieBox.size)) ?? Data())
        } catch {
            throw .writeFailed(path: path, reason: error.localizedDescription)
        }
        guard movie.count == Int(movieBox.size) else { throw broken("the movie box is cut short") }

        // With the movie box before the media data (moved there for fastStart, or there
        // already) the media data moves by what the box grows; a box that grows past 4 GiB
        // offsets (co64) grows again, so the shift is settled in passes.
        let before = movieIndex < firstData || fastStart
        if descriptions == nil && !before { return }
        let removed: Int64 = movieIndex < firstData ? Int64(movie.count) : 0
        var shift: Int64 = 0
        var edited = try edit(movie, descriptions, shift: 0, path: path)
        if before {
            for _ in 0..<3 where Int64(edited.count) - removed != shift {
                shift = Int64(edited.count) - removed
                edited = try edit(movie, descriptions, shift: shift, path: path)
            }
            guard Int64(edited.count) - removed == shift else { throw broken("the movie box's size did not settle") }
        }

        do {
            if !before {
                // The movie box stays last: rewritten where it was.
                try handle.truncate(atOffset: movieBox.offset)
                try handle.seek(toOffset: movieBox.offset)
                try handle.write(contentsOf: edited)
                return
            }
            // The movie box goes before the media data: the file is written again beside itself.
            let temporary = AtomicFile.temporaryURL(beside: url)
            guard FileManager.default.createFile(atPath: temporary.path, contents: nil),
                  let out = try? FileHandle(forWritingTo: temporary) else {
                throw broken("cannot create a file beside it")
            }
            var committed = false
            defer {
                try? out.close()
                if !committed { try? FileManager.default.removeItem(at: temporary) }
            }
            for (i, box) in boxes.enumerated() where i != movieIndex {
                if i == firstData { try out.write(contentsOf: edited) }
                try handle.seek(toOffset: box.offset)
                var left = box.size
                while left > 0 {
                    let chunk = try handle.read(upToCount: Int(min(left, 4 << 20))) ?? Data()
                    guard !chunk.isEmpty else { throw broken("the file ended early") }
                    try out.write(contentsOf: chunk)
                    left -= UInt64(chunk.count)
                }
            }
            try out.close()
            try AtomicFile.commit(temporary, to: url)
            committed = true
        } catch let error as MediaIOError {
            throw error
        } catch {
            throw .writeFailed(path: path, reason: error.localizedDescription)
        }
    }

    // MARK: - The movie box

    /// The movie box with `descriptions` applied and every chunk offset moved by `shift`.
    static func edit(_ movie: [UInt8], _ descriptions: SampleDescriptions?, shift: Int64, path: String) throws(MediaIOError) -> [UInt8] {
        guard let root = MP4Box.box(in: movie, at: 0, end: movie.count), root.type == "moov" else {
            throw .writeFailed(path: path, reason: "no movie box")
        }
        var trackNumber = 0
        var payload: [UInt8] = []
        for child in MP4Box.children(of: movie, in: root.payload) {
            guard child.type == "trak" else {
                payload += movie[child.start ..< child.end]
                continue
            }
            let target = trackNumber == descriptions?.track
            trackNumber += 1
            payload += try rebuild(movie, child, path: ["mdia", "minf", "stbl"][...]) { stbl throws(MediaIOError) in
                try sampleTable(movie, stbl, descriptions: target ? descriptions : nil, shift: shift, path: path)
            }
        }
        if let descriptions, trackNumber <= descriptions.track {
            throw .writeFailed(path: path, reason: "the movie has no track \(descriptions.track)")
        }
        return MP4Box.make("moov", payload)
    }

    /// `box` with the box at `path` below it rebuilt by `body` (given that box, returning its
    /// new payload); the boxes around it copied.
    private static func rebuild(_ bytes: [UInt8], _ box: MP4Box, path: ArraySlice<String>,
                                _ body: (MP4Box) throws(MediaIOError) -> [UInt8]) throws(MediaIOError) -> [UInt8] {
        guard let next = path.first else { return MP4Box.make(box.type, try body(box)) }
        var payload: [UInt8] = []
        for child in MP4Box.children(of: bytes, in: box.payload) {
            payload += child.type == next
                ? try rebuild(bytes, child, path: path.dropFirst(), body)
                : Array(bytes[child.start ..< child.end])
        }
        return MP4Box.make(box.type, payload)
    }

    /// A sample table's payload: its chunk offsets moved by `shift`, and with `descriptions`
    /// its sample descriptions multiplied and its chunks split and pointed at them.
    private static func sampleTable(_ bytes: [UInt8], _ stbl: MP4Box, descriptions: SampleDescriptions?, shift: Int64,
                                    path: String) throws(MediaIOError) -> [UInt8] {
        func broken(_ detail: String) -> MediaIOError { .writeFailed(path: path, reason: "sample table: " + detail) }
        let children = MP4Box.children(of: bytes, in: stbl.payload)
        func child(_ type: String) -> MP4Box? { children.first { $0.type == type } }
        guard let offsetsBox = child("stco") ?? child("co64") else { throw broken("no chunk offsets") }
        var offsets = try chunkOffsets(bytes, offsetsBox, path: path)
        var chunking: [(first: UInt32, samples: UInt32, entry: UInt32)]?
        var entries: [UInt8]?
        if let descriptions {
            guard let sizes = child("stsz"), let stsc = child("stsc"), let stsd = child("stsd") else {
                throw broken("no sample sizes, chunks or descriptions")
            }
            let split = try splitChunks(sizes: try sampleSizes(bytes, sizes, path: path),
                                        perChunk: try samplesPerChunk(bytes, stsc, chunks: offsets.count, path: path),
                                        offsets: offsets, entries: descriptions.entryOfSample, path: path)
            offsets = split.offsets
            chunking = split.table
            entries = try sampleEntries(bytes, stsd, descriptions, path: path)
        }
        let moved = try offsets.map { offset throws(MediaIOError) -> UInt64 in
            let value = Int64(bitPattern: offset) + shift
            guard value >= 0 else { throw broken("a chunk offset falls before the file") }
            return UInt64(value)
        }
        let wide = offsetsBox.type == "co64" || moved.contains { $0 > UInt64(UInt32.max) }
        var payload: [UInt8] = []
        for box in children {
            switch box.type {
            case "stco", "co64":
                var table = [0, 0, 0, 0] + MP4Box.bigEndian(moved.count)
                for offset in moved { table += wide ? MP4Box.bigEndian64(offset) : MP4Box.bigEndian(Int(offset)) }
                payload += MP4Box.make(wide ? "co64" : "stco", table)
            case "stsc" where chunking != nil:
                var table = [0, 0, 0, 0] + MP4Box.bigEndian(chunking?.count ?? 0)
                for run in chunking ?? [] {
                    table += MP4Box.bigEndian(Int(run.first)) + MP4Box.bigEndian(Int(run.samples)) + MP4Box.bigEndian(Int(run.entry))
                }
                payload += MP4Box.make("stsc", table)
            case "stsd" where entries != nil:
                payload += MP4Box.make("stsd", entries ?? [])
            default:
                payload += bytes[box.start ..< box.end]
            }
        }
        return payload
    }

    /// The `stsd` payload with one entry per configuration: copies of the first entry (its
    /// sample entry fields and other boxes kept) of type `format`, each with its own
    /// configuration box.
    private static func sampleEntries(_ bytes: [UInt8], _ stsd: MP4Box, _ d: SampleDescriptions,
                                      path: String) throws(MediaIOError) -> [UInt8] {
        // A visual sample entry's fields before its boxes: 8 of SampleEntry, 70 of its own.
        let fields = 78
        guard stsd.payload.count >= 8, let first = MP4Box.box(in: bytes, at: stsd.payload.lowerBound + 8, end: stsd.end),
              first.payload.count >= fields else {
            throw .writeFailed(path: path, reason: "sample table: no visual sample entry to copy")
        }
        let inner = MP4Box.children(of: bytes, in: (first.payload.lowerBound + fields) ..< first.end)
        guard inner.contains(where: { $0.type == d.configurationType }) else {
            throw .writeFailed(path: path, reason: "sample table: the entry has no \(d.configurationType) box")
        }
        var payload = Array(bytes[stsd.payload.lowerBound ..< stsd.payload.lowerBound + 4]) + MP4Box.bigEndian(d.configurations.count)
        for configuration in d.configurations {
            var entry = Array(bytes[first.payload.lowerBound ..< first.payload.lowerBound + fields])
            for box in inner {
                entry += box.type == d.configurationType ? MP4Box.make(box.type, configuration) : Array(bytes[box.start ..< box.end])
            }
            payload += MP4Box.make(d.format, entry)
        }
        return payload
    }

    // MARK: - Tables

    /// Every chunk's offset (`stco` or `co64`).
    private static func chunkOffsets(_ bytes: [UInt8], _ box: MP4Box, path: String) throws(MediaIOError) -> [UInt64] {
        let width = box.type == "co64" ? 8 : 4
        let p = box.payload
        guard p.count >= 8 else { throw .writeFailed(path: path, reason: "sample table: chunk offsets cut short") }
        let count = Int(MP4Box.uint32(bytes, p.lowerBound + 4))
        guard count <= (p.count - 8) / width else { throw .writeFailed(path: path, reason: "sample table: chunk offsets cut short") }
        return (0..<count).map { i in
            let at = p.lowerBound + 8 + i * width
            return width == 8 ? MP4Box.uint64(bytes, at) : UInt64(MP4Box.uint32(bytes, at))
        }
    }

    /// Every sample's size (`stsz`).
    private static func sampleSizes(_ bytes: [UInt8], _ box: MP4Box, path: String) throws(MediaIOError) -> [UInt64] {
        let p = box.payload
        guard p.count >= 12 else { throw .writeFailed(path: path, reason: "sample table: sample sizes cut short") }
        let fixed = MP4Box.uint32(bytes, p.lowerBound + 4)
        let count = Int(MP4Box.uint32(bytes, p.lowerBound + 8))
        if fixed != 0 { return Array(repeating: UInt64(fixed), count: count) }
        guard count <= (p.count - 12) / 4 else { throw .writeFailed(path: path, reason: "sample table: sample sizes cut short") }
        return (0..<count).map { UInt64(MP4Box.uint32(bytes, p.lowerBound + 12 + $0 * 4)) }
    }

    /// How many samples each of `chunks` chunks holds (`stsc`).
    private static func samplesPerChunk(_ bytes: [UInt8], _ box: MP4Box, chunks: Int, path: String) throws(MediaIOError) -> [Int] {
        let p = box.payload
        guard p.count >= 8 else { throw .writeFailed(path: path, reason: "sample table: chunk table cut short") }
        let count = Int(MP4Box.uint32(bytes, p.lowerBound + 4))
        guard count <= (p.count - 8) / 12 else { throw .writeFailed(path: path, reason: "sample table: chunk table cut short") }
        var perChunk = [Int](repeating: 0, count: chunks)
        for i in 0..<count {
            let at = p.lowerBound + 8 + i * 12
            let first = Int(MP4Box.uint32(bytes, at))
            let next = i + 1 < count ? Int(MP4Box.uint32(bytes, at + 12)) : chunks + 1
            guard first >= 1, next > first || i + 1 == count else {
                throw .writeFailed(path: path, reason: "sample table: chunk runs out of order")
            }
            for chunk in first ..< max(first, min(next, chunks + 1)) { perChunk[chunk - 1] = Int(MP4Box.uint32(bytes, at + 4)) }
        }
        return perChunk
    }

    /// The chunks split wherever the sample entry changes inside one, and the `stsc` runs
    /// (first chunk, samples per chunk, entry) that describe them.
    static func splitChunks(sizes: [UInt64], perChunk: [Int], offsets: [UInt64], entries: [UInt32],
                            path: String) throws(MediaIOError) -> (offsets: [UInt64], table: [(first: UInt32, samples: UInt32, entry: UInt32)]) {
        guard entries.count == sizes.count, perChunk.reduce(0, +) == sizes.count, perChunk.count == offsets.count else {
            throw .writeFailed(path: path, reason: "sample table: \(sizes.count) samples in \(perChunk.reduce(0, +)) chunk places, \(entries.count) entries given")
        }
        var newOffsets: [UInt64] = []
        var shape: [(samples: UInt32, entry: UInt32)] = []
        var sample = 0
        for (chunk, count) in perChunk.enumerated() {
            var offset = offsets[chunk]
            var run = 0
            for k in sample ..< sample + count {
                if run > 0, entries[k] != entries[k - 1] {
                    shape.append((UInt32(run), entries[k - 1]))
                    run = 0
                }
                if run == 0 { newOffsets.append(offset) }
                run += 1
                offset += sizes[k]
            }
            if run > 0 { shape.append((UInt32(run), entries[sample + count - 1])) }
            sample += count
        }
        var table: [(first: UInt32, samples: UInt32, entry: UInt32)] = []
        for (i, chunk) in shape.enumerated() where table.last.map({ $0.samples != chunk.samples || $0.entry != chunk.entry }) ?? true {
            table.append((UInt32(i + 1), chunk.samples, chunk.entry))
        }
        return (newOffsets, table)
    }
}
