import Foundation
import Imaging
import MediaIO
import ViewfinderCore

/// How a thumbnail fills its box.
public enum ThumbnailContentMode: String, Sendable {
    /// The whole picture inside the box (one side may be shorter).
    case fit
    /// The box filled; the picture cropped to it, centred.
    case fill
}

/// How precisely a thumbnail is sized.
public enum ThumbnailResizeMode: String, Sendable {
    /// Exactly the size asked for.
    case exact
    /// Whatever shrink-on-load gives when it is within twice the size asked for (cheaper; like
    /// the platform's "fast" mode, the result may be larger than asked).
    case fast
}

extension MediaLibrary {
    /// The asset's picture at `size` (cached on disk; rebuilt when missing). Videos show their
    /// poster (see `setPoster`), live assets their key photo (see `setKeyPhoto`).
    public func thumbnail(_ asset: Asset, size: PixelSize, mode: ThumbnailContentMode = .fit,
                          resize: ThumbnailResizeMode = .exact) throws(LibraryError) -> URL {
        guard size.width > 0, size.height > 0 else { throw .invalidThumbnailSize(width: size.width, height: size.height) }
        let name = thumbnailName(asset, size: size, mode: mode, resize: resize)
        if let cached = cachedThumbnail(name) { return cached }
        try requireWritable()
        let picture = try render(asset, size: size, mode: mode, resize: resize)
        do {
            try storeThumbnail(picture, name: name)
        } catch {
            throw .thumbnailFailed(id: asset.id, reason: tr("cannot write it into the library's cache ({reason})", ["reason": "\(error)"]))
        }
        return folder.appendingPathComponent("\(LibraryFolder.thumbnails)/\(name)")
    }

    /// The cached thumbnail's URL when the cache holds it as a regular file (a link planted in
    /// the cache is never followed: the thumbnail is made again instead).
    private func cachedThumbnail(_ name: String) -> URL? {
        let relative = "\(LibraryFolder.thumbnails)/\(name)"
        guard storage.kind(of: relative) == .file else { return nil }
        return folder.appendingPathComponent(relative)
    }

    /// Encodes a thumbnail and writes it into the cache through the library's descriptors.
    private func storeThumbnail(_ picture: RasterImage, name: String) throws -> Void {
        let data = try ImageEncoder.encode(picture, as: .jpeg(quality: 85))
        try storage.write(data, to: "\(LibraryFolder.thumbnails)/\(name)")
    }

    /// The asset's picture at `size` as pixels, for a screen that draws it: decoded from the
    /// disk cache when it is there, else rendered (and cached on disk when the library is
    /// writable, so a read-only library still shows its grid).
    public func thumbnailImage(_ asset: Asset, size: PixelSize, mode: ThumbnailContentMode = .fill) throws(LibraryError) -> RasterImage {
        guard size.width > 0, size.height > 0 else { throw .invalidThumbnailSize(width: size.width, height: size.height) }
        // A cached file that no longer decodes is simply made again.
        if let url = cachedThumbnail(thumbnailName(asset, size: size, mode: mode, resize: .exact)),
           let cached = try? Photo(url: url).preview(fitting: size) {
            return cached
        }
        let picture = try render(asset, size: size, mode: mode, resize: .exact)
        if !isReadOnly { cacheThumbnail(picture, of: asset, size: size, mode: mode) }
        return picture
    }

    var thumbnailFolder: URL { folder.appendingPathComponent(LibraryFolder.thumbnails) }

    /// The name under which the disk cache keeps a thumbnail (in the thumbnails folder).
    func thumbnailName(_ asset: Asset, size: PixelSize, mode: ThumbnailContentMode, resize: ThumbnailResizeMode) -> String {
        "\(asset.id)-\(size.width)x\(size.height)-\(mode.rawValue)-\(resize.rawValue)\(Self.posterKey(asset)).jpg"
    }

