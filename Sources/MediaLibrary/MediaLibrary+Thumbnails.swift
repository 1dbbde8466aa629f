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
    /// The asset's picture at `size` (cached on disk; rebuilt when missing). Videos use their
    /// first keyframe.
    public func thumbnail(_ asset: Asset, size: PixelSize, mode: ThumbnailContentMode = .fit,
                          resize: ThumbnailResizeMode = .exact) throws(LibraryError) -> URL {
        guard size.width > 0, size.height > 0 else { throw .invalidName("\(size)") }
        let name = "\(asset.id)-\(size.width)x\(size.height)-\(mode.rawValue)-\(resize.rawValue).jpg"
        let url = thumbnailFolder.appendingPathComponent(name)
        if FileManager.default.fileExists(atPath: url.path) { return url }
        try requireWritable()
        let picture = try render(asset, size: size, mode: mode, resize: resize)
        do {
            try FileManager.default.createDirectory(at: thumbnailFolder, withIntermediateDirectories: true)
            try ImageEncoder.write(picture, to: url, quality: 85)
        } catch {
            throw .io(path: url.path, reason: "\(error)")
        }
        return url
    }

    var thumbnailFolder: URL { folder.appendingPathComponent("thumbnails") }

    func removeThumbnails(of id: Int64) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: thumbnailFolder.path)) ?? []
        for name in names where name.hasPrefix("\(id)-") {
            try? FileManager.default.removeItem(at: thumbnailFolder.appendingPathComponent(name))
        }
    }

    private func render(_ asset: Asset, size: PixelSize, mode: ThumbnailContentMode,
                        resize: ThumbnailResizeMode) throws(LibraryError) -> RasterImage {
        let source = asset.size
        // The part of the picture shown: all of it (fit) or the centred box-shaped part (fill).
        var crop = (x: 0.0, y: 0.0, w: Double(source.width), h: Double(source.height))
        var output = source.fitting(in: size)
        if mode == .fill {
            let scale = max(Double(size.width) / Double(source.width), Double(size.height) / Double(source.height))
            crop.w = min(Double(source.width), Double(size.width) / scale)
            crop.h = min(Double(source.height), Double(size.height) / scale)
            crop.x = (Double(source.width) - crop.w) / 2
            crop.y = (Double(source.height) - crop.h) / 2
            output = PixelSize(width: min(size.width, source.width), height: min(size.height, source.height))
        }
        let url = originalURL(of: asset)
        do {
            switch asset.kind {
            case .photo:
                let photo = try Photo(url: url)
                var target = output
                if resize == .fast {
                    // Skip the final resample when shrink-on-load already lands within 2×.
                    let reduction = min(crop.w / Double(output.width), crop.h / Double(output.height))
                    let shrink = Double([8, 4, 2].first { Double($0) <= reduction } ?? 1)
                    let loaded = PixelSize(width: Int(crop.w / shrink), height: Int(crop.h / shrink))
                    if loaded.width <= output.width * 2 && loaded.height <= output.height * 2 { target = loaded }
                }
                return try photo.render(x: crop.x, y: crop.y, width: crop.w, height: crop.h, to: target)
            case .video:
                let reader = try FrameReader(url: url)
                let frame = try reader.frame(at: .time(.zero), mode: .fast)
                var picture = frame.image
                if mode == .fill {
                    var cropped = PixelBuffer(width: Int(crop.w), height: Int(crop.h))
                    cropped.draw(picture, atX: -Int(crop.x), y: -Int(crop.y))
                    picture = cropped
                }
                return try ImageScaler.scale(RasterImage(picture), to: output)
            }
        } catch let error as LibraryError {
            throw error
        } catch {
            throw .invalidData(path: url.path, reason: "\(error)")
        }
    }
}
