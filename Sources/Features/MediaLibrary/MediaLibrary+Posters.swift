import CoverPicker
import Foundation
import MediaIO
import ViewfinderCore

extension MediaLibrary {
    /// Chooses a video's cover (its poster in the grid and its thumbnails): the exact frame at
    /// `time`; nil goes back to the cover embedded in the file, else the best suggested frame.
    /// On a live asset this chooses its key photo (see `setKeyPhoto`). The asset's thumbnails
    /// are made again. Returns the updated asset.
    @discardableResult
    public func setPoster(of asset: Asset, at time: MediaTime?) throws(LibraryError) -> Asset {
        try requireWritable()
        guard asset.kind != .photo else { throw .notAVideo(asset.id) }
        if let time, let duration = asset.duration, time < .zero || time > duration {
            throw .posterOutOfRange(id: asset.id, time: time, duration: duration)
        }
        try catalogue {
            try database.prepare("UPDATE assets SET poster_value = ?, poster_scale = ? WHERE id = ?")
                .run([time.map { .int($0.value) } ?? .null, time.map { .int($0.timescale) } ?? .null, .int(asset.id)])
        }
        removeThumbnails(of: asset.id)
        return try self.asset(id: asset.id)
    }

    /// Chooses a live asset's key photo: the exact frame of its motion at `time` becomes the
    /// still its grid cell, thumbnails and `export` show; nil restores the original still, which
    /// the library always keeps. Returns the updated asset.
    @discardableResult
    public func setKeyPhoto(of asset: Asset, at time: MediaTime?) throws(LibraryError) -> Asset {
        guard asset.kind == .live else { throw .notLive(asset.id) }
        return try setPoster(of: asset, at: time)
    }

    /// The stored video behind an asset: a video's original, a live asset's motion.
    public func movieURL(of asset: Asset) throws(LibraryError) -> URL {
        switch asset.kind {
        case .photo: throw .notAVideo(asset.id)
        case .video: return try originalURL(of: asset)
        case .live:
            guard let motion = asset.motion else { throw .notAVideo(asset.id) }
            _ = try storage.openOriginal(motion.relativePath, id: asset.id)
            return folder.appendingPathComponent(motion.relativePath ?? "")
        }
    }

    /// The chosen key photo of a live asset as pixels (the exact frame of its motion), nil when
    /// it shows its original still.
    func keyPhoto(of asset: Asset) throws(LibraryError) -> PixelBuffer? {
        guard asset.kind == .live, let time = asset.posterTime else { return nil }
        let url = try movieURL(of: asset)
        do {
            let reader = try FrameReader(url: url)
            return try reader.frame(at: .time(min(time, reader.duration)), mode: .exact, size: .original).image
        } catch {
            throw .thumbnailFailed(id: asset.id, reason: tr("its motion cannot be decoded ({reason})", ["reason": "\(error)"]))
        }
    }

    /// The time of the best suggested cover of a video, or key photo of a live asset
    /// (`CoverPicker.suggestions`).
    public func bestPosterTime(of asset: Asset) throws(LibraryError) -> MediaTime {
        let url = try movieURL(of: asset)
        do {
            return try CoverPicker.suggestions(from: FrameReader(url: url), count: 1).first?.time ?? .zero
        } catch {
            throw .thumbnailFailed(id: asset.id, reason: tr("its original cannot be decoded ({reason})", ["reason": "\(error)"]))
        }
    }

    /// The time of a position in an asset's video: a time as it is, frame N as the exact time
    /// that frame is shown (checked against the video: a frame it does not have is an error
    /// naming how many it has).
    public func posterTime(of asset: Asset, at position: TimePosition) throws(LibraryError) -> MediaTime {
        switch position {
        case .time(let t): return t
        case .frame:
            let url = try movieURL(of: asset)
            do {
                return try FrameReader(url: url).time(of: position)
            } catch {
                throw .io(path: tr("asset {id}", ["id": asset.id]), reason: error.description.replacingOccurrences(of: url.lastPathComponent, with: asset.originalFilename))
            }
        }
    }

    /// The picture a video shows in the library: the exact frame at the chosen poster time,
    /// else the cover embedded in the file, else the best suggested frame (never a black lead-in
    /// when the video has a picture).
    static func posterPicture(of asset: Asset, at url: URL) throws(MediaIOError) -> PixelBuffer {
        try posterPicture(chosen: asset.posterTime, from: try FrameReader(url: url))
    }

    /// The poster of the video `reader` reads, with the time chosen for it, if any; at most
    /// `size` (the import's thumbnail needs no more).
    static func posterPicture(chosen: MediaTime?, from reader: FrameReader, size: FrameSize = .original) throws(MediaIOError) -> PixelBuffer {
        if let chosen {
            return try reader.frame(at: .time(min(chosen, reader.duration)), mode: .exact, size: size).image
        }
        if let embedded = try reader.embeddedCover(size: size) { return embedded }
        let best: MediaTime
        do {
            best = try CoverPicker.suggestions(from: reader, count: 1).first?.time ?? .zero
        } catch .media(let error) {
            throw error
        } catch {
            throw .corrupt(path: reader.info.path, detail: "\(error)")
        }
        return try reader.frame(at: .time(best), mode: .exact, size: size).image
    }

    /// What tells thumbnails of different posters apart in the cache: "" for none chosen.
    static func posterKey(_ asset: Asset) -> String {
        asset.posterTime.map { "-p\($0.value)_\($0.timescale)" } ?? ""
    }
}