    func removeThumbnails(of id: Int64) {
        guard let cache = try? storage.openFolder(LibraryFolder.thumbnails) else { return }
        for name in LibraryFolder.entries(of: cache) where name.hasPrefix("\(id)-") {
            LibraryFolder.remove(name, in: cache)
        }
    }

    private func render(_ asset: Asset, size: PixelSize, mode: ThumbnailContentMode,
                        resize: ThumbnailResizeMode) throws(LibraryError) -> RasterImage {
        let url = try originalURL(of: asset)
        let key = try keyPhoto(of: asset)
        do {
            if let key { return try Self.thumbnail(of: key, size: size, mode: mode) }
            switch asset.kind {
            case .photo, .live:
                return try Self.thumbnail(of: try Photo(url: url), size: size, mode: mode, resize: resize)
            case .video:
                return try Self.thumbnail(of: try Self.posterPicture(of: asset, at: url), size: size, mode: mode)
            }
        } catch {
            throw .thumbnailFailed(id: asset.id, reason: tr("its original cannot be decoded ({reason})", ["reason": "\(error)"]))
        }
    }

    /// The part of a picture of `source` size that a thumbnail shows (all of it for fit, the
    /// centred box-shaped part for fill) and the thumbnail's size.
    static func thumbnailLayout(source: PixelSize, box: PixelSize, mode: ThumbnailContentMode)
        -> (x: Double, y: Double, width: Double, height: Double, output: PixelSize)
    {
        guard mode == .fill else {
            return (0, 0, Double(source.width), Double(source.height), source.fitting(in: box))
        }
        let scale = max(Double(box.width) / Double(source.width), Double(box.height) / Double(source.height))
        let w = min(Double(source.width), Double(box.width) / scale)
        let h = min(Double(source.height), Double(box.height) / scale)
        return ((Double(source.width) - w) / 2, (Double(source.height) - h) / 2, w, h,
                PixelSize(width: min(box.width, source.width), height: min(box.height, source.height)))
    }

    /// A photo's thumbnail, decoded with as much shrink-on-load as the size allows.
    static func thumbnail(of photo: Photo, size: PixelSize, mode: ThumbnailContentMode,
                          resize: ThumbnailResizeMode = .exact) throws(ImagingError) -> RasterImage {
        let crop = thumbnailLayout(source: photo.size, box: size, mode: mode)
        var target = crop.output
        if resize == .fast {
            // Skip the final resample when shrink-on-load already lands within 2×.
            let reduction = min(crop.width / Double(target.width), crop.height / Double(target.height))
            let shrink = Double([8, 4, 2].first { Double($0) <= reduction } ?? 1)
            let loaded = PixelSize(width: Int(crop.width / shrink), height: Int(crop.height / shrink))
            if loaded.width <= target.width * 2 && loaded.height <= target.height * 2 { target = loaded }
        }
        return try photo.render(x: crop.x, y: crop.y, width: crop.width, height: crop.height, to: target)
    }

    /// A video frame's thumbnail.
    static func thumbnail(of picture: PixelBuffer, size: PixelSize, mode: ThumbnailContentMode) throws(ImagingError) -> RasterImage {
        let crop = thumbnailLayout(source: picture.size, box: size, mode: mode)
        var part = picture
        if mode == .fill {
            part = PixelBuffer(width: Int(crop.width), height: Int(crop.height))
            part.draw(picture, atX: -Int(crop.x), y: -Int(crop.y))
        }
        return try ImageScaler.scale(RasterImage(part), to: crop.output)
    }

    /// Stores an already made thumbnail in the cache under the name `thumbnail(_:)` looks for.
    func cacheThumbnail(_ picture: RasterImage, of asset: Asset, size: PixelSize, mode: ThumbnailContentMode) {
        try? storeThumbnail(picture, name: thumbnailName(asset, size: size, mode: mode, resize: .exact))
    }
}
