import Foundation
import Imaging
import Motion
import ViewfinderCore

extension LayerRenderer {
    /// Draws the layer's picture over its bounds from `contentsRect`; during a contents
    /// cross-fade, `old · (1 − p) + new · p` (a true dissolve: an opaque pair stays opaque).
    func drawContents(of s: LayerState, layer: String, alpha: Double, on canvas: Canvas) throws(MotionRendererError) {
        let new = try s.contents.map { reference throws(MotionRendererError) in try image(reference, layer: layer) }
        guard let fade = s.contentsCrossFade else {
            if let new { canvas.draw(new, in: s.bounds, from: s.contentsRect, alpha: alpha) }
            return
        }
        let progress = fade.progress.isFinite ? min(max(fade.progress, 0), 1) : 1
        let old = try fade.from.map { reference throws(MotionRendererError) in try image(reference, layer: layer) }
        switch (old, new) {
        case (nil, nil):
            return
        case (let old?, nil):
            canvas.draw(old, in: s.bounds, from: s.contentsRect, alpha: alpha * (1 - progress))
        case (nil, let new?):
            canvas.draw(new, in: s.bounds, from: s.contentsRect, alpha: alpha * progress)
        case (let old?, let new?):
            canvas.drawGroup(alpha: alpha) {
                canvas.draw(old, in: s.bounds, from: s.contentsRect, alpha: 1 - progress)
                canvas.draw(new, in: s.bounds, from: s.contentsRect, alpha: progress, blend: .plus)
            }
        }
    }

    /// The picture `reference` names: one given to `setImage(_:for:)`, or the file at that path
    /// (relative to `imageDirectory`), decoded once and kept.
    func image(_ reference: ImageReference, layer: String) throws(MotionRendererError) -> Canvas.Image {
        if let cached = images[reference.name] { return cached }
        let url = url(of: reference)
        if let refusal = Self.refusal(ofImageAt: url.path) {
            throw .imageUnreadable(layer: layer, path: url.path, detail: refusal)
        }
        do {
            let picture = try Photo(url: url, maxPixels: SceneLimits.maxImagePixels).preview(fitting: maxImageSize)
            let image = try Canvas.Image(picture)
            images[reference.name] = image
            return image
        } catch let error as ImagingError {
            throw .imageUnreadable(layer: layer, path: url.path, detail: error.description)
        } catch {
            throw .imageUnreadable(layer: layer, path: url.path, detail: String(describing: error))
        }
    }

    /// Why the file at `path` is not opened at all, or nil: it must be a regular file (reading
    /// a FIFO blocks for ever, a device like /dev/zero never ends) within
    /// `SceneLimits.maxImageBytes`. Asked of the file system before anything opens it.
    static func refusal(ofImageAt path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return String(cString: strerror(errno)) }
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            break
        case S_IFDIR: return "it is a folder, not a regular file"
        case S_IFIFO: return "it is a FIFO (named pipe), not a regular file"
        case S_IFCHR, S_IFBLK: return "it is a device, not a regular file"
        default: return "it is not a regular file"
        }
        guard Int64(info.st_size) <= SceneLimits.maxImageBytes else {
            return "it is \(Int64(info.st_size) >> 20) MiB, more than the limit of \(SceneLimits.maxImageBytes >> 20) MiB for a picture"
        }
        return nil
    }

    /// Makes `picture` what layers whose `contents` is `reference` show, instead of a file
    /// (for generated pictures, or to load files ahead of rendering).
    public func setImage(_ picture: RasterImage, for reference: ImageReference) throws(MotionRendererError) {
        do {
            images[reference.name] = try Canvas.Image(picture)
        } catch {
            throw .imageUnreadable(layer: "", path: reference.name, detail: error.description)
        }
    }

    /// Forgets every picture (files are read again when next shown).
    public func removeAllImages() {
        images.removeAll()
    }

    private func url(of reference: ImageReference) -> URL {
        let path = (reference.name as NSString).expandingTildeInPath
        if path.hasPrefix("/") { return URL(fileURLWithPath: path) }
        if let imageDirectory { return imageDirectory.appendingPathComponent(path) }
        return URL(fileURLWithPath: path)
    }
}
